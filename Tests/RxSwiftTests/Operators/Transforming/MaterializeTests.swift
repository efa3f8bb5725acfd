import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("materialize", .rxLeakCheck)
struct MaterializeTests {
    @Test func nextsThenCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .completed(250),
        ])
        let res = scheduler.start { xs.materialize() }
        #expect(res.events == [
            .next(210, Event.next(2)),
            .next(220, Event.next(3)),
            .next(250, Event.completed),
            .completed(250),
        ])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func errorBecomesElementThenCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start { xs.materialize() }
        #expect(res.events == [
            .next(210, Event.next(1)),
            .next(220, Event.error(testError)),
            .completed(220),
        ])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func neverEmitsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.materialize() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.materialize() }
        #expect(res.events == [.next(210, Event.next(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}

@Suite("dematerialize", .rxLeakCheck)
struct DematerializeTests {
    @Test func nextsAndInnerCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, Event.next(41)),
            .next(210, Event.next(42)),
            .next(220, Event.next(43)),
            .next(230, Event<Int>.completed),
            .next(240, Event.next(44)),
            .completed(250),
        ])
        let res = scheduler.start { xs.dematerialize() }
        #expect(res.events == [.next(210, 42), .next(220, 43), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func innerErrorEndsSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Event.next(42)),
            .next(220, Event<Int>.error(testError)),
            .next(230, Event.next(43)),
            .completed(250),
        ])
        let res = scheduler.start { xs.dematerialize() }
        #expect(res.events == [.next(210, 42), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func outerTerminalEventsPassThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let completing = scheduler.createHotObservable([.next(210, Event.next(1)), .completed(250, Event<Int>.self)])
        let failing = scheduler.createHotObservable([.next(210, Event.next(1)), .error(250, testError, Event<Int>.self)])
        let completed = scheduler.createObserver(Int.self)
        let failed = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = completing.dematerialize().subscribe(completed)
            _ = failing.dematerialize().subscribe(failed)
        }
        scheduler.start()
        #expect(completed.events == [.next(210, 1), .completed(250)])
        #expect(failed.events == [.next(210, 1), .error(250, testError)])
        #expect(completing.subscriptions == [Subscription(200, 250)])
        #expect(failing.subscriptions == [Subscription(200, 250)])
    }

    @Test func roundTripsMaterialize() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, testError)])
        let res = scheduler.start { xs.materialize().dematerialize() }
        #expect(res.events == [.next(210, 1), .next(220, 2), .error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Event.next(1)), .next(260, Event.next(2))])
        let res = scheduler.start(disposed: 250) { xs.dematerialize() }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}
