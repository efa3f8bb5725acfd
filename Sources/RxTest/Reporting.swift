import RxSwift
import RxTestCore
import Testing
import XCTest

/// Where an assertion was written, in the forms both test frameworks need.
struct CallSite {
    let fileID: String
    let filePath: StaticString
    let line: UInt
    let column: UInt

    /// A call site known only by path and line (XCTest's assertion signature); the
    /// file's folder stands in for its module.
    init(filePath: StaticString, line: UInt) {
        let path = "\(filePath)"
        let parts = path.split(separator: "/")
        let folder = parts.count >= 2 ? String(parts[parts.count - 2]) : "RxTest"
        self.fileID = "\(folder)/\(parts.last.map(String.init) ?? path)"
        self.filePath = filePath
        self.line = line
        self.column = 1
    }

    init(fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    var sourceSite: SourceSite {
        SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
    }

    var sourceLocation: SourceLocation {
        SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
    }
}

/// Reports a failed check at `site`: an issue of the running Swift Testing test, or
/// otherwise an XCTest failure. Each goes to the test that made the check, so tests
/// running in parallel keep their failures apart.
func reportFailure(_ message: String, at site: CallSite) {
    if let capture = FailureCapture.current {
        capture.keep(message, at: site.sourceSite)
        return
    }
    if Test.current != nil {
        Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
    } else {
        XCTFail(message, file: site.filePath, line: site.line)
    }
}

/// Reports a finding of a test scope at its site (or `fallback`): an issue of the running
/// Swift Testing test, or otherwise an XCTest failure.
func reportFinding(_ finding: ScopeFinding, fallback: SourceSite?) {
    let site = finding.site ?? fallback
    if let capture = FailureCapture.current {
        capture.keep(finding.message, at: site)
        return
    }
    if Test.current != nil {
        let location = site.map {
            SourceLocation(fileID: $0.fileID, filePath: $0.filePath, line: Int($0.line), column: Int($0.column))
        }
        Issue.record(Comment(rawValue: finding.message), sourceLocation: location ?? Test.current?.sourceLocation ?? SourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column))
    } else if let xctestSite = [site, fallback].compactMap({ $0 }).first(where: { $0.staticFilePath != nil }),
              let path = xctestSite.staticFilePath {
        XCTFail(finding.message, file: path, line: xctestSite.line)
    } else {
        XCTFail(finding.message)
    }
}

/// A failure the kit reported while its failures were captured (see
/// ``capturingFailures(_:)``): the text and the place it would have been reported at.
package struct CapturedFailure: Sendable, CustomStringConvertible {
    /// Where the failure would have gone without the capture.
    package enum Destination: Sendable, Equatable {
        /// An issue of the running Swift Testing test.
        case swiftTesting
        /// An XCTest failure.
        case xcTest
    }

    /// The failure text.
    package let message: String
    /// The place the failure names, when it names one.
    package let site: SourceSite?
    /// Where it would have gone.
    package let destination: Destination

    /// The line of `site`.
    package var line: Int? {
        site.map { Int($0.line) }
    }

    /// The file name of `site`: `LeakCheckTests.swift`.
    package var fileName: String? {
        site.map { $0.filePath.split(separator: "/").last.map(String.init) ?? $0.filePath }
    }

    /// The message.
    package var description: String {
        message
    }
}

/// The failures reported in the current task while ``capturingFailures(_:)`` runs.
///
/// The kit's own tests make checks fail on purpose, to test what a failure says; they
/// capture those failures and compare them, instead of letting them reach the test
/// runner as expected issues that fill the run's output.
final class FailureCapture: Sendable {
    @TaskLocal static var current: FailureCapture?

    private let kept = LockedState<[CapturedFailure]>([])

    /// Keeps a failure, instead of reporting it, at `site`.
    func keep(_ message: String, at site: SourceSite?) {
        let destination: CapturedFailure.Destination = Test.current != nil ? .swiftTesting : .xcTest
        kept.withLock { $0.append(CapturedFailure(message: message, site: site, destination: destination)) }
    }

    var failures: [CapturedFailure] {
        kept.current
    }
}

/// Runs `body` and returns the failures the kit reported meanwhile in this task (and the
/// tasks it creates), in the order they were reported. They fail no test and print
/// nothing: the caller checks them.
package func capturingFailures(_ body: () throws -> Void) rethrows -> [CapturedFailure] {
    let capture = FailureCapture()
    try FailureCapture.$current.withValue(capture, operation: body)
    return capture.failures
}

/// The asynchronous form of ``capturingFailures(_:)``.
package func capturingFailures(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
) async rethrows -> [CapturedFailure] {
    let capture = FailureCapture()
    try await FailureCapture.$current.withValue(capture, operation: body, isolation: isolation)
    return capture.failures
}
