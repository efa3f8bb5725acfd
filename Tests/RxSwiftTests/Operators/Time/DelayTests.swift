import Dispatch
import Foundation
import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

@Suite("delay(_:scheduler:)", .rxLeakCheck)
struct DelayTests {
    private func source(_ scheduler: TestScheduler, ending end: Recorded<Event<Int>>) -> TestableObservable<Int> {
        scheduler.createHotObservable([.next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4), end])
    }

    @Test("elements and completion move later by the due time", arguments: [
        (100, [Recorded.next(350, 2), .next(450, 3), .next(550, 4), .completed(650)]),
        (50, [Recorded.next(300, 2), .next(400, 3), .next(500, 4), .completed(600)]),
        (150, [Recorded.next(400, 2), .next(500, 3), .next(600, 4), .completed(700)]),
    ])
    func simple(dueTime: Int, expected: [Recorded<Event<Int>>]) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, ending: .completed(550))
        let res = scheduler.start { xs.delay(.seconds(dueTime), scheduler: scheduler) }
        #expect(res.events == expected)
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test("an error goes out at once")
    func error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 1), .error(250, testError)])
        let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
        #expect(res.events == [.error(250, testError)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test("an empty source completes one due time later")
    func completed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
        #expect(res.events == [.completed(400)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test("an error after every element was sent")
    func error1() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, ending: .error(550, testError))
        let res = scheduler.start { xs.delay(.seconds(50), scheduler: scheduler) }
        #expect(res.events == [.next(300, 2), .next(400, 3), .next(500, 4), .error(550, testError)])
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test("an error drops the elements still waiting")
    func error2() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, ending: .error(550, testError))
        let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
        #expect(res.events == [.next(400, 2), .next(500, 3), .error(550, testError)])
        #expect(xs.subscriptions == [Subscription(200, 550)])
    }

    @Test("every event after the subscription moves by exactly the due time")
    func positive() {
        let scheduler = TestScheduler(initialClock: 0)
        let messages: [Recorded<Event<Int>>] = [.next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4), .completed(550)]
        let xs = scheduler.createHotObservable(messages)
        let res = scheduler.start { xs.delay(.seconds(42), scheduler: scheduler) }
        #expect(res.events == messages.map { Recorded(time: $0.time + 42, value: $0.value) }.filter { $0.time > 200 })
    }

    @Test("a cold source with elements closer together than the due time")
    func coldBurst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1), .next(11, 2), .next(12, 3), .next(40, 4), .completed(41),
        ])
        let res = scheduler.start { xs.delay(.seconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(230, 1), .next(231, 2), .next(232, 3), .next(260, 4), .completed(261)])
        #expect(xs.subscriptions == [Subscription(200, 241)])
    }

    @Test("events due at the same tick leave one turn apart: a tick apart with the processing delay, at once without", arguments: [
        (true, [Recorded.next(220, 1), .next(221, 2), .next(222, 3), .next(223, 4), .completed(224)]),
        (false, [Recorded.next(220, 1), .next(220, 2), .next(220, 3), .next(221, 4), .completed(222)]),
    ])
    func sameTickOneTurnEach(simulateProcessingDelay: Bool, expected: [Recorded<Event<Int>>]) {
        // With the processing delay the lag carries on: 4 and the completion, due at
        // 221 and 222, leave at 223 and 224.
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: simulateProcessingDelay)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(210, 2), .next(210, 3), .next(211, 4), .completed(212),
        ])
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        #expect(res.events == expected)
        #expect(xs.subscriptions == [Subscription(200, 212)])
    }

    @Test("a completion arriving with the last element leaves one turn after it")
    func completionWithLastElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2).delay(.seconds(5), scheduler: scheduler) }
        #expect(res.events == [.next(205, 1), .next(206, 2), .completed(207)])
    }

    @Test("an error overtakes elements that are due but still waiting for their turn")
    func errorDuringSameTickTurns() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([
            .next(210, 1), .next(210, 2), .next(210, 3), .error(221, testError),
        ])
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        #expect(res.events == [.next(220, 1), .error(221, testError)])
        #expect(xs.subscriptions == [Subscription(200, 221)])
    }

    @Test("what is left of the delay keeps the unit of the due time, as in RxSwift")
    func remainderInTheDueTimesUnit() {
        // At 0.1 s a tick, elements arrive at 201 and 205. The turn of the first runs
        // at 211; 0.6 s of the second's delay has passed by then. `.seconds(1)` leaves
        // 0.4 s, which rounds to no seconds at all: the second turn is due at once (212).
        // `.milliseconds(1000)` leaves 400 ms: the second element leaves at 215.
        let runs = recordedAtTenthsOfASecond([.next(1, 1), .next(5, 2), .completed(20)], dueTimes: [.seconds(1), .milliseconds(1000)]) {
            $0.delay($1, scheduler: $2)
        }
        #expect(runs == [
            [.next(211, 1), .next(212, 2), .completed(230)],
            [.next(211, 1), .next(215, 2), .completed(230)],
        ])
    }

    @Test("disposal drops the waiting elements and the timer")
    func disposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, ending: .completed(550))
        let res = scheduler.start(disposed: 400) { xs.delay(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(350, 2)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }

    @Test("the pending timer is disposed with the subscription")
    func timerDisposedWithSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let subscription = subject.delay(.seconds(10), scheduler: scheduler).subscribe { _ in }
        subject.onNext(1)
        subject.onNext(2)
        #expect(scheduler.pendingCount == 1)
        subscription.dispose()
        #expect(scheduler.pendingCount == 0)
        #expect(!subject.hasObservers)
    }

    @Test("seconds as a float literal, on a fractional resolution")
    func floatLiteral() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
        let xs = scheduler.createColdObservable([.next(1, "a"), .next(3, "b"), .completed(4)])
        let res = scheduler.start { xs.delay(0.5, scheduler: scheduler) }
        #expect(res.events == [.next(206, "a"), .next(208, "b"), .completed(209)])
    }

    @Test("on a dispatch queue scheduler every element arrives, in order")
    func realSimple() throws {
        let subject = PublishSubject<Int>()
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let result = ReplaySubject<[Int]>.create(bufferSize: 1)
        let collected = LockedBox<[Int]>([])
        let subscription = subject.delay(.milliseconds(10), scheduler: scheduler).subscribe(
            onNext: { value in collected.withLock { $0.append(value) } },
            onCompleted: { result.onNext(collected.value); result.onCompleted() }
        )
        defer { subscription.dispose() }
        DispatchQueue.global().async {
            subject.onNext(1)
            subject.onNext(2)
            subject.onNext(3)
            subject.onCompleted()
        }
        #expect(try result.toBlocking(timeout: 5).first() == [1, 2, 3])
    }

    @Test("on a dispatch queue scheduler an error overtakes the waiting elements")
    func realError() throws {
        let subject = PublishSubject<Int>()
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let failed = ReplaySubject<Swift.Error>.create(bufferSize: 1)
        let subscription = subject.delay(.milliseconds(200), scheduler: scheduler).subscribe(
            onNext: { _ in Issue.record("no element should arrive before the error") },
            onError: { failed.onNext($0); failed.onCompleted() }
        )
        defer { subscription.dispose() }
        DispatchQueue.global().async {
            subject.onNext(1)
            subject.onError(testError)
        }
        let error = try failed.toBlocking(timeout: 5).first()
        #expect(error as? TestError == testError)
    }

    @Test("the sign-in flow: just(...).delay(0.1, scheduler:) on a background scheduler")
    func signInFlow() throws {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let start = Date()
        let values = try Observable.just("use").delay(0.1, scheduler: scheduler).toBlocking(timeout: 5).toArray()
        #expect(values == ["use"])
        #expect(Date().timeIntervalSince(start) >= 0.09)
        #expect(try Observable<Int>.empty().delay(0.05, scheduler: scheduler).toBlocking(timeout: 5).toArray() == [])
    }

    @Test("a pending timer holds its sink: with the subscription's disposable dropped, the events still arrive")
    func droppedSubscription() throws {
        let delivered = ReplaySubject<Int>.createUnbounded()
        // The source completes at once and lets go of the sink: only the timer holds it.
        _ = Observable.just(1).delay(.milliseconds(20), scheduler: ConcurrentDispatchQueueScheduler(qos: .default)).subscribe(delivered)
        #expect(try delivered.toBlocking(timeout: 5).toArray() == [1])
    }

    @Test("several threads emitting: every element once, one delivery at a time")
    func concurrentEmitters() {
        let subject = PublishSubject<Int>()
        let observer = GrammarCheckingObserver<Int>()
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let subscription = subject.delay(.microseconds(100), scheduler: scheduler).subscribe(observer)
        defer { subscription.dispose() }
        #expect(runConcurrently(threads: 4) { index in
            for value in 0..<1_000 { subject.onNext(index * 1_000 + value) }
        })
        subject.onCompleted()
        #expect(observer.waitForTerminal())
        #expect(observer.elements.sorted() == Array(0..<4_000))
        #expect(observer.overlaps == 0)
        #expect(observer.terminals == 1)
        #expect(observer.eventsAfterTerminal == 0)
    }
}

@Suite("delaySubscription(_:scheduler:)", .rxLeakCheck)
struct DelaySubscriptionTests {
    @Test("subscribes one due time late")
    func simple() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 42), .next(60, 43), .completed(70)])
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        #expect(res.events == [.next(280, 42), .next(290, 43), .completed(300)])
        #expect(xs.subscriptions == [Subscription(230, 300)])
    }

    @Test("errors pass through")
    func error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 42), .next(60, 43), .error(70, testError)])
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        #expect(res.events == [.next(280, 42), .next(290, 43), .error(300, testError)])
        #expect(xs.subscriptions == [Subscription(230, 300)])
    }

    @Test("disposal after the subscription unsubscribes")
    func dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 42), .next(60, 43), .error(70, testError)])
        let res = scheduler.start(disposed: 291) { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        #expect(res.events == [.next(280, 42), .next(290, 43)])
        #expect(xs.subscriptions == [Subscription(230, 291)])
    }

    @Test("disposal before the due time never subscribes")
    func disposeBeforeSubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 42), .completed(70)])
        let res = scheduler.start(disposed: 220) { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [])
    }

    @Test("the pending timer is disposed with the subscription")
    func timerDisposedWithSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let subscription = subject.delaySubscription(.seconds(10), scheduler: scheduler).subscribe { _ in }
        #expect(scheduler.pendingCount == 1)
        #expect(!subject.hasObservers)
        subscription.dispose()
        #expect(scheduler.pendingCount == 0)
    }
}
