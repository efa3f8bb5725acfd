import Foundation
import RxSwift
import RxTest
import XCTest

/// `withVirtualTime` and record mode in XCTest, where tests run on the main thread.
final class VirtualTimeXCTests: LeakCheckingTestCase {
    private var captured: [String] = []
    private var capturing = false

    #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
        guard capturing else { return super.record(issue) }
        captured.append(issue.compactDescription)
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard capturing else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        captured.append(description)
    }
    #endif

    func testWithVirtualTimeSubstitutesTheMainScheduler() {
        let events = withVirtualTime(resolution: 0.1) { scheduler -> [Recorded<Event<Int>>] in
            XCTAssertTrue(TestScheduler.current === scheduler)
            let res = scheduler.start {
                Observable<Int>.interval(.milliseconds(500), scheduler: MainScheduler.instance).take(2)
            }
            return res.events
        }
        XCTAssertEqual(events, [.next(205, 0), .next(210, 1), .completed(210)])
        XCTAssertNil(TestScheduler.currentIfInstalled)
    }

    func testWithVirtualTimeAsync() async throws {
        let woke = try await withVirtualTime { scheduler -> TestTime in
            let clock = scheduler.asyncClock
            async let woke: TestTime = {
                try await clock.sleep(for: .seconds(12))
                return scheduler.clock
            }()
            await scheduler.advance(byTicks: 20)
            return try await woke
        }
        XCTAssertEqual(woke, 12)
    }

    func testRecordingFailsTheTestWithTheRecording() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .completed(220)])
        let res = scheduler.start { xs.asObservable() }
        capturing = true
        RecordMode.recording {
            expectEvents(res, marbles: "^", frame: 10)
        }
        capturing = false
        // XCTest on Linux puts "failed - " before the message.
        XCTAssertEqual(captured.map { $0.replacingOccurrences(of: "failed - ", with: "") }, ["""
            Recorded events (record mode is on, so this expectation did not compare and fails). Paste in place of the expected value:
              marbles: "^a|", values: ["a": "a"], frame: 10
              equal: [.next(210, "a"), .completed(220)]
            then turn record mode off (record: true, the .recordMarbles trait or RIVULET_RECORD=1).
            """])
    }
}
