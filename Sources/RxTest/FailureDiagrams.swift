import Foundation
import RxSwift
import RxTestCore
import Testing

/// Failure diagrams: when a comparison of recorded events fails (`XCTAssertEqual` on
/// events, the marble assertions, `expectEvents`), an SVG picture of the expected and
/// the actual timeline, aligned, with the first difference marked, is written into a
/// folder, named after the test; the failure message names the file.
///
/// Off by default. It is on for the whole run when the environment variable
/// `RXTEST_FAILURE_DIAGRAMS` names a folder, or for a test or suite with the
/// `.failureDiagrams(in:)` trait (`FailureDiagrams.writing(into:)` in XCTest). Nothing is
/// done until a comparison has failed.
///
/// ```sh
/// RXTEST_FAILURE_DIAGRAMS=.build/failure-diagrams swift test
/// ```
public enum FailureDiagrams {
    /// The environment variable naming the folder for the whole run.
    public static let environmentVariable = "RXTEST_FAILURE_DIAGRAMS"

    @TaskLocal static var folderForTask: String?

    /// The folder failure diagrams go to in the current task, if they are on.
    public static var folder: String? {
        folderForTask ?? folderFromEnvironment
    }

    private static let folderFromEnvironment: String? = {
        guard let value = ProcessInfo.processInfo.environment[environmentVariable], !value.isEmpty else { return nil }
        return value
    }()

    /// Runs `body` with failure diagrams written into `folder` (the XCTest counterpart of
    /// `.failureDiagrams(in:)`).
    @discardableResult
    public static func writing<Result>(into folder: String, _ body: () throws -> Result) rethrows -> Result {
        try $folderForTask.withValue(folder, operation: body)
    }

    /// How many diagrams each name has had in this run, so that a test failing twice
    /// keeps both.
    private static let usedNames = LockedNames()

    /// Writes the diagram of a failed comparison if diagrams are on, and returns the line
    /// the failure message gets: where the picture is, or why it could not be written.
    static func note<T: Equatable>(actual: [Recorded<Event<T>>], expected: [Recorded<Event<T>>], at site: CallSite) -> String? {
        guard let folder else { return nil }
        let name = testName(at: site)
        let file = usedNames.claim(fileName(for: name))
        let url = URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent(file)
        let svg = FailureDiagram.svg(actual: actual, expected: expected, title: name)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(svg.utf8).write(to: url)
        } catch {
            return "Failure diagram: could not be written to \(url.path): \(error.localizedDescription)"
        }
        return "Failure diagram: \(url.path)"
    }

    /// The running test's name: Swift Testing's test, or else the XCTest method found
    /// on the stack, or else the file and line of the check.
    static func testName(at site: CallSite) -> String {
        if let test = Test.current {
            // `Module.Suite/test()/File.swift:12:5`: the module, suites and test.
            let parts = String(describing: test.id).split(separator: "/")
            let named = parts.filter { !$0.contains(".swift:") }
            return named.joined(separator: ".")
        }
        if let frames = StackCapture.make()?()?(0), let outermost = frames.last {
            // The test method, the frame XCTest called: `Suite.testName() -> ()`.
            let function = outermost.function.replacingOccurrences(of: " -> ()", with: "")
            guard let module = outermost.module, !function.hasPrefix(module + ".") else { return function }
            return module + "." + function
        }
        let file = site.fileID.split(separator: "/").last.map(String.init) ?? site.fileID
        return "\(file):\(site.line)"
    }

    /// A file name from a test's name: letters, digits, `.`, `-` and `_` kept, the rest
    /// `_`, the parentheses of `test()` dropped.
    static func fileName(for name: String) -> String {
        var base = name.replacingOccurrences(of: "()", with: "")
        base = String(base.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
        while base.contains("__") {
            base = base.replacingOccurrences(of: "__", with: "_")
        }
        base = String(base.trimmingCharacters(in: CharacterSet(charactersIn: "_.")).prefix(150))
        return (base.isEmpty ? "failure" : base) + ".svg"
    }
}

/// File names handed out in this run: the second `x.svg` becomes `x-2.svg`.
private final class LockedNames: Sendable {
    private let counts = LockedState<[String: Int]>([:])

    func claim(_ file: String) -> String {
        let count = counts.withLock { counts -> Int in
            counts[file, default: 0] += 1
            return counts[file]!
        }
        guard count > 1 else { return file }
        return String(file.dropLast(4)) + "-\(count).svg"
    }
}

/// Writes a failure diagram into a folder for a test, or every test of a suite.
public struct FailureDiagramsTrait: TestTrait, SuiteTrait, TestScoping {
    /// The folder.
    public let folder: String

    /// Applies to every test of a suite.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await FailureDiagrams.$folderForTask.withValue(folder, operation: function)
    }
}

extension Trait where Self == FailureDiagramsTrait {
    /// Failure diagrams for this test (or suite): a failed comparison of recorded events
    /// writes an SVG of the expected and actual timelines into `folder`, named after the
    /// test, and the failure message names the file.
    ///
    /// ```swift
    /// @Test(.failureDiagrams(in: ".build/failure-diagrams")) func tempo() { ... }
    /// ```
    public static func failureDiagrams(in folder: String) -> Self {
        FailureDiagramsTrait(folder: folder)
    }
}

/// Reports two differing recordings: the marble text of the difference, and the
/// failure diagram's file when diagrams are on.
func reportEventsMismatch<T: Equatable>(_ actual: [Recorded<Event<T>>], _ expected: [Recorded<Event<T>>], keys: MarbleKeyBook?, at site: CallSite) {
    var message = recordedEventsMismatchMessage(actual, expected, keys: keys)
    if let note = FailureDiagrams.note(actual: actual, expected: expected, at: site) {
        message += "\n" + note
    }
    reportFailure(message, at: site)
}
