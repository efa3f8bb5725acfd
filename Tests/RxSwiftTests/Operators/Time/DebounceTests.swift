import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("debounce(_:scheduler:)", .rxLeakCheck)
struct DebounceTests {
    private func regular(_ scheduler: TestScheduler, ending end: Recorded<Event<Int>>) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1), .next(200, 2), .next(250, 3), .next(300, 4), .next(350, 5),
            .next(400, 6), .next(450, 7), .next(500, 8), end,
        ])
    }

    @Test("elements further apart than the due time all pass, each after the due time")
    func allPass() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = regular(scheduler, ending: .completed(550))
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [
            .next(270, 3), .next(320, 4), .next(370, 5), .next(420, 6),
            .next(470, 7), .next(520, 8), .completed(550),
        ])
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test("an error ends the sequence at once")
    func allPassErrorEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = regular(scheduler, ending: .error(550, testError))
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [
            .next(270, 3), .next(320, 4), .next(370, 5), .next(420, 6),
            .next(470, 7), .next(520, 8), .error(550, testError),
        ])
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test("elements closer than the due time are dropped; completion sends the pending one")
    func allDrop() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = regular(scheduler, ending: .completed(550))
        let res = scheduler.start { xs.debounce(.seconds(60), scheduler: scheduler) }
        #expect(res.events == [.next(550, 8), .completed(550)])
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test("an error drops the pending element")
    func allDropErrorEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = regular(scheduler, ending: .error(550, testError))
        let res = scheduler.start { xs.debounce(.seconds(60), scheduler: scheduler) }
        #expect(res.events == [.error(550, testError)])
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test("empty, error and never sources")
    func emptyErrorNever() {
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 1), .completed(300)])
            let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
            #expect(res.events == [.completed(300)])
            #expect(xs.subscriptions == [Subscription(200, 300)])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 1), .error(300, testError)])
            let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
            #expect(res.events == [.error(300, testError)])
            #expect(xs.subscriptions == [Subscription(200, 300)])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
            #expect(res.events == [])
            #expect(xs.subscriptions == [Subscription(200, 1000)])
        }
    }

    @Test("a burst yields its last element once the source is quiet")
    func bursts() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(215, 3), .next(225, 4), .next(300, 5),
            .next(305, 6), .next(400, 7), .completed(500),
        ])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(245, 4), .next(325, 6), .next(420, 7), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test("a cold source")
    func coldSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1), .next(15, 2), .next(50, 3), .completed(55),
        ])
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        #expect(res.events == [.next(225, 2), .next(255, 3), .completed(255)])
        #expect(xs.subscriptions == [Subscription(200, 255)])
    }

    @Test("disposal before the due time drops the pending element and its timer")
    func disposedBeforeDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = regular(scheduler, ending: .completed(550))
        let res = scheduler.start(disposed: 310) { xs.debounce(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(270, 3)])
        #expect(xs.subscriptions == [Subscription(200, 310)])
    }

    @Test("the pending timer is disposed with the subscription")
    func timerDisposedWithSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let subscription = subject.debounce(.seconds(10), scheduler: scheduler).subscribe { _ in }
        subject.onNext(1)
        #expect(scheduler.pendingCount == 1)
        subscription.dispose()
        #expect(scheduler.pendingCount == 0)
        #expect(!subject.hasObservers)
    }

    @Test("an observer that feeds the source again does not deadlock")
    func reentrantObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        let subscription = subject.debounce(.seconds(10), scheduler: scheduler).subscribe { event in
            observer.on(event)
            if case .next(let value) = event, value < 3 { subject.onNext(value + 1) }
        }
        scheduler.scheduleAt(100) { subject.onNext(1) }
        scheduler.start()
        subscription.dispose()
        #expect(observer.events == [.next(110, 1), .next(120, 2), .next(130, 3)])
    }

    @Test("several threads emitting: one delivery at a time, the last element last, terminal once")
    func concurrentEmitters() {
        let subject = PublishSubject<Int>()
        let observer = GrammarCheckingObserver<Int>()
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let subscription = subject.debounce(.microseconds(50), scheduler: scheduler).subscribe(observer)
        defer { subscription.dispose() }
        #expect(runConcurrently(threads: 4) { index in
            for value in 0..<2_000 { subject.onNext(index * 2_000 + value) }
        })
        subject.onNext(-1)
        subject.onCompleted()
        #expect(observer.waitForTerminal())
        #expect(observer.elements.last == -1)
        #expect(Set(observer.elements).count == observer.elements.count)
        #expect(observer.overlaps == 0)
        #expect(observer.terminals == 1)
        #expect(observer.eventsAfterTerminal == 0)
    }
}
