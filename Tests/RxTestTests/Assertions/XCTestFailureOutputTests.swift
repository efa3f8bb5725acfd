import Foundation
import RxSwift
import RxTest
import XCTest

/// RxTest's XCTest assertions and event recorders, with their failures captured instead of
/// failing the test.
final class XCTestFailureOutputTests: LeakCheckingTestCase {
    private struct Failure {
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
    private func failures(of body: () -> Void) -> [Failure] {
        captured = []
        capturing = true
        body()
        capturing = false
        return captured
    }

    private func recording() -> TestableObserver<Int> {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 3), .completed(300)])
        return scheduler.start { xs.asObservable() }
    }

    func testRecordedEventsMismatchIsReportedAtTheCallerWithMarbles() {
        let res = recording()
        var line = 0
        let found = failures {
            line = #line + 1
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(300)])
        }
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.filePath, "\(#filePath)")
        XCTAssertEqual(found.first?.line, line)
        XCTAssertTrue(found.first?.description.hasSuffix(rangeMismatchMessage) ?? false, found.first?.description ?? "no failure")
    }

    func testFailureDiagramsAreNamedAfterTheTestMethod() throws {
        let res = recording()
        let folder = temporaryFolder()
        let found = FailureDiagrams.writing(into: folder) {
            failures {
                XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(300)])
            }
        }
        XCTAssertEqual(found.count, 1)
        let message = found.first?.description ?? ""
        XCTAssertTrue(message.contains(rangeMismatchMessage), message)
        let path = folder + "/RxTestTests.XCTestFailureOutputTests.testFailureDiagramsAreNamedAfterTheTestMethod.svg"
        XCTAssertTrue(message.hasSuffix("Failure diagram: " + path), message)
        let parsed = SVGElements(try String(contentsOfFile: path, encoding: .utf8))
        XCTAssertNil(parsed.error)
        XCTAssertEqual(parsed.marbleLabels(in: "actual"), ["1", "3"])
        // Without the setting, no diagram and no line about one.
        if ProcessInfo.processInfo.environment[FailureDiagrams.environmentVariable] == nil {
            let plain = failures {
                XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(300)])
            }
            XCTAssertFalse(plain.first?.description.contains("Failure diagram") ?? true)
        }
    }

    func testMatchingAssertionsRecordNothing() {
        let res = recording()
        let found = failures {
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 3), .completed(300)])
            XCTAssertEqual(res.events, marbles: "---------------------1-3------|", values: ["1": 1, "3": 3], frame: 10)
            XCTAssertEqual([Subscription(200, 300)], [Subscription(200, 300)])
        }
        XCTAssertEqual(found.count, 0)
    }

    func testMarbleAssertionMismatch() {
        let res = recording()
        var line = 0
        let found = failures {
            line = #line + 1
            XCTAssertEqual(res.events, marbles: "---------------------12-------|", values: ["1": 1, "2": 2], frame: 10)
        }
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.line, line)
        XCTAssertTrue(found.first?.description.hasSuffix(rangeMismatchMessage) ?? false, found.first?.description ?? "no failure")
    }

    func testMalformedMarblesFailTheAssertion() {
        let res = recording()
        let found = failures {
            XCTAssertEqual(res.events, marbles: "--a)", values: ["a": 1])
        }
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(
            found.first?.description.hasSuffix("Invalid expected marbles: unbalanced ')' at position 3 in \"--a)\": no group is open") ?? false,
            found.first?.description ?? "no failure"
        )
    }

    func testSubscriptionMismatchDrawsMarbles() {
        let found = failures {
            XCTAssertEqual([Subscription(200, 300)], [Subscription(200, 260)])
        }
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.first?.description.hasSuffix("""
            Subscriptions differ: expected [(200: 260)], got [(200: 300)]
            expected: ----------^--!
            actual:   ----------^----!
            one column = 20 ticks, first column = time 0
            """) ?? false, found.first?.description ?? "no failure")
    }

    func testParseEventsAndTimesReportsAnUnknownKeyAndReturnsAnEmptyTimeline() {
        let scheduler = TestScheduler(initialClock: 0)
        var parsed: [[Recorded<Event<Bool>>]] = []
        var line = 0
        let found = failures {
            line = #line + 1
            parsed = scheduler.parseEventsAndTimes(timeline: "f--x--t", values: ["t": true, "f": false])
        }
        XCTAssertEqual(parsed.count, 1)
        XCTAssertEqual(parsed.first?.count, 0)
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.line, line)
        XCTAssertEqual(found.first?.filePath, "\(#filePath)")
        XCTAssertTrue(
            found.first?.description.hasSuffix("parseEventsAndTimes: unknown key 'x' at position 3 in \"f--x--t\": it is in neither values nor errors") ?? false,
            found.first?.description ?? "no failure"
        )
    }

    func testSignInMarbleSpecFlow() {
        // The sign-in example's marble-syntax spec, with a map standing in for the view model.
        let scheduler = TestScheduler(initialClock: 0)
        let emails = ["e1": "test@", "e2": "test@example.com"]
        let emailIsValid = ["v1": false, "v2": true]
        let emailEvents = scheduler.parseEventsAndTimes(timeline: "---e1----e2-----", values: emails).first!
        let expectedEmailIsValidEvents = scheduler.parseEventsAndTimes(timeline: "---v1----v2-----", values: emailIsValid).first!
        let emailText = scheduler.createHotObservable(emailEvents)
        let emailIsValidObserver = scheduler.createObserver(Bool.self)
        let disposeBag = DisposeBag()
        emailText.asObservable()
            .map { $0.contains("@") && $0.contains(".") }
            .subscribe(emailIsValidObserver)
            .disposed(by: disposeBag)
        scheduler.start()
        XCTAssertEqual(emailIsValidObserver.events, expectedEmailIsValidEvents)
        XCTAssertEqual(emailIsValidObserver.events, [.next(3, false), .next(9, true)])
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
