import Dispatch
import Foundation
import RxSwift
import RxTest
import XCTest

/// The leak check itself: `ResourceLeakCheck.excess(over:timeout:)` sees a resource that
/// is still alive, waits for one released a moment later, and `LeakCheckingTestCase`
/// (the base of every XCTest class here) runs it around each test. XCTest runs these
/// one at a time, so the process-wide count is theirs while they run.
final class LeakCheckTests: LeakCheckingTestCase {
    func testAResourceStillAliveIsReported() {
        let baseline = Resources.total
        var kept: Observable<Int>? = Observable.just(1).map { $0 + 1 }
        XCTAssertNotNil(kept)
        XCTAssertGreaterThan(ResourceLeakCheck.excess(over: baseline, timeout: 0.05), 0)
        kept = nil
        XCTAssertEqual(ResourceLeakCheck.excess(over: baseline, timeout: 0.05), 0)
    }

    func testAResourceReleasedShortlyAfterOnAnotherThreadIsNotALeak() {
        let baseline = Resources.total
        do {
            let subject = PublishSubject<Int>()
            let subscription = subject.subscribe(onNext: { _ in })
            let transfer = UnsafeTransfer((subject, subscription))
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
                transfer.value.1.dispose()
                _ = transfer.value.0
            }
        }
        XCTAssertEqual(ResourceLeakCheck.excess(over: baseline, timeout: 5), 0)
    }

    func testAResourceReleasedOnTheMainQueueIsWaitedFor() throws {
        // The main queue runs only while the main run loop does: the check turns it
        // while it waits on the main thread.
        try XCTSkipUnless(Thread.isMainThread, "XCTest runs this on the main thread")
        let baseline = Resources.total
        do {
            let transfer = UnsafeTransfer(Observable<Int>.never())
            DispatchQueue.main.async {
                _ = transfer
            }
        }
        XCTAssertEqual(ResourceLeakCheck.excess(over: baseline, timeout: 5), 0)
    }

    func testAnUndisposedSubscriptionIsALeakUntilDisposed() {
        let baseline = Resources.total
        let subject = PublishSubject<Int>()
        do {
            let subscription = subject.map { $0 }.subscribe(onNext: { _ in })
            XCTAssertGreaterThan(ResourceLeakCheck.excess(over: baseline + 1, timeout: 0.05), 0)
            subscription.dispose()
        }
        XCTAssertEqual(ResourceLeakCheck.excess(over: baseline, timeout: 0.05), 1, "the subject alone is still alive")
    }
}
