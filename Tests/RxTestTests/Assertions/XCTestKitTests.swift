import RxSwift
import RxTest
import XCTest

/// The test kit inside XCTest: failures are captured instead of failing the test.
final class XCTestKitTests: LeakCheckingTestCase {
    struct Failure {
        let description: String
        let filePath: String
        let line: Int
    }

    private var captured: [Failure] = []
    private var capturing = false

    #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
        guard capturing else { return super.record(issue) }
        captured.append(Failure(
            description: issue.compactDescription,
            filePath: issue.sourceCodeContext.location?.fileURL.path ?? "",
            line: issue.sourceCodeContext.location?.lineNumber ?? 0
        ))
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard capturing else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        captured.append(Failure(description: description, filePath: filePath, line: lineNumber))
    }
    #endif

    /// The failures `body` records.
    func failures(of body: () -> Void) -> [Failure] {
        captured = []
        capturing = true
        body()
        capturing = false
        return captured
    }

    func testRecorderFailuresAreXCTestFailuresAtTheExpectation() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(300)])
        let recorder = scheduler.record(xs)
        var line = 0
        let found = failures {
            XCTAssertTrue(recorder.expectNext(1))
            line = #line + 1
            recorder.expectNext(2)
        }
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.line, line)
        XCTAssertEqual(found.first?.filePath, "\(#filePath)")
        XCTAssertTrue(found.first?.description.hasSuffix("""
            expectNext(2) failed: got next(3) @ 230
            received: ---------------------1-3
                                             ^ next(3) @ 230
            one column = 10 ticks, first column = time 0
            received events (2, 2 consumed): [next(1) @ 210, next(3) @ 230]
            """) ?? false, found.first?.description ?? "no failure")
        XCTAssertTrue(recorder.expectCompleted(at: 300))
        XCTAssertTrue(recorder.finish())
    }

    func testUnconsumedEventsFailFinish() {
        let scheduler = TestScheduler(initialClock: 0)
        let recorder = scheduler.record(Observable.of(1, 2))
        let found = failures {
            recorder.finish()
        }
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.first?.description.contains("finish() failed: 3 events were never consumed: next(1) @ 0, next(2) @ 0, completed @ 0") ?? false, found.first?.description ?? "no failure")
    }
}
