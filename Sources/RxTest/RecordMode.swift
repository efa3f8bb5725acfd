import Foundation
import RxSwift
import RxTestCore
import Testing

/// Record mode: instead of comparing, an expectation prints the events it received as
/// text ready to paste in place of its expected value, and fails saying it recorded, so
/// a recording test is never green.
///
/// It is on for one expectation (`record: true`), for a test or suite (the
/// `.recordMarbles` trait), or for the whole run (the environment variable
/// `RIVULET_RECORD=1`).
public enum RecordMode {
    @TaskLocal static var isOnForTask = false

    /// Whether expectations record in the current task: the `.recordMarbles` trait, or
    /// `RIVULET_RECORD` set to `1` (or `true`, `yes`) in the environment.
    public static var isOn: Bool {
        isOnForTask || environmentAsksToRecord
    }

    private static let environmentAsksToRecord: Bool = {
        guard let value = ProcessInfo.processInfo.environment["RIVULET_RECORD"]?.lowercased() else { return false }
        return ["1", "true", "yes"].contains(value)
    }()

    /// Runs `body` with record mode on (the XCTest counterpart of `.recordMarbles`).
    @discardableResult
    public static func recording<Result>(_ body: () throws -> Result) rethrows -> Result {
        try $isOnForTask.withValue(true, operation: body)
    }
}

/// Turns record mode on for a test, or for every test of a suite.
public struct RecordMarblesTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await RecordMode.$isOnForTask.withValue(true, operation: function)
    }
}

extension Trait where Self == RecordMarblesTrait {
    /// Record mode for this test (or suite): every `expectEvents` prints what it received,
    /// ready to paste, and reports an issue saying it recorded.
    ///
    /// ```swift
    /// @Test(.recordMarbles) func tempoText() { ... expectEvents(tempo, marbles: "", values: [:]) }
    /// ```
    public static var recordMarbles: Self { RecordMarblesTrait() }
}

/// The text a recording expectation reports: where the events go, the marbles (with the
/// arguments they need) and the events as a `Recorded` array literal.
///
/// The marbles are checked by parsing them back with the arguments printed; when they do
/// not give the same events (elements that cannot be told apart by their text), only the
/// array literal is offered.
func recordingMessage<T>(
    _ events: [Recorded<Event<T>>],
    subject: String,
    frame requestedFrame: TestTime?,
    origin: TestTime,
    resolution: Double
) -> String {
    var lines = ["Recorded \(subject) (record mode is on, so this expectation did not compare and fails). Paste in place of the expected value:"]
    if let marbles = pasteableMarbles(events, frame: requestedFrame, origin: origin, resolution: resolution) {
        lines.append("  " + marbles)
    }
    lines.append("  equal: " + recordedLiteral(events))
    lines.append("then turn record mode off (record: true, the .recordMarbles trait or RIVULET_RECORD=1).")
    return lines.joined(separator: "\n")
}

/// `marbles: "...", values: [...], frame: n` (plus `origin:` when the text alone does not
/// imply it), or `nil` when the text does not parse back to `events`.
private func pasteableMarbles<T>(_ events: [Recorded<Event<T>>], frame requestedFrame: TestTime?, origin: TestTime, resolution: Double) -> String? {
    var diagram = Marbles.render(events, frame: requestedFrame, origin: origin)
    if requestedFrame != nil, events.contains(where: { ($0.time - diagram.origin) % diagram.frame != 0 }) {
        diagram = Marbles.render(events, origin: origin)
    }
    var text = diagram.marbles
    // A diagram at the subscription time (200) says so with `^` where it can.
    if diagram.origin == TestScheduler.Defaults.subscribed, !text.contains("^"), text.first == "-" {
        text = "^" + text.dropFirst()
    }
    let impliedOrigin = TestScheduler.marbleOrigin(for: text)
    let explicitOrigin: TestTime? = impliedOrigin == diagram.origin ? nil : diagram.origin
    guard let parsed = try? Marbles.parse(
        text, values: diagram.values, errors: diagram.errors, frame: diagram.frame, resolution: resolution,
        origin: explicitOrigin ?? impliedOrigin
    ), parsed.count == events.count,
    zip(parsed, events).allSatisfy({ $0.time == $1.time && sameEvent($0.value, $1.value) }) else {
        return nil
    }
    var arguments = ["marbles: \(String(reflecting: text))"]
    let valueKeys = diagram.values.keys.sorted()
    if !valueKeys.isEmpty {
        arguments.append("values: [" + valueKeys.map { "\(String(reflecting: $0)): \(String(reflecting: diagram.values[$0]!))" }.joined(separator: ", ") + "]")
    }
    let errorKeys = diagram.errors.keys.sorted()
    if !errorKeys.isEmpty {
        arguments.append("errors: [" + errorKeys.map { "\(String(reflecting: $0)): <\(diagram.errors[$0]!)>" }.joined(separator: ", ") + "]")
    }
    if diagram.frame != 1 {
        arguments.append("frame: \(diagram.frame)")
    }
    if let explicitOrigin {
        arguments.append("origin: \(explicitOrigin)")
    }
    return arguments.joined(separator: ", ")
}

/// Same kind of event with the same element text (or error text).
private func sameEvent<T>(_ lhs: Event<T>, _ rhs: Event<T>) -> Bool {
    switch (lhs, rhs) {
    case (.next(let a), .next(let b)):
        return String(reflecting: a) == String(reflecting: b)
    case (.error(let a), .error(let b)):
        return "\(a)" == "\(b)"
    case (.completed, .completed):
        return true
    default:
        return false
    }
}

/// The events as a `[Recorded<Event<T>>]` literal: `[.next(210, 2), .completed(300)]`.
func recordedLiteral<T>(_ events: [Recorded<Event<T>>]) -> String {
    "[" + events.map { recorded -> String in
        switch recorded.value {
        case .next(let element):
            return ".next(\(recorded.time), \(String(reflecting: element)))"
        case .error(let error):
            return ".error(\(recorded.time), <\(error)>)"
        case .completed:
            return ".completed(\(recorded.time))"
        }
    }.joined(separator: ", ") + "]"
}

/// When `record` or record mode is on, reports `events` as a recording (drawn with
/// `frame` from `origin`) and returns `true`: the expectation then fails without
/// comparing. Returns `false` otherwise.
func recordsInstead<T>(
    _ events: [Recorded<Event<T>>],
    record: Bool,
    frame: TestTime?,
    origin: @autoclosure () -> TestTime,
    resolution: Double,
    at site: CallSite
) -> Bool {
    guard record || RecordMode.isOn else { return false }
    reportRecording(recordingMessage(events, subject: "events", frame: frame, origin: origin(), resolution: resolution), at: site)
    return true
}

/// Prints a recording and reports it as an issue (an XCTest failure outside Swift Testing);
/// a captured recording is only kept.
func reportRecording(_ message: String, at site: CallSite) {
    if FailureCapture.current == nil {
        print(message)
    }
    reportFailure(message, at: site)
}
