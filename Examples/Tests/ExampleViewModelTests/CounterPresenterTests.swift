import RxSwift
import RxTest
import ExampleViewModels
import XCTest

/// The counter example: a presenter fed by a faked event provider, subscribed at 0 with
/// `scheduleAt`, hot taps at 100, 200 and 300.
final class CounterPresenterTests: XCTestCase {
    var disposeBag = DisposeBag()
    var scheduler: TestScheduler!

    override func setUp() {
        super.setUp()
        scheduler = TestScheduler(initialClock: 0)
        disposeBag = DisposeBag()
    }

    func testPresenterCount() {
        let buttonTaps = scheduler.createHotObservable([
            next(100, ()),
            next(200, ()),
            next(300, ()),
        ])
        let results = scheduler.createObserver(Int.self)
        let eventProvider = EventProvider(buttonTapped: buttonTaps.asObservable())
        let presenter = Presenter(eventProvider: eventProvider)

        scheduler.scheduleAt(0) {
            presenter.count.subscribe(results).disposed(by: self.disposeBag)
        }
        scheduler.start()

        let expected = [
            next(100, 1),
            next(200, 2),
            next(300, 3),
        ]
        XCTAssertEqual(results.events, expected)
        XCTAssertEqual(buttonTaps.subscriptions, [Subscription(0)])
    }

    func testSubscribingAfterTheFirstTapMissesIt() {
        let buttonTaps = scheduler.createHotObservable([next(100, ()), next(200, ()), next(300, ())])
        let results = scheduler.createObserver(Int.self)
        let presenter = Presenter(eventProvider: EventProvider(buttonTapped: buttonTaps.asObservable()))
        scheduler.scheduleAt(150) {
            presenter.count.subscribe(results).disposed(by: self.disposeBag)
        }
        scheduler.start()
        XCTAssertEqual(results.events, [next(200, 1), next(300, 2)])
    }
}
