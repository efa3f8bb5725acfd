import Dispatch
import Foundation
import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

@Suite("throttle(_:latest:scheduler:)", .rxLeakCheck)
struct ThrottleTests {
    private func source(_ scheduler: TestScheduler, _ tail: [Recorded<Event<Int>>]) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5),
        ] + tail)
    }

    @Test("what is left of the window keeps the unit of the due time, as in RxSwift")
    func remainderInTheDueTimesUnit() {
        // At 0.1 s a tick, 2 arrives 0.6 s after 1 was sent. `.seconds(1)` leaves 0.4 s,
        // which rounds to no seconds: 2 goes out at once. `.milliseconds(1000)` leaves
        // 400 ms: 2 waits for the end of the window, at 211.
        let runs = recordedAtTenthsOfASecond([.next(1, 1), .next(7, 2), .completed(30)], dueTimes: [.seconds(1), .milliseconds(1000)]) {
            $0.throttle($1, scheduler: $2)
        }
        #expect(runs == [
            [.next(201, 1), .next(207, 2), .completed(230)],
            [.next(201, 1), .next(211, 2), .completed(230)],
        ])
    }

    // MARK: latest: false

    @Test("not latest: elements inside the window are dropped")
    func notLatestCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(410, 6), .next(450, 7), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test("not latest: never, empty, error and no end")
    func notLatestOthers() {
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 0)])
            let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
            #expect(res.events == [])
            #expect(xs.subscriptions == [Subscription(200, 1000)])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 0), .completed(500)])
            let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
            #expect(res.events == [.completed(500)])
            #expect(xs.subscriptions == [Subscription(200, 500)])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, [.error(410, testError), .next(450, 7), .completed(500)])
            let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
            #expect(res.events == [.next(210, 2), .error(410, testError)])
            #expect(xs.subscriptions == [Subscription(200, 410)])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, [.next(410, 6), .next(450, 7)])
            let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
            #expect(res.events == [.next(210, 2), .next(410, 6)])
            #expect(xs.subscriptions == [Subscription(200, 1000)])
        }
    }

    // MARK: latest: true

    @Test("latest: the last element of a window goes out when it ends; the completion waits for it")
    func latestCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(410, 6), .next(450, 7), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7), .completed(610)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test("latest: a completion after the window is sent when it arrives")
    func latestCompletedAfterDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(410, 6), .next(450, 7), .completed(900)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7), .completed(900)])
        #expect(xs.subscriptions == [Subscription(200, 900)])
    }

    @Test("latest: never, empty, error and no end")
    func latestOthers() {
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 0)])
            let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
            #expect(res.events == [])
            #expect(xs.subscriptions == [Subscription(200, 1000)])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 0), .completed(500)])
            let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
            #expect(res.events == [.completed(500)])
            #expect(xs.subscriptions == [Subscription(200, 500)])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, [.error(410, testError), .next(450, 7), .completed(500)])
            let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
            #expect(res.events == [.next(210, 2), .error(410, testError)])
            #expect(xs.subscriptions == [Subscription(200, 410)])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, [.next(410, 6), .next(450, 7)])
            let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
            #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7)])
            #expect(xs.subscriptions == [Subscription(200, 1000)])
        }
    }

    @Test("a cold source, and disposal while an element waits")
    func coldSourceAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1), .next(20, 2), .next(30, 3), .next(70, 4), .completed(200),
        ])
        let res = scheduler.start(disposed: 300) { xs.throttle(.seconds(50), scheduler: scheduler) }
        // 4 arrives at 270 and would go out at 310, after the disposal.
        #expect(res.events == [.next(210, 1), .next(260, 3)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test("on a dispatch queue scheduler the latest element comes one due time later")
    func realScheduler() throws {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let start = Date()
        let values = try Observable.from([0, 1])
            .throttle(.milliseconds(300), scheduler: scheduler)
            .toBlocking(timeout: 5)
            .toArray()
        let elapsed = Date().timeIntervalSince(start)
        #expect(values == [0, 1])
        #expect(elapsed >= 0.25 && elapsed < 3)
    }

    @Test("not latest on a dispatch queue scheduler completes at once")
    func realSchedulerNotLatest() throws {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let start = Date()
        let values = try Observable.from([0, 1])
            .throttle(.seconds(2), latest: false, scheduler: scheduler)
            .toBlocking(timeout: 5)
            .toArray()
        #expect(values == [0])
        #expect(Date().timeIntervalSince(start) < 1)
    }

    @Test("the pending timer is disposed with the subscription")
    func timerDisposedWithSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        let subscription = subject.throttle(.seconds(10), scheduler: scheduler).subscribe(observer)
        subject.onNext(1)
        subject.onNext(2)
        #expect(scheduler.pendingCount == 1)
        subscription.dispose()
        #expect(scheduler.pendingCount == 0)
        #expect(!subject.hasObservers)
        #expect(observer.events == [.next(0, 1)])
    }

    @Test("several threads emitting: one delivery at a time, terminal once, nothing after it")
    func concurrentEmitters() {
        for latest in [true, false] {
            let subject = PublishSubject<Int>()
            let observer = GrammarCheckingObserver<Int>()
            let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
            let subscription = subject.throttle(.microseconds(100), latest: latest, scheduler: scheduler).subscribe(observer)
            #expect(runConcurrently(threads: 4) { index in
                for value in 0..<2_000 { subject.onNext(index * 2_000 + value) }
            })
            subject.onCompleted()
            #expect(observer.waitForTerminal())
            #expect(!observer.elements.isEmpty)
            #expect(Set(observer.elements).count == observer.elements.count)
            #expect(observer.overlaps == 0)
            #expect(observer.terminals == 1)
            #expect(observer.eventsAfterTerminal == 0)
            subscription.dispose()
        }
    }
}
