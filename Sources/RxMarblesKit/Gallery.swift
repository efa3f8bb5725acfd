import Foundation
import RxSwift
import RxTestCore

/// A stream given as marble text and parsed: its events (an element's value is its
/// marble key) and how many frames the text spans.
public struct MarbleInput: Equatable {
    /// The events, one tick per frame, time 0 at the zero point (`^`, or else the first
    /// frame; events before `^` have negative times).
    public var events: [Recorded<Event<String>>]
    /// The number of frames up to the last event.
    public var frameCount: Int
    /// The marble text, if the input came from one.
    public var text: String?
    /// The position in `text` of each event.
    public var positions: [Int]
    /// How many frames the text has before its zero point `^` (0 without one).
    public var framesBeforeZero = 0
    /// Whether the text marks its zero point with `^`.
    public var marksZero = false
    /// Whether the stream is hot even where the example's input is cold: the output
    /// of the stage before in a chain, which happens when it happens.
    public var isHot = false

    /// A parsed input.
    public init(events: [Recorded<Event<String>>], frameCount: Int, text: String? = nil, positions: [Int] = []) {
        self.events = events
        self.frameCount = frameCount
        self.text = text
        self.positions = positions
    }
}

/// Who reads a message: someone at the command line or in the playground page.
public enum MessageAudience: Sendable {
    /// `rxmarbles`'s options: `--input 2`.
    case commandLine
    /// The page's fields: `Input 2`.
    case page
}

/// Why a gallery entry could not use the inputs it was given.
public enum GalleryInputError: Error, Equatable, CustomStringConvertible {
    /// The entry takes a different number of input streams.
    case wrongInputCount(operator: String, expected: ClosedRange<Int>, names: [String], got: Int)
    /// A value of an input is not one the example's element type accepts; `position`
    /// is where the key stands in the marble text, if known.
    case valueNotAccepted(operator: String, input: Int, name: String, key: String, frame: Int, position: Int?, expected: String)
    /// A cold input has events before its zero point (`^` marks the subscription of hot
    /// inputs only).
    case coldInputBeforeZero(operator: String, input: Int, name: String)

    /// Whether this is a usage error (exit 64) rather than a data error (exit 65).
    public var isUsageError: Bool {
        if case .wrongInputCount = self { return true }
        return false
    }

    public var description: String {
        description(for: .commandLine)
    }

    /// The message in the words of `audience`: `--input 2` on the command line,
    /// `Input 2` in the playground page.
    public func description(for audience: MessageAudience) -> String {
        let inputWord = audience == .commandLine ? "--input" : "Input"
        switch self {
        case let .wrongInputCount(name, expected, names, got):
            let count: String
            if expected.lowerBound == expected.upperBound {
                count = expected.lowerBound == 1 ? "1 input stream" : "\(expected.lowerBound) input streams"
            } else if expected.upperBound == Int.max {
                count = "at least \(expected.lowerBound) input streams"
            } else {
                count = "\(expected.lowerBound) to \(expected.upperBound) input streams"
            }
            let given = audience == .commandLine ? "\(got) --input" : (got == 1 ? "1 input" : "\(got) inputs")
            if expected.upperBound == 0 {
                return audience == .commandLine
                    ? "\(name) creates its sequence itself and takes no --input; got \(got)."
                    : "\(name) creates its sequence itself and takes no input; got \(given)."
            }
            return "\(name) takes \(count) (\(names.joined(separator: ", "))); got \(given)."
        case let .valueNotAccepted(name, input, inputName, key, frame, position, expected):
            let place = position.map { "at position \($0)" } ?? "at frame \(frame)"
            return "\(inputWord) \(input) (\(inputName)) of \(name): '\(key)' \(place) is not \(expected)."
        case let .coldInputBeforeZero(name, input, inputName):
            return "\(inputWord) \(input) (\(inputName)) of \(name) is cold: its events are timed from each subscription, so it cannot have events before '^'."
        }
    }
}

/// How one input of an example is made: its events, hot or cold, and how a marble key
/// given by the user becomes an element.
public struct InputSpec<Element> {
    /// The name shown beside the stream and used in the call (`a`, `source`).
    public var name: String
    /// The default events (one tick per frame).
    public var events: [Recorded<Event<Element>>]
    /// Cold: events relative to each subscription; hot: at absolute times.
    public var isCold: Bool
    /// Turns a marble key into an element; `nil` refuses it.
    public var decode: @Sendable (String) -> Element?
    /// What `decode` accepts, for the error message (`a digit 0-9`).
    public var accepts: String

    /// An input spec.
    public init(name: String, events: [Recorded<Event<Element>>], isCold: Bool, accepts: String, decode: @escaping @Sendable (String) -> Element?) {
        self.name = name
        self.events = events
        self.isCold = isCold
        self.accepts = accepts
        self.decode = decode
    }
}

extension InputSpec {
    /// The spec's events replaced by those of marble text (read by RxTestCore's parser,
    /// keys decoded like a user's). The gallery's own marbles are checked by its tests.
    func withMarbles(_ marbles: String) -> InputSpec {
        var copy = self
        do {
            let input = try MarbleInputParser.parse(marbles)
            copy.events = try input.events.map { record in
                switch record.value {
                case .next(let key):
                    guard let element = decode(key) else {
                        throw GalleryInputError.valueNotAccepted(operator: "", input: 0, name: name, key: key, frame: record.time, position: nil, expected: accepts)
                    }
                    return Recorded(time: record.time, value: .next(element))
                case .error(let error):
                    return Recorded(time: record.time, value: .error(error))
                case .completed:
                    return Recorded(time: record.time, value: .completed)
                }
            }
        } catch {
            rxFatalError("the gallery's marbles \"\(marbles)\" for \(name) are wrong: \(error)")
        }
        return copy
    }
}

extension InputSpec where Element == Int {
    /// A hot stream of integers from marble text (digit keys).
    public static func hot(_ name: String, _ marbles: String) -> InputSpec<Int> {
        hot(name, [Recorded<Event<Int>>]()).withMarbles(marbles)
    }

    /// A cold stream of integers from marble text (digit keys).
    public static func cold(_ name: String, _ marbles: String) -> InputSpec<Int> {
        cold(name, [Recorded<Event<Int>>]()).withMarbles(marbles)
    }

    /// A hot stream of integers; the user's marble keys must be digits.
    public static func hot(_ name: String, _ events: [Recorded<Event<Int>>]) -> InputSpec<Int> {
        InputSpec(name: name, events: events, isCold: false, accepts: "a digit 0-9 (this example works on integers)") { Int($0) }
    }

    /// A cold stream of integers; the user's marble keys must be digits.
    public static func cold(_ name: String, _ events: [Recorded<Event<Int>>]) -> InputSpec<Int> {
        InputSpec(name: name, events: events, isCold: true, accepts: "a digit 0-9 (this example works on integers)") { Int($0) }
    }
}

extension InputSpec where Element == String {
    /// A hot stream of strings from marble text (any key).
    public static func hotStrings(_ name: String, _ marbles: String) -> InputSpec<String> {
        hot(name, [Recorded<Event<String>>]()).withMarbles(marbles)
    }

    /// A cold stream of strings from marble text (any key).
    public static func coldStrings(_ name: String, _ marbles: String) -> InputSpec<String> {
        cold(name, [Recorded<Event<String>>]()).withMarbles(marbles)
    }

    /// A hot stream of strings; any marble key is accepted.
    public static func hot(_ name: String, _ events: [Recorded<Event<String>>]) -> InputSpec<String> {
        InputSpec(name: name, events: events, isCold: false, accepts: "a value") { $0 }
    }

    /// A cold stream of strings; any marble key is accepted.
    public static func cold(_ name: String, _ events: [Recorded<Event<String>>]) -> InputSpec<String> {
        InputSpec(name: name, events: events, isCold: true, accepts: "a value") { $0 }
    }
}

extension InputSpec where Element == String {
    /// A hot stream whose keys name other inputs (`a`, `b`): the source of a
    /// higher-order example, which maps each key to the input of that name.
    static func hotKeys(_ name: String, _ marbles: String, keys: [String]) -> InputSpec<String> {
        InputSpec(name: name, events: [], isCold: false, accepts: "one of \(keys.joined(separator: ", ")) (the name of the inner stream to use)") {
            keys.contains($0) ? $0 : nil
        }.withMarbles(marbles)
    }
}

/// The error every example that fails uses, shown as `#`.
public struct ExampleError: Error, Equatable, CustomStringConvertible {
    /// A short text.
    public var message: String

    /// An error with `message`.
    public init(_ message: String = "error") {
        self.message = message
    }

    public var description: String { message }
}

/// One example of the gallery: an operator family's canonical use, run live on a
/// `TestScheduler` each time it is shown.
public struct GalleryEntry: Sendable {
    /// The operator's name as typed on the command line (`combineLatest`).
    public let name: String
    /// Other spellings that select it (`observe(on:)`).
    public let aliases: [String]
    /// The family heading it is listed under.
    public let family: GalleryFamily
    /// A one-line description.
    public let summary: String
    /// The names of the inputs of the default example.
    public let inputNames: [String]
    /// How many `--input` streams it takes.
    public let inputCount: ClosedRange<Int>
    /// What each input takes as an element key (`a digit 0-9 ...`); inputs past the
    /// last take what it takes.
    public let inputAccepts: [String]
    /// Whether its diagram always shows the inputs' subscriptions.
    public private(set) var showsSubscriptions = false
    /// The Swift statements that make the output, the last one an expression, when
    /// `call` is not code itself (a test written from the diagram uses them); by
    /// default the statements of `call`, which are separated by `; `. `{inputs}`
    /// stands for the inputs' names (`a, b`), however many the diagram has.
    public private(set) var code: [String]?
    private let make: @Sendable ([MarbleInput]?, Int?) throws -> OperatorDiagram

    init(name: String, aliases: [String], family: GalleryFamily, summary: String, inputNames: [String], inputAccepts: [String], inputCount: ClosedRange<Int>, make: @escaping @Sendable ([MarbleInput]?, Int?) throws -> OperatorDiagram) {
        self.name = name
        self.inputAccepts = inputAccepts
        self.aliases = aliases
        self.family = family
        self.summary = summary
        self.inputNames = inputNames
        self.inputCount = inputCount
        self.make = make
    }

    /// The same entry, its output made by `statements` in a written test.
    func written(as statements: [String]) -> GalleryEntry {
        var copy = self
        copy.code = statements
        return copy
    }

    /// The same entry, its diagrams showing the inputs' subscriptions.
    func showingSubscriptions() -> GalleryEntry {
        var copy = self
        copy.showsSubscriptions = true
        return copy
    }

    /// The diagram of the default example, computed now.
    public func diagram() -> OperatorDiagram {
        do {
            var diagram = try make(nil, nil)
            diagram.showsSubscriptions = showsSubscriptions
            return diagram
        } catch {
            rxFatalError("the default example of \(name) was refused: \(error)")
        }
    }

    /// The diagram with the inputs replaced by `inputs` (the example's own when `nil`),
    /// computed now; with `until`, the output is disposed at that frame instead of a
    /// little past the inputs.
    public func diagram(inputs: [MarbleInput]?, until: Int? = nil) throws -> OperatorDiagram {
        if let inputs, !inputCount.contains(inputs.count) {
            throw GalleryInputError.wrongInputCount(operator: name, expected: inputCount, names: inputNames, got: inputs.count)
        }
        var diagram = try make(inputs, until)
        diagram.showsSubscriptions = showsSubscriptions
        return diagram
    }
}

/// The headings of the gallery, in display order.
public enum GalleryFamily: String, CaseIterable, Sendable {
    case creating = "Creating"
    case transforming = "Transforming"
    case filtering = "Filtering"
    case combining = "Combining"
    case timing = "Time"
    case errors = "Error handling"
    case sharing = "Sharing"
    case scheduling = "Scheduling"
}

/// One run of an example: a fresh `TestScheduler` at 0, the inputs as testable
/// observables, and the output recorded by a `TestableObserver` subscribed at 0.
final class ExampleRun {
    let scheduler = TestScheduler(initialClock: 0)
    let operatorName: String
    let userInputs: [MarbleInput]?
    private(set) var timelines: [Timeline] = []
    private(set) var inputFrames = 0
    private var inputTypes: [String] = []
    private var subscriptionReaders: [() -> [Subscription]] = []

    /// When the output is subscribed: 0, or later when a user's hot input has frames
    /// before its zero point `^` (then the hot inputs move right by as much, so that
    /// frame 0 is the first character of the longest lead-in).
    let subscribeAt: TestTime

    init(operatorName: String, userInputs: [MarbleInput]?) {
        self.operatorName = operatorName
        self.userInputs = userInputs
        self.subscribeAt = userInputs?.map(\.framesBeforeZero).max() ?? 0
    }

    /// The testable observable for input `index`: the spec's events, or the user's with
    /// their keys decoded by the spec.
    func input<Element>(_ spec: InputSpec<Element>, index: Int, name: String? = nil) throws -> TestableObservable<Element> {
        var events = spec.events
        var frames = (spec.events.map(\.time).max() ?? 0) + 1
        let isCold = spec.isCold && userInputs?[index].isHot != true
        if let userInputs {
            let user = userInputs[index]
            if isCold, user.events.contains(where: { $0.time < 0 }) {
                throw GalleryInputError.coldInputBeforeZero(operator: operatorName, input: index + 1, name: name ?? spec.name)
            }
            let shift = isCold ? 0 : subscribeAt
            events = try user.events.enumerated().map { offset, record in
                let time = record.time + shift
                switch record.value {
                case .next(let key):
                    guard let element = spec.decode(key) else {
                        let position = offset < user.positions.count ? user.positions[offset] : nil
                        throw GalleryInputError.valueNotAccepted(operator: operatorName, input: index + 1, name: name ?? spec.name, key: key, frame: time, position: position, expected: spec.accepts)
                    }
                    return Recorded(time: time, value: .next(element))
                case .error(let error):
                    return Recorded(time: time, value: .error(error))
                case .completed:
                    return Recorded(time: time, value: .completed)
                }
            }
            frames = user.frameCount + shift
        }
        inputFrames = max(inputFrames, frames)
        inputTypes.append("\(Element.self)")
        var timeline = Timeline(name: name ?? spec.name, recorded: events, isCold: isCold)
        if let user = userInputs?[index], user.marksZero, !isCold {
            // Drawn as typed: the `^` stays where the text has it.
            timeline.zeroFrame = subscribeAt
        }
        timelines.append(timeline)
        let observable = isCold ? scheduler.createColdObservable(events) : scheduler.createHotObservable(events)
        subscriptionReaders.append { observable.subscriptions }
        return observable
    }

    /// Subscribes the output at 0, runs the scheduler up to `horizon` (or a little past
    /// the inputs), disposes, and returns the diagram.
    func finish<Output>(_ entry: EntryText, horizon: Int?, output make: () -> Observable<Output>) -> OperatorDiagram {
        let end = horizon ?? max(inputFrames + 6, 12)
        let observer = scheduler.createObserver(Output.self)
        let subscription = SerialDisposable()
        let output = make()
        if subscribeAt == 0 {
            subscription.disposable = output.subscribe(observer)
        } else {
            scheduler.scheduleAt(subscribeAt) { subscription.disposable = output.subscribe(observer) }
        }
        scheduler.scheduleAt(end) { subscription.dispose() }
        scheduler.advanceTo(end)
        subscription.dispose()
        for (index, read) in subscriptionReaders.enumerated() {
            timelines[index].subscriptions = read().map { FrameSpan(start: $0.subscribe, end: $0.unsubscribe == Int.max ? nil : $0.unsubscribe) }
        }
        // Disposal can leave work queued past the end (subscribe(on:) schedules its
        // unsubscription); nothing will run it, and it would keep the scheduler alive.
        scheduler.discardPendingWork()
        var recorded = Timeline(name: "", recorded: observer.events)
        if subscribeAt > 0 {
            recorded.zeroFrame = subscribeAt
        }
        var diagram = OperatorDiagram(
            name: entry.name, summary: entry.summary, inputs: timelines, call: entry.call,
            output: recorded, minimumFrameCount: max(inputFrames + 1, horizon ?? 0)
        )
        diagram.run = OperatorDiagram.RunFacts(inputTypes: inputTypes, outputType: "\(Output.self)", subscribeFrame: subscribeAt, disposeFrame: end)
        return diagram
    }
}

extension InputSpec: Sendable where Element: Sendable {}

/// The texts of an entry.
struct EntryText {
    let name: String
    let summary: String
    let call: String
}

extension GalleryEntry {
    /// An example without inputs: a creation operator.
    static func source<Output>(
        _ name: String, _ family: GalleryFamily, aliases: [String] = [], _ summary: String,
        call: String, horizon: Int? = nil,
        _ make: @escaping @Sendable (TestScheduler) -> Observable<Output>
    ) -> GalleryEntry {
        let text = EntryText(name: name, summary: summary, call: call)
        return GalleryEntry(name: name, aliases: aliases, family: family, summary: summary, inputNames: [], inputAccepts: [], inputCount: 0...0) { inputs, until in
            let run = ExampleRun(operatorName: name, userInputs: inputs)
            return run.finish(text, horizon: until ?? horizon) { make(run.scheduler) }
        }
    }

    /// An example with one input, named `source` unless the spec says otherwise.
    static func unary<A: Sendable, Output>(
        _ name: String, _ family: GalleryFamily, aliases: [String] = [], _ summary: String,
        call: String, horizon: Int? = nil, _ a: InputSpec<A>,
        _ make: @escaping @Sendable (TestableObservable<A>, TestScheduler) -> Observable<Output>
    ) -> GalleryEntry {
        let text = EntryText(name: name, summary: summary, call: call)
        return GalleryEntry(name: name, aliases: aliases, family: family, summary: summary, inputNames: [a.name], inputAccepts: [a.accepts], inputCount: 1...1) { inputs, until in
            let run = ExampleRun(operatorName: name, userInputs: inputs)
            let first = try run.input(a, index: 0)
            return run.finish(text, horizon: until ?? horizon) { make(first, run.scheduler) }
        }
    }

    /// An example with two inputs of possibly different element types.
    static func binary<A: Sendable, B: Sendable, Output>(
        _ name: String, _ family: GalleryFamily, aliases: [String] = [], _ summary: String,
        call: String, horizon: Int? = nil, _ a: InputSpec<A>, _ b: InputSpec<B>,
        _ make: @escaping @Sendable (TestableObservable<A>, TestableObservable<B>, TestScheduler) -> Observable<Output>
    ) -> GalleryEntry {
        let text = EntryText(name: name, summary: summary, call: call)
        return GalleryEntry(name: name, aliases: aliases, family: family, summary: summary, inputNames: [a.name, b.name], inputAccepts: [a.accepts, b.accepts], inputCount: 2...2) { inputs, until in
            let run = ExampleRun(operatorName: name, userInputs: inputs)
            let first = try run.input(a, index: 0)
            let second = try run.input(b, index: 1)
            return run.finish(text, horizon: until ?? horizon) { make(first, second, run.scheduler) }
        }
    }

    /// An example with three inputs of possibly different element types (a source and
    /// the two inner streams a higher-order operator switches between, say).
    static func ternary<A: Sendable, B: Sendable, C: Sendable, Output>(
        _ name: String, _ family: GalleryFamily, aliases: [String] = [], _ summary: String,
        call: String, horizon: Int? = nil, _ a: InputSpec<A>, _ b: InputSpec<B>, _ c: InputSpec<C>,
        _ make: @escaping @Sendable (TestableObservable<A>, TestableObservable<B>, TestableObservable<C>, TestScheduler) -> Observable<Output>
    ) -> GalleryEntry {
        let text = EntryText(name: name, summary: summary, call: call)
        return GalleryEntry(name: name, aliases: aliases, family: family, summary: summary, inputNames: [a.name, b.name, c.name], inputAccepts: [a.accepts, b.accepts, c.accepts], inputCount: 3...3) { inputs, until in
            let run = ExampleRun(operatorName: name, userInputs: inputs)
            let first = try run.input(a, index: 0)
            let second = try run.input(b, index: 1)
            let third = try run.input(c, index: 2)
            return run.finish(text, horizon: until ?? horizon) { make(first, second, third, run.scheduler) }
        }
    }

    /// An example over any number of inputs of one type (at least `minimum`); extra
    /// user inputs are made like the last spec and named `c`, `d`, ...
    static func variadic<A: Sendable, Output>(
        _ name: String, _ family: GalleryFamily, aliases: [String] = [], _ summary: String,
        call: String, horizon: Int? = nil, minimum: Int = 1, _ specs: [InputSpec<A>],
        _ make: @escaping @Sendable ([TestableObservable<A>], TestScheduler) -> Observable<Output>
    ) -> GalleryEntry {
        precondition(!specs.isEmpty, "Rivulet: a variadic gallery entry needs at least one input spec.")
        let text = EntryText(name: name, summary: summary, call: call)
        return GalleryEntry(name: name, aliases: aliases, family: family, summary: summary, inputNames: specs.map(\.name), inputAccepts: specs.map(\.accepts), inputCount: minimum...Int.max) { inputs, until in
            let run = ExampleRun(operatorName: name, userInputs: inputs)
            let count = inputs?.count ?? specs.count
            let letters = Array("abcdefghijklmnopqrstuvwxyz")
            var observables: [TestableObservable<A>] = []
            for index in 0..<count {
                let spec = specs[min(index, specs.count - 1)]
                let name = index < specs.count ? spec.name : String(letters[index % letters.count])
                observables.append(try run.input(spec, index: index, name: name))
            }
            var entryText = text
            if let inputs, inputs.count != specs.count {
                // The call names the inputs; keep it true to what runs.
                let names = (0..<inputs.count).map { $0 < specs.count ? specs[$0].name : String(letters[$0 % letters.count]) }
                entryText = EntryText(name: name, summary: summary, call: text.call.replacingOccurrences(of: specs.map(\.name).joined(separator: ", "), with: names.joined(separator: ", ")))
            }
            return run.finish(entryText, horizon: until ?? horizon) { make(observables, run.scheduler) }
        }
    }
}
