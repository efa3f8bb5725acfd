import Foundation
import RxSwift
import RxTestCore

/// The kind of test ``TestWriter`` writes.
public enum TestStyle: String, CaseIterable, Sendable {
    /// An `XCTestCase` comparing recorded events with `XCTAssertEqual`.
    case xctest
    /// A Swift Testing `@Test` with RxTest's marble functions: inputs and expectation as
    /// marble text.
    case swiftTesting = "swift-testing"
}

/// Writes a diagram as a test that passes in a package using Rivulet: the inputs as
/// testable observables on a `TestScheduler`, the operator's code, and the output the
/// diagram shows as the expectation, at the virtual times the diagram ran at.
public struct TestWriter: Sendable {
    /// The kind of test.
    public var style: TestStyle

    /// A writer of `style`.
    public init(style: TestStyle) {
        self.style = style
    }

    /// Why a diagram could not be written as a test.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// What is missing.
        public var description: String
    }

    /// The test source for `diagram`, made by `entry`.
    public func write(_ diagram: OperatorDiagram, entry: GalleryEntry) throws(Failure) -> String {
        var errors = ErrorExpressions()
        let body = try testBody(diagram, entry: entry, errors: &errors)
        let name = Self.typeName(diagram.name)
        let suite = style == .xctest ? name + "MarbleTestCase" : name + "MarbleTests"
        return file(title: diagram.name, summary: diagram.summary, suite: suite, tests: [(diagram.name, body)], errors: errors)
    }

    /// The test source for a comparison: a test per operator, each run on the same
    /// inputs (`runs`: each operator's diagram on them, in order).
    public func write(comparing runs: [(entry: GalleryEntry, diagram: OperatorDiagram)]) throws(Failure) -> String {
        var errors = ErrorExpressions()
        var tests: [(String, [String])] = []
        for run in runs {
            tests.append((run.entry.name, try testBody(run.diagram, entry: run.entry, errors: &errors)))
        }
        let title = runs.map(\.entry.name).joined(separator: " vs ")
        let suite = Self.typeName(runs.first?.entry.name ?? "") + (style == .xctest ? "ComparisonTestCase" : "ComparisonTests")
        return file(title: title, summary: "The same inputs through each operator.", suite: suite, tests: tests, errors: errors)
    }

    /// The test source for a chain (`runs`: each operator's diagram, run on the output
    /// of the one before): a test per stage, each operator on what the one before
    /// emitted as the diagram shows it, so that every test checks what the picture says.
    public func write(chaining runs: [(entry: GalleryEntry, diagram: OperatorDiagram)]) throws(Failure) -> String {
        var errors = ErrorExpressions()
        var tests: [(String, [String])] = []
        for (index, run) in runs.enumerated() {
            tests.append(("stage\(index + 1)" + Self.typeName(run.entry.name), try testBody(run.diagram, entry: run.entry, errors: &errors)))
        }
        let title = runs.map(\.entry.name).joined(separator: " → ")
        // FilterMapDebounce: the names in one identifier.
        let suite = runs.map { Self.typeName($0.entry.name) }.joined() + (style == .xctest ? "ChainTestCase" : "ChainTests")
        return file(title: title, summary: "Each operator's output is the next one's input: a test per stage.", suite: suite, tests: tests, errors: errors)
    }

    /// The statements of one operator's test.
    private func testBody(_ diagram: OperatorDiagram, entry: GalleryEntry, errors: inout ErrorExpressions) throws(Failure) -> [String] {
        guard let run = diagram.run, run.inputTypes.count == diagram.inputs.count else {
            throw Failure(description: "the diagram of \(diagram.name) did not come from a run of its example")
        }
        let layout = MarbleLayout(diagram)
        let names = diagram.inputs.map(\.name).joined(separator: ", ")
        let statements = entry.code.map { $0.map { $0.replacingOccurrences(of: "{inputs}", with: names) } }
            ?? diagram.call.components(separatedBy: "; ")
        var body: [String] = ["let scheduler = TestScheduler(initialClock: 0)"]
        for (row, input) in diagram.inputs.enumerated() {
            body += try inputDeclaration(input, type: run.inputTypes[row], marbles: layout.marbles(row: row), keys: layout.keys, errors: &errors)
        }
        body.append("let observer = scheduler.createObserver(\(run.outputType).self)")
        body += statements.dropLast()
        body.append("let output = \(statements.last ?? "")")
        body.append("let subscription = SerialDisposable()")
        if run.subscribeFrame == 0 {
            body.append("subscription.disposable = output.subscribe(observer)")
        } else {
            body.append("scheduler.scheduleAt(\(run.subscribeFrame)) { subscription.disposable = output.subscribe(observer) }")
        }
        body.append("scheduler.scheduleAt(\(run.disposeFrame)) { subscription.dispose() }")
        body.append("scheduler.advanceTo(\(run.disposeFrame))")
        body.append("subscription.dispose()")
        body.append("")
        let outputRow = diagram.inputs.count
        body += try expectation(diagram.output, type: run.outputType, marbles: layout.marbles(row: outputRow), keys: layout.keys, errors: &errors)
        for input in diagram.inputs {
            let spans = input.subscriptions.map { span in span.end.map { "Subscription(\(span.start), \($0))" } ?? "Subscription(\(span.start))" }
            let list = "[" + spans.joined(separator: ", ") + "]"
            body.append(style == .xctest
                ? "XCTAssertEqual(\(input.name).subscriptions, \(list))"
                : "expectSubscriptions(\(input.name), equal: \(list))")
        }
        return body
    }

    /// The file around the tests: `tests` are each operator's name and statements.
    private func file(title: String, summary: String, suite: String, tests: [(name: String, body: [String])], errors: ErrorExpressions) -> String {
        var lines = ["// \(title): \(summary)", "// Written by rxmarbles \(RivuletVersion.current) from the diagram it drew.", ""]
        lines += ["import RxSwift", "import RxTest"]
        lines.append(style == .xctest ? "import XCTest" : "import Testing")
        lines.append("")
        if errors.usesExampleError {
            lines += [
                "/// The error the example fails with.",
                "private struct ExampleError: Error, CustomStringConvertible {",
                "    var description: String { \(Self.literal(ExampleError().message, type: "String")) }",
                "}",
                "",
            ]
        }
        lines.append(style == .xctest ? "final class \(suite): XCTestCase {" : "@Suite struct \(suite) {")
        for (index, test) in tests.enumerated() {
            if index > 0 { lines.append("") }
            switch style {
            case .xctest: lines.append("    func test\(Self.typeName(test.name))() {")
            case .swiftTesting: lines.append("    @Test func \(Self.identifier(test.name))() throws {")
            }
            lines += test.body.map { $0.isEmpty ? "" : "        " + $0 }
            lines.append("    }")
        }
        lines += ["}", ""]
        return lines.joined(separator: "\n")
    }

    /// The operator's name as the start of a type name (`ObserveOn`, `Catch`).
    static func typeName(_ name: String) -> String {
        let letters = String(name.filter { $0.isLetter || $0.isNumber })
        return letters.prefix(1).uppercased() + letters.dropFirst()
    }

    /// The declaration of an input: its events as a list (XCTest) or as marbles.
    private func inputDeclaration(_ input: Timeline, type: String, marbles: String, keys: MarbleKeys, errors: inout ErrorExpressions) throws(Failure) -> [String] {
        let kind = input.isCold ? "Cold" : "Hot"
        switch style {
        case .xctest:
            let events = try recordedList(input, type: type, errors: &errors)
            return ["let \(input.name) = scheduler.create\(kind)Observable(\(events))"]
        case .swiftTesting:
            let arguments = try marbleArguments(input, type: type, marbles: marbles, keys: keys, errors: &errors)
            let origin = input.isCold ? "" : ", origin: \(input.zeroFrame ?? 0)"
            return ["let \(input.name) = try scheduler.create\(kind)Observable(\(arguments)\(origin))"]
        }
    }

    /// What the output must have recorded.
    private func expectation(_ output: Timeline, type: String, marbles: String, keys: MarbleKeys, errors: inout ErrorExpressions) throws(Failure) -> [String] {
        switch style {
        case .xctest:
            return ["XCTAssertEqual(observer.events, \(try recordedList(output, type: type, errors: &errors)))"]
        case .swiftTesting:
            let arguments = try marbleArguments(output, type: type, marbles: marbles, keys: keys, errors: &errors)
            return ["expectEvents(observer, marbles: \(arguments), origin: \(output.zeroFrame ?? 0))"]
        }
    }

    /// `[.next(1, 10), .completed(9)]`.
    private func recordedList(_ timeline: Timeline, type: String, errors: inout ErrorExpressions) throws(Failure) -> String {
        if timeline.events.isEmpty { return "[Recorded<Event<\(type)>>]()" }
        var items: [String] = []
        for event in timeline.events {
            switch event.kind {
            case .next(let label): items.append(".next(\(event.frame), \(Self.literal(label, type: type)))")
            case .completed: items.append(".completed(\(event.frame))")
            case .error(let description): items.append(".error(\(event.frame), \(try errors.expression(for: description)))")
            }
        }
        return "[" + items.joined(separator: ", ") + "]"
    }

    /// `"-1--2|", values: ["1": 1, "2": 2]` and the errors when there are any.
    private func marbleArguments(_ timeline: Timeline, type: String, marbles: String, keys: MarbleKeys, errors: inout ErrorExpressions) throws(Failure) -> String {
        var values: [(key: String, literal: String)] = []
        var errorEntries: [String] = []
        for event in timeline.events {
            switch event.kind {
            case .next(let label):
                let key = keys.key(for: label)
                if !values.contains(where: { $0.key == key }) {
                    values.append((key, Self.literal(label, type: type)))
                }
            case .error(let description):
                errorEntries = ["\"#\": \(try errors.expression(for: description))"]
            case .completed:
                break
            }
        }
        let valueList = values.isEmpty ? "[:]" : "[" + values.map { "\(Self.literal($0.key, type: "String")): \($0.literal)" }.joined(separator: ", ") + "]"
        var text = "\(Self.literal(marbles, type: "String")), values: \(values.isEmpty ? "[String: \(type)]()" : valueList)"
        if !errorEntries.isEmpty {
            text += ", errors: [" + errorEntries.joined(separator: ", ") + "]"
        }
        return text
    }

    /// A label as a Swift literal of `type`: quoted for strings, as drawn otherwise
    /// (numbers, booleans, arrays of them).
    static func literal(_ label: String, type: String) -> String {
        guard type == "String" else { return label }
        let escapes: [Character: String] = ["\"": "\\\"", "\\": "\\\\", "\n": "\\n"]
        return "\"" + label.map { escapes[$0] ?? String($0) }.joined() + "\""
    }

    /// The operator's name as a Swift identifier (`observeOn`, `catch_`).
    static func identifier(_ name: String) -> String {
        let letters = String(name.filter { $0.isLetter || $0.isNumber })
        let keywords: Set<String> = ["catch", "throw", "try", "do", "repeat", "defer", "switch", "case", "default", "return", "is", "as", "in"]
        return keywords.contains(letters) ? letters + "Example" : letters
    }

    /// The Swift expressions of the errors a diagram shows, known by their descriptions.
    struct ErrorExpressions {
        private(set) var usesExampleError = false

        mutating func expression(for description: String) throws(Failure) -> String {
            if description == "\(MarbleDefaultError())" { return "MarbleDefaultError()" }
            if description == "\(ExampleError())" {
                usesExampleError = true
                return "ExampleError()"
            }
            let rxErrors: [(RxError, String)] = [
                (.timeout, "RxError.timeout"), (.noElements, "RxError.noElements"),
                (.moreThanOneElement, "RxError.moreThanOneElement"), (.argumentOutOfRange, "RxError.argumentOutOfRange"),
                (.overflow, "RxError.overflow"), (.unknown, "RxError.unknown"),
            ]
            if let known = rxErrors.first(where: { "\($0.0)" == description }) { return known.1 }
            throw Failure(description: "the error '\(description)' has no Swift expression to write it with")
        }
    }
}
