import FuzzerDriver
import RxSwift
import RxTestCore

// libFuzzer target for RxTestCore's marble text.
//
// Input: the first byte chooses the parameters (frame, resolution, origin), the rest is
// UTF-8 text (invalid sequences become U+FFFD). Its first line is the timeline; every
// further line is a key: plain lines are keys of `values`, lines starting with `!` name
// keys of `errors`.
//
// Each run feeds the text to every entry point and checks what comes back:
// - `Marbles.parseEventsAndTimes` (RxSwift's example format, multi-character keys);
// - `Marbles.parseTimeline`, `Marbles.parse` and `Marbles.parseSubscriptions` (the richer
//   marble syntax: groups, `^`, time progressions, frames);
// - rendering parsed events back with `Marbles.render` and parsing the result again,
//   which must give the same events (the renderer's documented promise);
// - a `TestScheduler` replaying the parsed events through hot and cold observables,
//   whose recording must obey the Rx grammar.
// A thrown `MarbleError` is a valid outcome; a trap, a sanitizer report or a broken
// invariant (`check`) is a finding.

struct FuzzError: Error, Equatable, CustomStringConvertible {
    let key: String
    var description: String { "FuzzError(\(key))" }
}

/// Stops the run with a message libFuzzer shows next to the input that broke it.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError("fuzz invariant broken: \(message())")
    }
}

let frames: [TestTime] = [1, 1, 2, 10, 0, -1, Int.max / 2, Int.max]
let resolutions: [Double] = [1, 0.001, 0.5, 0.1, 0, -1, .nan, .infinity]
let origins: [TestTime] = [0, 200, -50, Int.max, Int.min, 1 << 40, 0, 7]

/// The largest |time| the scheduler stage replays: beyond it the scheduler's own clock
/// arithmetic (time + offset) is not what this target tests.
let schedulerTimeLimit = 1 << 40
/// The largest span the render round trip draws: the renderer writes one column per
/// frame, so its output grows with the span by design.
let renderSpanLimit = 2_000

func describe<T>(_ event: Event<T>) -> String {
    switch event {
    case .next(let element): return "next(\(element))"
    case .error(let error): return "error(\(error))"
    case .completed: return "completed"
    }
}

func describe<T>(_ events: [Recorded<Event<T>>]) -> [String] {
    events.map { "\($0.time):\(describe($0.value))" }
}

/// Times never go back, nothing follows a terminal event.
func checkGrammar<T>(_ events: [Recorded<Event<T>>], _ what: String) {
    var previous = Int.min
    var ended = false
    for recorded in events {
        check(!ended, "\(what): event after a terminal event in \(describe(events))")
        check(recorded.time >= previous, "\(what): time goes back in \(describe(events))")
        previous = recorded.time
        if recorded.value.isStopEvent { ended = true }
    }
}

func fuzzParseEventsAndTimes(_ timeline: String, values: [String: Int], errors: [String: Swift.Error]) {
    guard let timelines = try? Marbles.parseEventsAndTimes(timeline: timeline, values: values, errors: errors) else {
        return
    }
    check(!timelines.isEmpty, "parseEventsAndTimes returned no timeline for \(timeline.debugDescription)")
    let length = timeline.count
    for events in timelines {
        checkGrammar(events, "parseEventsAndTimes")
        for recorded in events {
            check(recorded.time >= 0 && recorded.time <= length, "parseEventsAndTimes: time \(recorded.time) outside 0...\(length)")
        }
    }
}

func fuzzRichSyntax(_ marbles: String, values: [String: Int], errors: [String: Swift.Error], frame: TestTime, resolution: Double, origin: TestTime) {
    let length = marbles.count
    if let timeline = try? Marbles.parseTimeline(marbles, frame: frame, resolution: resolution) {
        var previousTime = Int.min
        var previousPosition = -1
        for entry in timeline.entries {
            check(entry.time >= previousTime, "parseTimeline: time goes back")
            check(entry.position > previousPosition && entry.position < length, "parseTimeline: position \(entry.position) out of order or outside the text")
            previousTime = entry.time
            previousPosition = entry.position
        }
        if let zero = timeline.zeroPosition {
            check(zero >= 0 && zero < length, "parseTimeline: zero position \(zero) outside the text")
        }
    }
    if let events = try? Marbles.parse(marbles, values: values, errors: errors, frame: frame, resolution: resolution, origin: origin) {
        checkGrammar(events, "parse")
    }
    if let subscriptions = try? Marbles.parseSubscriptions(marbles, frame: frame, resolution: resolution, origin: origin) {
        var previous = Int.min
        for subscription in subscriptions {
            check(subscription.subscribe >= previous, "parseSubscriptions: subscriptions out of order")
            check(subscription.unsubscribe >= subscription.subscribe, "parseSubscriptions: disposed before subscribed")
            previous = subscription.unsubscribe == Int.max ? subscription.subscribe : subscription.unsubscribe
        }
    }
}

/// Parses with `String` keys (each key is its own value), renders the events back and
/// parses the drawing again: the events must survive the round trip.
func fuzzRoundTrip(_ marbles: String, frame: TestTime, errors: [String: Swift.Error]) {
    guard frame > 0, frame <= 10,
          let events = try? Marbles.parse(marbles, errors: errors, frame: frame) else { return }
    guard let first = events.first?.time, let last = events.last?.time,
          first >= -renderSpanLimit, last <= renderSpanLimit else { return }
    let diagram = Marbles.render(events)
    let reparsed: [Recorded<Event<String>>]
    do {
        reparsed = try Marbles.parse(diagram.marbles, values: diagram.values, errors: diagram.errors, frame: diagram.frame, origin: diagram.origin)
    } catch {
        fatalError("fuzz invariant broken: the renderer drew \(diagram.marbles.debugDescription) for \(marbles.debugDescription), which does not parse: \(error)")
    }
    check(describe(reparsed) == describe(events), "round trip of \(marbles.debugDescription) through \(diagram.marbles.debugDescription) changed \(describe(events)) into \(describe(reparsed))")
}

/// Replays parsed events through hot and cold testable observables on a TestScheduler.
func fuzzScheduler(_ marbles: String, frame: TestTime, errors: [String: Swift.Error]) {
    guard frame > 0, frame <= 10 else { return }
    let scheduler = TestScheduler(initialClock: 0)
    guard let hot = try? scheduler.createHotObservable(marbles, errors: errors, frame: frame) else { return }
    guard hot.recordedEvents.count <= 64,
          hot.recordedEvents.allSatisfy({ abs($0.time) <= schedulerTimeLimit }) else { return }
    let observer = scheduler.start { hot.asObservable() }
    checkGrammar(observer.events, "hot replay")
    // Everything recorded was emitted by the source, in order: the events after the
    // subscription at 200 up to the disposal at 1000 (an event at 1000 was scheduled
    // before the disposal, so it runs first).
    let emitted = describe(hot.recordedEvents.filter { $0.time > TestScheduler.Defaults.subscribed && $0.time <= TestScheduler.Defaults.disposed })
    let recorded = describe(observer.events)
    check(recorded.count <= emitted.count, "hot replay recorded \(recorded), more than the \(emitted) emitted")
    for (index, text) in recorded.enumerated() {
        check(emitted[index] == text, "hot replay: \(recorded) is not a prefix of \(emitted)")
    }

    let coldScheduler = TestScheduler(initialClock: 0)
    guard let cold = try? coldScheduler.createColdObservable(marbles, errors: errors, frame: frame) else { return }
    let coldObserver = coldScheduler.start { cold.asObservable() }
    checkGrammar(coldObserver.events, "cold replay")
    let sourceValues = cold.recordedEvents.map { describe($0.value) }
    let recordedValues = coldObserver.events.map { describe($0.value) }
    check(recordedValues.count <= sourceValues.count, "cold replay recorded \(recordedValues), more than the \(sourceValues) emitted")
    for (index, text) in recordedValues.enumerated() {
        check(sourceValues[index] == text, "cold replay: \(recordedValues) is not a prefix of \(sourceValues)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarbles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let selector = bytes.first else { return 0 }
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let timeline = lines.isEmpty ? "" : lines.removeFirst()

    var values: [String: Int] = [:]
    var errors: [String: Swift.Error] = [:]
    for (index, line) in lines.enumerated() {
        if line.hasPrefix("!") {
            let key = String(line.dropFirst())
            errors[key] = FuzzError(key: key)
        } else {
            values[line] = index
        }
    }
    let frame = frames[Int(selector & 7)]
    let resolution = resolutions[Int((selector >> 3) & 7)]
    let origin = origins[Int((selector >> 6) & 3) + ((selector & 1) == 0 ? 0 : 4)]

    fuzzParseEventsAndTimes(timeline, values: values, errors: errors)
    fuzzRichSyntax(timeline, values: values, errors: errors, frame: frame, resolution: resolution, origin: origin)
    fuzzRoundTrip(timeline, frame: frame, errors: errors)
    fuzzScheduler(timeline, frame: frame, errors: errors)
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver takes over.
@_cdecl("FuzzMarbles_main")
public func fuzzMarblesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
        guard let data else { return 0 }
        return fuzzMarbles(data, size)
    }
}
