import Dispatch
import Foundation
import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

private func isTimeout(_ event: Event<Int>?) -> Bool {
    if case .error(RxError.timeout)? = event { return true }
    return false
}

@Suite("timeout(_:scheduler:) and timeout(_:other:scheduler:)", .rxLeakCheck)
struct TimeoutTests {
    @Test("empty, error and never sources")
    func emptyErrorNever() {
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 0), .completed(300)])
            let res = scheduler.start { xs.timeout(.seconds(200), scheduler: scheduler) }
            #expect(res.events == [.completed(300)])
            #expect(xs.subscriptions == [Subscription(200, 300)])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 0), .error(300, testError)])
            let res = scheduler.start { xs.timeout(.seconds(200), scheduler: scheduler) }
            #expect(res.events == [.error(300, testError)])
            #expect(xs.subscriptions == [Subscription(200, 300)])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 0)])
            let res = scheduler.start { xs.timeout(.seconds(1000), scheduler: scheduler) }
            #expect(res.events == [])
            #expect(xs.subscriptions == [Subscription(200, 1000)])
        }
    }

    @Test("elements within the due time pass")
    func dueTimeSimple() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 42), .next(25, 43), .next(40, 44), .next(50, 45), .completed(60),
        ])
        let res = scheduler.start { xs.timeout(.seconds(30), scheduler: scheduler) }
        #expect(res.events == [.next(210, 42), .next(225, 43), .next(240, 44), .next(250, 45), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
    }

    @Test("an element exactly at the due time still passes")
    func dueTimeExact() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 42), .next(20, 43), .next(50, 44), .next(60, 45), .completed(70),
        ])
        let res = scheduler.start { xs.timeout(.seconds(30), scheduler: scheduler) }
        #expect(res.events == [.next(210, 42), .next(220, 43), .next(250, 44), .next(260, 45), .completed(270)])
        #expect(xs.subscriptions == [Subscription(200, 270)])
    }

    @Test("a gap longer than the due time fails with RxError.timeout")
    func dueTimeTimeout() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 42), .next(20, 43), .next(50, 44), .next(60, 45), .completed(70),
        ])
        let res = scheduler.start { xs.timeout(.seconds(25), scheduler: scheduler) }
        #expect(res.events.count == 3)
        #expect(Array(res.events.prefix(2)) == [.next(210, 42), .next(220, 43)])
        #expect(res.events.last?.time == 245)
        #expect(isTimeout(res.events.last?.value))
        #expect(res.events.last == .error(245, RxError.timeout))
        #expect(xs.subscriptions == [Subscription(200, 245)])
    }

    @Test("no timeout before the first element arrives late either")
    func firstElementLate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(60)])
        let res = scheduler.start { xs.timeout(.seconds(40), scheduler: scheduler) }
        #expect(res.events == [.error(240, RxError.timeout)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }

    @Test("disposal stops everything")
    func disposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5),
            .next(350, 6), .next(370, 7), .next(420, 8), .next(470, 9), .completed(600),
        ])
        let res = scheduler.start(disposed: 370) { xs.timeout(.seconds(40), scheduler: scheduler) }
        #expect(res.events == [
            .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6), .next(370, 7),
        ])
        #expect(xs.subscriptions == [Subscription(200, 370)])
    }

    @Test("a timeout before the first element switches to the other sequence")
    func timeoutOccurs1() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(70, 1), .next(130, 2), .next(310, 3), .next(400, 4), .completed(500),
        ])
        let ys = scheduler.createColdObservable([.next(50, -1), .next(200, -2), .next(310, -3), .completed(320)])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        #expect(res.events == [.next(350, -1), .next(500, -2), .next(610, -3), .completed(620)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(300, 620)])
    }

    @Test("a timeout between elements switches to the other sequence")
    func timeoutOccurs2() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(70, 1), .next(130, 2), .next(240, 3), .next(310, 4), .next(430, 5), .completed(500),
        ])
        let ys = scheduler.createColdObservable([.next(50, -1), .next(200, -2), .next(310, -3), .completed(320)])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        #expect(res.events == [
            .next(240, 3), .next(310, 4), .next(460, -1), .next(610, -2), .next(720, -3), .completed(730),
        ])
        #expect(xs.subscriptions == [Subscription(200, 410)])
        #expect(ys.subscriptions == [Subscription(410, 730)])
    }

    @Test("a silent other sequence keeps the result open")
    func timeoutOccursNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(70, 1), .next(130, 2), .next(240, 3), .next(310, 4), .next(430, 5), .completed(500),
        ])
        let ys: TestableObservable<Int> = scheduler.createColdObservable([])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        #expect(res.events == [.next(240, 3), .next(310, 4)])
        #expect(xs.subscriptions == [Subscription(200, 410)])
        #expect(ys.subscriptions == [Subscription(410, 1000)])
    }

    @Test("after the switch the source's terminal event is ignored")
    func timeoutOccursSourceTerminates() {
        for end in [Recorded<Event<Int>>.completed(500), .error(500, testError)] {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([end])
            let ys = scheduler.createColdObservable([.next(100, -1)])
            let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
            #expect(res.events == [.next(400, -1)])
            #expect(xs.subscriptions == [Subscription(200, 300)])
            #expect(ys.subscriptions == [Subscription(300, 1000)])
        }
    }

    @Test("an error of the other sequence ends the result")
    func timeoutOccursNextIsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(500, 42)])
        let ys: TestableObservable<Int> = scheduler.createColdObservable([.error(100, testError)])
        let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
        #expect(res.events == [.error(400, testError)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(300, 400)])
    }

    @Test("without a timeout the other sequence is never subscribed to")
    func timeoutNotOccurs() {
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.completed(250)])
            let ys: TestableObservable<Int> = scheduler.createColdObservable([.next(100, -1)])
            let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
            #expect(res.events == [.completed(250)])
            #expect(xs.subscriptions == [Subscription(200, 250)])
            #expect(ys.subscriptions == [])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.error(250, testError)])
            let ys: TestableObservable<Int> = scheduler.createColdObservable([.next(100, -1)])
            let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
            #expect(res.events == [.error(250, testError)])
            #expect(xs.subscriptions == [Subscription(200, 250)])
            #expect(ys.subscriptions == [])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(70, 1), .next(130, 2), .next(240, 3), .next(320, 4), .next(410, 5), .completed(500),
            ])
            let ys = scheduler.createColdObservable([.next(50, -1), .next(200, -2), .next(310, -3), .completed(320)])
            let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
            #expect(res.events == [.next(240, 3), .next(320, 4), .next(410, 5), .completed(500)])
            #expect(xs.subscriptions == [Subscription(200, 500)])
            #expect(ys.subscriptions == [])
        }
    }

    @Test("the pending timer is disposed with the subscription")
    func timerDisposedWithSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let subscription = subject.timeout(.seconds(10), scheduler: scheduler).subscribe { _ in }
        subject.onNext(1)
        #expect(scheduler.pendingCount == 1)
        subscription.dispose()
        #expect(scheduler.pendingCount == 0)
        #expect(!subject.hasObservers)
    }

    @Test("on a dispatch queue scheduler a silent source times out")
    func realScheduler() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let result = Observable<Int>.never()
            .timeout(.milliseconds(50), scheduler: scheduler)
            .toBlocking(timeout: 5)
            .materialize()
        switch result {
        case .completed:
            Issue.record("expected a timeout")
        case .failed(let elements, let error):
            #expect(elements == [])
            #expect(isTimeout(.error(error)))
        }
    }

    @Test("several threads emitting while the timer may fire: the grammar holds")
    func concurrentEmitters() {
        for round in 0..<20 {
            let subject = PublishSubject<Int>()
            let observer = GrammarCheckingObserver<Int>()
            let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
            let other = Observable<Int>.just(-1)
            // Short enough that the timeout fires while the threads are still emitting in
            // some rounds, long enough that it does not in others.
            let subscription = subject.timeout(.microseconds(20 + round * 50), other: other, scheduler: scheduler).subscribe(observer)
            #expect(runConcurrently(threads: 4) { index in
                for value in 0..<500 { subject.onNext(index * 500 + value) }
            })
            subject.onCompleted()
            #expect(observer.waitForTerminal())
            #expect(observer.overlaps == 0)
            #expect(observer.terminals == 1)
            #expect(observer.eventsAfterTerminal == 0)
            let switched = observer.elements.last == -1
            #expect(observer.elements.filter { $0 == -1 }.count == (switched ? 1 : 0))
            subscription.dispose()
        }
    }
}
