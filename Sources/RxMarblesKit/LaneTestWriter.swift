import RxLanes

/// Writes a recording as a `TestScheduler` test: the lanes named as inputs become hot
/// observables with their events at the recorded times, quantized to ticks; the lane
/// named as the output becomes the expectation; between them, a marked place for the
/// pipeline under test, which the user fills in.
///
/// The tick is the coarsest step of 1 s, 100 ms, 10 ms ... 1 ns at which no two input
/// events change order and none falls on the subscription's tick, and the test says
/// which. An output event gets the virtual time of the input event before it (a
/// pipeline without timers answers at once); one that came long after its input, or
/// before any, probably waited on a wall-clock timer, and the test's comment says so.
public struct LaneTestWriter: Sendable {
    /// XCTest or Swift Testing.
    public var style: TestStyle

    /// A writer of `style`.
    public init(style: TestStyle) {
        self.style = style
    }

    /// Why a recording could not be written as a test.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// What was wrong.
        public var description: String
    }

    /// The virtual time of the output's subscription (`TestScheduler.start`'s default).
    static let subscribed = 200
    /// How long after the input before it an output event may come and still count as
    /// its answer, in nanoseconds: longer means a timer, most likely.
    static let answerWindow: UInt64 = 1_000_000
    /// The steps tried, coarsest first, in nanoseconds, with how the test names them.
    static let steps: [(nanoseconds: UInt64, name: String)] = [
        (1_000_000_000, "1 s"), (100_000_000, "100 ms"), (10_000_000, "10 ms"), (1_000_000, "1 ms"),
        (100_000, "100 µs"), (10_000, "10 µs"), (1_000, "1 µs"), (100, "100 ns"), (10, "10 ns"), (1, "1 ns"),
    ]

    /// One lane's events as the test uses them: its first subscription's.
    private struct LaneEvents {
        let name: String
        let identifier: String
        let type: String
        let subscriptions: Int
        var events: [(sequence: Int, entry: LaneRecording.Entry)]
    }

    /// The test source for `recording`, with the lanes named `inputs` as hot inputs and
    /// the lane named `output` as the expectation; `file` is the recording's file name,
    /// for the comment; `imports` are the modules the pipeline needs (the app's own).
    public func write(_ recording: LaneRecording, inputs: [String], output: String, file: String? = nil, imports: [String] = []) throws(Failure) -> String {
        guard !inputs.contains(output) else {
            throw Failure(description: "lane '\(output)' cannot be both an input and the output")
        }
        let outputLane = try laneEvents(recording, output, includingSubscription: true)
        var inputLanes: [LaneEvents] = []
        for name in inputs {
            inputLanes.append(try laneEvents(recording, name, includingSubscription: false))
        }
        guard let subscription = outputLane.events.first, subscription.entry.kind == .subscribed else {
            let dropped = recording.lane(named: output).map { recording.lanes[$0].dropped } ?? 0
            throw Failure(description: "the output lane '\(output)' no longer holds its subscription (its ring dropped \(dropped) entries): record with a larger capacity")
        }
        var notes: [String] = []
        let origin = subscription.entry.time
        for index in inputLanes.indices {
            let early = inputLanes[index].events.filter { $0.entry.time <= origin }.count
            if early > 0 {
                notes.append("\(inputLanes[index].name): \(early) event(s) came before the output's subscription and are left out.")
                inputLanes[index].events.removeAll { $0.entry.time <= origin }
            }
            if inputLanes[index].subscriptions > 1 {
                notes.append("\(inputLanes[index].name) was subscribed \(inputLanes[index].subscriptions) times; its first subscription's events are the input.")
            }
        }
        let inputEvents = inputLanes.enumerated()
            .flatMap { lane, events in events.events.map { (lane: lane, sequence: $0.sequence, time: $0.entry.time, thread: $0.entry.thread) } }
            .sorted { $0.sequence < $1.sequence }
        let step = Self.step(for: inputEvents, origin: origin)
        if !step.keepsOrder {
            notes.append("Some input events of different lanes were recorded at the same nanosecond: the test sends them in the order the inputs are declared, which may not be the recorded one.")
        }
        func tick(_ time: UInt64) -> Int {
            Self.subscribed + Int((time - min(time, origin)) / step.nanoseconds)
        }

        // Each output event's virtual time: its input's, or the recorded one after a wait.
        var expected: [(time: Int, kind: LaneRecording.Kind)] = []
        var waited: [Int] = []
        var handedOver: [Int] = []
        var inputCursor = 0
        var lastInput: (time: UInt64, thread: Int)?
        for (sequence, entry) in outputLane.events.dropFirst() where entry.kind != .disposed {
            while inputCursor < inputEvents.count, inputEvents[inputCursor].sequence < sequence {
                let input = inputEvents[inputCursor]
                lastInput = (input.time, input.thread)
                inputCursor += 1
            }
            let cause = lastInput?.time ?? origin
            var time = lastInput.map { tick($0.time) } ?? Self.subscribed
            if entry.time - min(entry.time, cause) > Self.answerWindow {
                time = max(tick(entry.time), time)
                waited.append(time)
            } else if let lastInput, lastInput.thread != entry.thread {
                handedOver.append(time)
            }
            expected.append((time, entry.kind))
        }
        if !waited.isEmpty {
            notes.append("\(output)'s events at \(Self.list(waited)) came more than 1 ms after the input before them: the pipeline probably waits on a timer (delay, debounce, throttle, timeout, interval). Give it this test's scheduler; each of these expects the recorded time, quantized.")
        }
        if !handedOver.isEmpty {
            notes.append("\(output)'s events at \(Self.list(handedOver)) came on another thread than their input: the pipeline hands events over (observe(on:), subscribe(on:), a Driver). Give it this test's scheduler, or MainScheduler where the test runs on the main thread.")
        }
        let lastTick = max(expected.map(\.time).max() ?? Self.subscribed, inputEvents.last.map { tick($0.time) } ?? Self.subscribed)
        let disposedTick = lastTick + 100

        let duration = (recording.entries.last?.time ?? 0) - (recording.entries.first?.time ?? 0)
        var body = ["let scheduler = TestScheduler(initialClock: 0)"]
        var usesRecordedError = false
        for lane in inputLanes {
            let items = lane.events.compactMap { _, entry -> String? in
                let time = tick(entry.time)
                switch entry.kind {
                case .next(let value): return ".next(\(time), \(Self.literal(value, type: lane.type) ?? Self.stringLiteral(value)))"
                case .completed: return ".completed(\(time))"
                case .error(let description):
                    usesRecordedError = true
                    return ".error(\(time), RecordedError(\(Self.stringLiteral(description))))"
                case .subscribed, .disposed: return nil
                }
            }
            let type = Self.canWriteLiterals(of: lane) ? lane.type : "String"
            if type != lane.type {
                notes.append("\(lane.name)'s elements are \(lane.type) values, written here as their descriptions: turn them into \(lane.type) values where the pipeline takes them.")
            }
            let list = items.isEmpty ? "[Recorded<Event<\(type)>>]()" : "[\n" + items.map { "    " + $0 + "," }.joined(separator: "\n") + "\n]"
            body.append("let \(lane.identifier) = scheduler.createHotObservable(\(list))")
        }
        body += [
            "let observer = scheduler.start(created: 100, subscribed: \(Self.subscribed), disposed: \(disposedTick)) { () -> Observable<\(outputLane.type)> in",
            "    // \(Self.pipelineMarker) (from \(inputLanes.isEmpty ? "no inputs" : inputLanes.map { $0.identifier + ".asObservable()" }.joined(separator: ", "))):",
            "    return Observable<\(outputLane.type)>.never()",
            "}",
        ]
        let literal = Self.canWriteLiterals(of: outputLane) && !expected.contains { if case .error = $0.kind { return true }; return false }
        if literal {
            let items = expected.map { time, kind -> String in
                switch kind {
                case .next(let value): return ".next(\(time), \(Self.literal(value, type: outputLane.type) ?? value))"
                case .completed: return ".completed(\(time))"
                case .error, .subscribed, .disposed: return ""
                }
            }
            let list = items.isEmpty ? "[Recorded<Event<\(outputLane.type)>>]()" : "[\n" + items.map { "    " + $0 + "," }.joined(separator: "\n") + "\n]"
            body.append(style == .xctest ? "XCTAssertEqual(observer.events, \(list))" : "#expect(observer.events == \(list))")
        } else {
            notes.append("\(output)'s events are compared by their descriptions (time, kind and element as the recording wrote them).")
            let items = expected.map { time, kind -> String in
                switch kind {
                case .next(let value): return Self.stringLiteral("\(time) next \(value)")
                case .error(let description): return Self.stringLiteral("\(time) error \(description)")
                case .completed: return Self.stringLiteral("\(time) completed")
                case .subscribed, .disposed: return ""
                }
            }
            body += [
                "let described = observer.events.map { recorded -> String in",
                "    switch recorded.value {",
                "    case .next(let element): return \"\\(recorded.time) next \\(element)\"",
                "    case .error(let error): return \"\\(recorded.time) error \\(error)\"",
                "    case .completed: return \"\\(recorded.time) completed\"",
                "    }",
                "}",
            ]
            let list = items.isEmpty ? "[String]()" : "[\n" + items.map { "    " + $0 + "," }.joined(separator: "\n") + "\n]"
            body.append(style == .xctest ? "XCTAssertEqual(described, \(list))" : "#expect(described == \(list))")
        }

        var lines = [
            "// A test written by rxmarbles \(RivuletVersion.current) from a recording\(file.map { " (\($0))" } ?? ""): \(inputLanes.isEmpty ? "no input lanes" : "input lanes " + inputLanes.map(\.name).joined(separator: ", ")), output lane \(output), \(recording.entries.count) entries over \(LaneDiagram.format(duration)).",
            "// One tick is \(step.name) of the recording: the coarsest step at which no two input events change order. The output is subscribed at \(Self.subscribed); the inputs' events follow at their recorded distance from that moment.",
        ]
        lines += notes.map { "// Note: " + $0 }
        let modules = Set(imports + ["RxSwift", "RxTest", style == .xctest ? "XCTest" : "Testing"]).sorted()
        lines += [""] + modules.map { "import " + $0 } + [""]
        if usesRecordedError {
            lines += [
                "/// An error an input failed with, known by its description in the recording.",
                "private struct RecordedError: Error, CustomStringConvertible {",
                "    let description: String",
                "    init(_ description: String) { self.description = description }",
                "}",
                "",
            ]
        }
        let suite = TestWriter.typeName(output) + "Recording"
        switch style {
        case .xctest:
            lines.append("final class \(suite)Tests: XCTestCase {")
            lines.append("    func testRecorded\(TestWriter.typeName(output))() {")
        case .swiftTesting:
            lines.append("@Suite struct \(suite)Tests {")
            lines.append("    @Test func recorded\(TestWriter.typeName(output))() {")
        }
        lines += body.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 } }
        lines += ["    }", "}", ""]
        return lines.joined(separator: "\n")
    }

    /// The comment that marks where the pipeline goes: the line after it is replaced.
    public static let pipelineMarker = "The pipeline under test: replace the next line with the code that was recorded"

    /// The first subscription's entries of the lane named `name`.
    private func laneEvents(_ recording: LaneRecording, _ name: String, includingSubscription: Bool) throws(Failure) -> LaneEvents {
        guard let lane = recording.lane(named: name) else {
            let known = recording.lanes.map(\.name).joined(separator: ", ")
            throw Failure(description: "the recording has no lane named '\(name)' (its lanes: \(known.isEmpty ? "none" : known))")
        }
        let all = recording.entries.enumerated().filter { $0.element.lane == lane }
        let first = all.map(\.element.subscription).min() ?? 1
        let events = all.filter { $0.element.subscription == first }
            .filter { includingSubscription || $0.element.kind != .subscribed }
            .map { (sequence: $0.offset, entry: $0.element) }
        let subscriptions = Set(all.map(\.element.subscription)).count
        return LaneEvents(name: name, identifier: Self.identifier(name), type: recording.lanes[lane].elementType, subscriptions: subscriptions, events: events)
    }

    /// The coarsest step at which the input events keep their order and none falls on
    /// the subscription's tick; 1 ns, flagged, when even that does not.
    private static func step(for inputs: [(lane: Int, sequence: Int, time: UInt64, thread: Int)], origin: UInt64) -> (nanoseconds: UInt64, name: String, keepsOrder: Bool) {
        for step in steps {
            let ticks = inputs.map { ($0.time - min($0.time, origin)) / step.nanoseconds }
            let afterSubscription = ticks.allSatisfy { $0 > 0 }
            var ordered = true
            for index in inputs.indices.dropFirst() {
                let sameTick = ticks[index - 1] == ticks[index]
                if ticks[index - 1] > ticks[index] || (sameTick && inputs[index - 1].lane != inputs[index].lane) {
                    ordered = false
                }
            }
            if afterSubscription && ordered { return (step.nanoseconds, step.name, true) }
        }
        return (1, "1 ns", false)
    }

    /// Whether the writer can write `lane`'s recorded values as Swift literals of its type.
    private static func canWriteLiterals(of lane: LaneEvents) -> Bool {
        lane.events.allSatisfy { _, entry in
            if case .next(let value) = entry.kind { return literal(value, type: lane.type) != nil }
            return true
        }
    }

    /// `value` as a Swift literal of `type`, for the types whose description is one.
    static func literal(_ value: String, type: String) -> String? {
        switch type {
        case "String", "Substring": return stringLiteral(value)
        case "Character": return value.count == 1 ? stringLiteral(value) : nil
        case "Bool": return value == "true" || value == "false" ? value : nil
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64":
            return Int64(value) != nil || UInt64(value) != nil ? value : nil
        case "Double", "Float":
            guard let number = Double(value), number.isFinite else { return nil }
            return value
        case "()": return value == "()" ? "()" : nil
        default: return nil
        }
    }

    /// `text` as a Swift string literal.
    static func stringLiteral(_ text: String) -> String {
        LaneFileText.quoted(text)
    }

    /// A lane's name as a Swift identifier that does not clash with the test's own.
    static func identifier(_ name: String) -> String {
        let words = name.split { !($0.isLetter || $0.isNumber) }
        var identifier = words.enumerated().map { index, word in
            index == 0 ? word.prefix(1).lowercased() + word.dropFirst() : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
        if identifier.isEmpty || identifier.first!.isNumber { identifier = "lane" + identifier }
        let taken: Set<String> = ["scheduler", "observer", "described", "self", "in", "is", "as", "do", "if", "for", "let", "var", "try", "case", "default", "return", "switch", "where", "while", "repeat", "catch", "throw", "import", "func", "class", "struct", "enum", "true", "false", "nil"]
        return taken.contains(identifier) ? identifier + "Input" : identifier
    }

    /// `210, 240 and 300`.
    private static func list(_ ticks: [Int]) -> String {
        let names = ticks.map(String.init)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
