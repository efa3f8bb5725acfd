import RxSwift
import RxTest
import XCTest

final class VirtualTimeTests: XCTestCase {
    func testScanCountsInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([.next(210, ()), .next(220, ()), .completed(230)])
        let counts = scheduler.start { taps.scan(0) { count, _ in count + 1 } }
        XCTAssertEqual(counts.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(taps.subscriptions, [Subscription(200, 230)])
    }
}
