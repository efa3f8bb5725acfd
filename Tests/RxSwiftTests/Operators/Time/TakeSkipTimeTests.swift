import Dispatch
import Foundation
import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

@Suite("take(for:scheduler:)", .rxLeakCheck)
struct TakeTimeTests {
    @Test("a zero duration completes one tick after the subscription")
    func zero() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.take(for: .seconds(0), scheduler: scheduler) }
        #expect(res.events == [.completed(201)])
        #expect(xs.subscriptions == [Subscription(200, 201)])
    }

    @Test("elements within the duration pass, then completion")
    func some() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let res = scheduler.start { xs.take(for: .seconds(25), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(225)])
        #expect(xs.subscriptions == [Subscription(200, 225)])
    }

    @Test("a source that ends first ends the result")
    func late() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test("errors pass; a silent source completes at the end of the duration")
    func errorAndNever() {
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(0, 0), .error(210, testError)])
            let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
            #expect(res.events == [.error(210, testError)])
            #expect(xs.subscriptions == [Subscription(200, 210)])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(0, 0)])
            let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
            #expect(res.events == [.completed(250)])
            #expect(xs.subscriptions == [Subscription(200, 250)])
        }
    }

    @Test("two in a row: the shorter wins", arguments: [(55, 35), (35, 55)])
    func twice(first: Int, second: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(260, 6), .completed(270),
        ])
        let res = scheduler.start {
            xs.take(for: .seconds(first), scheduler: scheduler).take(for: .seconds(second), scheduler: scheduler)
        }
        #expect(res.events == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(235)])
        #expect(xs.subscriptions == [Subscription(200, 235)])
    }

    @Test("the timer starts before a cold source is subscribed to, so it wins a tie")
    func coldTie() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let res = scheduler.start { xs.take(for: .seconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test("disposal before the end of the duration")
    func disposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let res = scheduler.start(disposed: 215) { xs.take(for: .seconds(25), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 215)])
    }

    @Test("the timer is disposed with the subscription")
    func timerDisposedWithSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let subscription = subject.take(for: .seconds(10), scheduler: scheduler).subscribe { _ in }
        #expect(scheduler.pendingCount == 1)
        subscription.dispose()
        #expect(scheduler.pendingCount == 0)
        #expect(!subject.hasObservers)
    }

    @Test("several threads emitting while the duration ends: the grammar holds")
    func concurrentEmitters() {
        let subject = PublishSubject<Int>()
        let observer = GrammarCheckingObserver<Int>()
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let subscription = subject.take(for: .microseconds(500), scheduler: scheduler).subscribe(observer)
        defer { subscription.dispose() }
        #expect(runConcurrently(threads: 4) { index in
            for value in 0..<5_000 { subject.onNext(index * 5_000 + value) }
        })
        #expect(observer.waitForTerminal())
        #expect(observer.overlaps == 0)
        #expect(observer.terminals == 1)
        #expect(observer.eventsAfterTerminal == 0)
    }
}

@Suite("skip(_:scheduler:)", .rxLeakCheck)
struct SkipTimeTests {
    @Test("a zero duration skips nothing after the first tick")
    func zero() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.skip(.seconds(0), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test("elements within the duration are skipped")
    func some() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.skip(.seconds(15), scheduler: scheduler) }
        #expect(res.events == [.next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test("a source that ends first only sends its terminal event")
    func late() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.skip(.seconds(50), scheduler: scheduler) }
        #expect(res.events == [.completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test("errors pass; a silent source stays silent")
    func errorAndNever() {
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.error(210, testError)])
            let res = scheduler.start { xs.skip(.seconds(50), scheduler: scheduler) }
            #expect(res.events == [.error(210, testError)])
            #expect(xs.subscriptions == [Subscription(200, 210)])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([])
            let res = scheduler.start { xs.skip(.seconds(50), scheduler: scheduler) }
            #expect(res.events == [])
            #expect(xs.subscriptions == [Subscription(200, 1000)])
        }
    }

    @Test("a cold source: the timer wins a tie")
    func coldTie() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3), .completed(40)])
        let res = scheduler.start(disposed: 235) { xs.skip(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(220, 2), .next(230, 3)])
        #expect(xs.subscriptions == [Subscription(200, 235)])
    }

    @Test("the timer is disposed with the subscription")
    func timerDisposedWithSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let subscription = subject.skip(.seconds(10), scheduler: scheduler).subscribe { _ in }
        #expect(scheduler.pendingCount == 1)
        subscription.dispose()
        #expect(scheduler.pendingCount == 0)
        #expect(!subject.hasObservers)
    }
}
