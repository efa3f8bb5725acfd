import RxSwift
import RxTest
import Testing

/// The RxSwift 5 spellings still compile and forward to the new operators.
@Suite("deprecated filtering spellings", .rxLeakCheck)
struct DeprecatedFilteringTests {
    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
        ])
    }

    @available(*, deprecated)
    @Test func takeWhile() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.takeWhile { $0 < 3 } }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @available(*, deprecated)
    @Test func takeUntilObservable() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let stop = scheduler.createHotObservable([.next(225, "stop")])
        let res = scheduler.start { xs.takeUntil(stop) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(225)])
        #expect(stop.subscriptions == [Subscription(200, 225)])
    }

    @available(*, deprecated)
    @Test func takeUntilBehaviorPredicate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.takeUntil(.inclusive) { $0 == 2 } }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(220)])
    }

    @available(*, deprecated)
    @Test func skipWhile() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.skipWhile { $0 < 3 } }
        #expect(res.events == [.next(230, 3), .next(240, 4), .completed(250)])
    }

    @available(*, deprecated)
    @Test func skipUntil() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let go = scheduler.createHotObservable([.next(225, "go")])
        let res = scheduler.start { xs.skipUntil(go) }
        #expect(res.events == [.next(230, 3), .next(240, 4), .completed(250)])
        #expect(go.subscriptions == [Subscription(200, 225)])
    }

    @available(*, deprecated)
    @Test func elementAt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.elementAt(2) }
        #expect(res.events == [.next(230, 3), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }
}
