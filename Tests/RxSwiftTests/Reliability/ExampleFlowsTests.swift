import Dispatch
import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import XCTest

/// The operator-test and presenter flows of the example apps, as written there.
final class ExampleFlowsTests: LeakCheckingTestCase {
    func testMap_Range() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 0),
            .next(220, 1),
            .next(230, 2),
            .next(240, 4),
            .completed(300),
        ])
        let res = scheduler.start { xs.map { $0 * 2 } }
        let correctMessages = Recorded.events(
            .next(210, 0 * 2),
            .next(220, 1 * 2),
            .next(230, 2 * 2),
            .next(240, 4 * 2),
            .completed(300)
        )
        XCTAssertEqual(res.events, correctMessages)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testElementsEmitted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, "RxSwift"),
            .next(220, "is"),
            .next(230, "pretty"),
            .next(240, "awesome"),
        ])
        let res = scheduler.start { xs.asObservable() }
        XCTAssertRecordedElements(res.events, ["RxSwift", "is", "pretty", "awesome"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testPresenterCount() {
        struct EventProvider { let buttonTapped: Observable<Void> }
        let scheduler = TestScheduler(initialClock: 0)
        var disposeBag = DisposeBag()
        let buttonTaps = scheduler.createHotObservable([
            next(100, ()),
            next(200, ()),
            next(300, ()),
        ])
        let results = scheduler.createObserver(Int.self)
        let provider = EventProvider(buttonTapped: buttonTaps.asObservable())
        let count = provider.buttonTapped.map { 1 }
        scheduler.scheduleAt(0) {
            count.subscribe(results).disposed(by: disposeBag)
        }
        scheduler.start()
        XCTAssertEqual(results.events, [next(100, 1), next(200, 1), next(300, 1)])
        disposeBag = DisposeBag()
        XCTAssertEqual(buttonTaps.subscriptions, [Subscription(0, 300)])
    }

    func testBlockingToArrayAndMaterialize() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().toArray(), [1, 2, 3])
        switch Observable<Int>.error(testError).toBlocking().materialize() {
        case .completed: XCTFail("expected a failure")
        case .failed(let elements, let error):
            XCTAssertEqual(elements, [])
            XCTAssertTrue(error is TestError)
        }
    }

    func testBlockingOnMainThreadWithMainSchedulerDelivery() throws {
        XCTAssertTrue(Thread.isMainThread)
        let value = try Observable.just(7)
            .observe(on: ConcurrentDispatchQueueScheduler(qos: .default))
            .observe(on: MainScheduler.instance)
            .toBlocking(timeout: 2)
            .first()
        XCTAssertEqual(value, 7)
    }

    func testBlockingTimeout() {
        XCTAssertThrowsError(try Observable<Int>.never().toBlocking(timeout: 0.05).first()) { error in
            guard case RxError.timeout = error else { return XCTFail("expected RxError.timeout, got \(error)") }
        }
    }

    func testMetronomeResolution() {
        for (resolution, expected) in [(0.01, [6, 12, 18, 24, 30, 36, 42, 48]), (1.0, [1, 2, 3, 4, 5, 6, 7, 8])] {
            let scheduler = TestScheduler(initialClock: 0, resolution: resolution)
            let observer = scheduler.createObserver(Int.self)
            let subscription = Observable<Int>.interval(0.0625, scheduler: scheduler).take(8).subscribe(observer)
            scheduler.start()
            XCTAssertEqual(observer.events.compactMap { $0.value.element == nil ? nil : $0.time }, expected)
            XCTAssertEqual(observer.events.last, .completed(expected.last!))
            subscription.dispose()
        }
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
        let observer = scheduler.createObserver(Int.self)
        _ = Observable<Int>.interval(.milliseconds(500), scheduler: scheduler).take(3).subscribe(observer)
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(5, 0), .next(10, 1), .next(15, 2), .completed(15)])
    }

    func testTakeStopsEndlessSynchronousSource() {
        XCTAssertEqual(try Observable.repeatElement(1).map { $0 + 1 }.take(3).toBlocking().toArray(), [2, 2, 2])
    }
}
