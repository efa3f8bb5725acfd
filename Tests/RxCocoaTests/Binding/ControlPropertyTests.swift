import RxCocoa
import RxSwift
import RxTest
import XCTest

/// Control properties and events subscribe on the main scheduler, which runs at once
/// on the main thread; on Linux only XCTest runs tests there, hence XCTest here.
final class ControlPropertyTests: LeakCheckingTestCase {
    private final class TextField {
        let text = BehaviorRelay<String?>(value: nil)
        var rxText: ControlProperty<String?> {
            let relay = text
            return ControlProperty(values: relay.asObservable(), valueSink: AnyObserver<String?> { event in
                if case .next(let value) = event { relay.accept(value) }
            })
        }
    }

    func testControlPropertyReadsAndWrites() {
        let field = TextField()
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(String?.self)
        let subscription = field.rxText.subscribe(observer)
        field.rxText.onNext("a")
        _ = Observable.just("b").bind(to: field.rxText)
        subscription.dispose()
        XCTAssertEqual(observer.events.map(\.value), [.next(nil), .next("a"), .next("b")])
        XCTAssertEqual(field.text.value, "b")
    }

    func testOrEmptyAndChanged() {
        let field = TextField()
        var values: [String] = []
        var changes: [String?] = []
        let a = field.rxText.orEmpty.subscribe(onNext: { values.append($0) })
        let b = field.rxText.changed.subscribe(onNext: { changes.append($0) })
        field.rxText.orEmpty.onNext("typed")
        a.dispose()
        b.dispose()
        XCTAssertEqual(values, ["", "typed"])
        XCTAssertEqual(changes, ["typed"])
    }

    func testControlPropertyAsDriver() {
        let field = TextField()
        var values: [String?] = []
        let subscription = field.rxText.asDriver().drive(onNext: { values.append($0) })
        field.text.accept("x")
        subscription.dispose()
        XCTAssertEqual(values, [nil, "x"])
    }

    func testControlEventAsDriverAndSignal() {
        let taps = PublishRelay<Void>()
        let event = ControlEvent(events: taps)
        var driven = 0
        var emitted = 0
        var observed = 0
        let a = event.asDriver().drive(onNext: { driven += 1 })
        let b = event.asSignal().emit(onNext: { emitted += 1 })
        let c = event.asControlEvent().asObservable().subscribe(onNext: { observed += 1 })
        taps.accept(())
        taps.accept(())
        a.dispose()
        b.dispose()
        c.dispose()
        taps.accept(())
        XCTAssertEqual([driven, emitted, observed], [2, 2, 2])
    }

    func testControlEventSubscribesOnTheMainThreadFromABackgroundThread() {
        let subscribedOnMain = expectation(description: "subscribed on the main thread")
        let source = Observable<Int>.create { _ in
            XCTAssertTrue(Thread.isMainThread)
            subscribedOnMain.fulfill()
            return Disposables.create()
        }
        let event = ControlEvent(events: source)
        let subscription = SingleAssignmentDisposable()
        let subscribeReturned = expectation(description: "subscribe returned on the background thread")
        DispatchQueue.global().async {
            subscription.setDisposable(event.subscribe(onNext: { _ in }))
            subscribeReturned.fulfill()
        }
        // Both: the source may be subscribed on the main thread before `subscribe`
        // returns on the background one, and a disposal before `setDisposable` leaves
        // the subscription open until that thread gets to it (after the leak check, under
        // load).
        wait(for: [subscribedOnMain, subscribeReturned], timeout: 5)
        // The source never ends: without this the subscription would outlive the test
        // (the leak check caught it).
        subscription.dispose()
    }
}
