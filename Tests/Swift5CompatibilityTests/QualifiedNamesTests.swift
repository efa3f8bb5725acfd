import RxSwift
import RxTest
import XCTest

/// Code that qualifies the test kit's names with their module, as RxSwift users write
/// to tell `RxTest.Subscription` from another module's `Subscription`, compiles and
/// means the same types as the unqualified names.
final class QualifiedNamesTests: XCTestCase {
    func testRxTestQualifiedNamesAreTheTestKitsTypes() {
        let scheduler: RxTest.TestScheduler = TestScheduler(initialClock: 0)
        let xs: RxTest.TestableObservable<Int> = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let observer: RxTest.TestableObserver<Int> = scheduler.start { xs.map { $0 * 2 } }
        let expected: [RxTest.Recorded<Event<Int>>] = [.next(210, 2), .completed(220)]
        let subscriptions: [RxTest.Subscription] = [Subscription(200, 220)]
        let time: RxTest.TestTime = scheduler.clock
        XCTAssertEqual(observer.events, expected)
        XCTAssertEqual(xs.subscriptions, subscriptions)
        XCTAssertEqual(time, 1000)
        XCTAssertTrue(RxTest.TestScheduler.self == TestScheduler.self)
        XCTAssertTrue(RxTest.Subscription.self == Subscription.self)
    }
}
