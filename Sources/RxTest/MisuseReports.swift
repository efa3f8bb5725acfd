import RxSwift
import RxTestCore
import Testing
import XCTest

// Misuse that RxSwift turns into a crash (`drive` off the main thread, an error bound
// to a relay, `TestScheduler.current` outside a virtual-time test) fails the test that
// made it, at the line that made it, and the run goes on. The reporter is installed
// when the test kit is loaded, before any test runs (`installAtLoad`, Platform.swift),
// so that the first test of a run is covered as well as the last; outside a running
// test the program stops, as with RxSwift.

/// The misuse reporter and what it needs: the XCTest case running, if any.
enum MisuseReports {
    /// Installs the reporter (once; later calls change nothing).
    static func install() {
        _ = installed
    }

    private static let installed: Void = {
        XCTestObservationCenter.shared.addTestObserver(RunningTestCases.shared)
        MisuseReporting.reporter = report
    }()

    /// Records `message` as a failure of the running test, at the first frame of the
    /// caller's stack outside Rivulet when it can be found; `false` outside a test.
    @Sendable
    static func report(_ message: String) -> Bool {
        let test = Test.current
        let testCase = RunningTestCases.shared.current
        let capture = FailureCapture.current
        if test == nil && testCase == nil && capture == nil { return false }
        let site = StackCapture.make()?()?(3).lazy.compactMap(\.site).first
        let text = site.map { "\(message)\n(at \($0))" } ?? message
        if let capture {
            capture.keep(text, at: site)
        } else if test != nil {
            let location = site.map {
                SourceLocation(fileID: $0.fileID, filePath: $0.filePath, line: Int($0.line), column: Int($0.column))
            }
            Issue.record(Comment(rawValue: text), sourceLocation: location ?? test?.sourceLocation ?? SourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column))
        } else if let testCase {
            testCase.recordFailure(text, filePath: site?.filePath ?? #filePath, line: Int(site?.line ?? #line))
        }
        return true
    }
}

/// The XCTest case running now, as XCTest's observation tells it (XCTest runs one
/// case at a time).
private final class RunningTestCases: NSObject, XCTestObservation, @unchecked Sendable {
    static let shared = RunningTestCases()

    private let running = LockedState<XCTestCase?>(nil)

    var current: XCTestCase? { running.withLock { $0 } }

    func testCaseWillStart(_ testCase: XCTestCase) {
        running.withLock { $0 = testCase }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        running.withLock { $0 = nil }
    }
}
