import RivuletTestSupport
import RxSwift
import RxTest
import XCTest

/// An object that outlives a test, as a service or a singleton would.
private final class Service: @unchecked Sendable {
    static let shared = Service()
    let subject = PublishSubject<Int>()
}

/// `LeakCheckingTestCase` runs each test as a checked scope. The tests that leak on
/// purpose capture the failures the check records after them, and `invokeTest` asserts
/// what was captured once the check has run.
final class XCTestLeakCheckTests: LeakCheckingTestCase {
    private struct Failure {
        let description: String
        let line: Int
    }

    private var captured: [Failure] = []
    /// What the test expects the check to record after it: checked in `invokeTest`.
    private var expectation: (([Failure]) -> Void)?

    #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
        guard expectation != nil, issue.compactDescription.hasPrefix("Leak check:") || issue.compactDescription.hasPrefix("Rx anomaly:") else {
            return super.record(issue)
        }
        captured.append(Failure(description: issue.compactDescription, line: issue.sourceCodeContext.location?.lineNumber ?? 0))
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard expectation != nil, description.hasPrefix("Leak check:") || description.hasPrefix("Rx anomaly:") else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        captured.append(Failure(description: description, line: lineNumber))
    }
    #endif

    override func invokeTest() {
        super.invokeTest()
        if let expectation {
            self.expectation = nil
            expectation(captured)
        }
    }

    func testASubscriptionLeftOpenFailsTheTestAfterItEnds() {
        let line = #line + 1
        let subscription = Service.shared.subject.map { $0 + 1 }.subscribe(AnyObserver { _ in })
        expectation = { failures in
            subscription.dispose()
            XCTAssertEqual(failures.map(\.line), [line])
            XCTAssertEqual(failures.map(\.description), [
                """
                Leak check: 1 open subscription at the end of the test:
                  map, subscribed at XCTestLeakCheckTests.swift:\(line)
                Dispose them (a DisposeBag that ends with the test, take/takeUntil, or the disposable subscribe returns), or opt out with .rxLeakCheck(.disabled).
                """,
            ])
        }
    }

    func testAnUnhandledErrorFailsTheTest() {
        let line = #line + 1
        _ = Observable<Int>.error(testError).subscribe(onNext: { _ in })
        expectation = { failures in
            XCTAssertEqual(failures.count, 1)
            XCTAssertTrue(failures.first?.description.hasPrefix("Rx anomaly: Unhandled error: \(testError)\n") ?? false, failures.first?.description ?? "no failure")
            XCTAssertTrue(failures.first?.description.contains("XCTestLeakCheckTests.swift:\(line)") ?? false, failures.first?.description ?? "no failure")
        }
    }

    func testATestOptsOutBySettingItsOptions() {
        rxCheckOptions = .disabled
        let subscription = Service.shared.subject.map { $0 + 1 }.subscribe(AnyObserver { _ in })
        expectation = { failures in
            XCTAssertTrue(failures.isEmpty, failures.map(\.description).joined(separator: "\n"))
            // Clean up for the tests that follow.
            subscription.dispose()
        }
    }

    func testWhatSetUpMadeAndTearDownReleasedIsNoLeak() {
        // setUp/tearDown of this class make nothing; a DisposeBag local to the test is
        // released with it.
        let bag = DisposeBag()
        Service.shared.subject.map { $0 }.subscribe(onNext: { _ in }).disposed(by: bag)
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 0), .completed(210)])
        expectation = { failures in
            XCTAssertTrue(failures.isEmpty, failures.map(\.description).joined(separator: "\n"))
        }
    }

    func testWorkLeftOnATestSchedulerFailsTheTest() {
        let line = #line + 1
        let scheduler = TestScheduler(initialClock: 0)
        let subscription = Observable<Int>.timer(.seconds(50), scheduler: scheduler).subscribe(AnyObserver { _ in })
        scheduler.advanceTo(20)
        expectation = { failures in
            XCTAssertEqual(failures.count, 2)
            XCTAssertTrue(
                failures.contains { $0.description.hasPrefix("Leak check: TestScheduler created at XCTestLeakCheckTests.swift:\(line) still has 1 pending action at the end of the test, due at virtual time 50 (clock at 20).") },
                failures.map(\.description).joined(separator: "\n")
            )
            subscription.dispose()
        }
        withExtendedLifetime(scheduler) {}
    }
}
