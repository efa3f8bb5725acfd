import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("startWith", .rxLeakCheck)
struct StartWithTests {
    @Test func prependsAtSubscriptionTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .completed(250),
        ])
        let res = scheduler.start { xs.startWith(0) }
        #expect(res.events == [.next(200, 0), .next(220, 2), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func prependsSeveralInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.startWith(7, 8, 9) }
        #expect(res.events == [.next(200, 7), .next(200, 8), .next(200, 9), .next(210, 1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func chainedPrefixesComeOutermostFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .completed(250)])
        let res = scheduler.start { xs.startWith(1).startWith(0) }
        #expect(res.events == [.next(200, 0), .next(200, 1), .next(220, 2), .completed(250)])
    }

    @Test func sourceErrorFollowsPrefix() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(250, testError, Int.self)])
        let res = scheduler.start { xs.startWith(5) }
        #expect(res.events == [.next(200, 5), .error(250, testError)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .next(260, 3), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.startWith(0) }
        #expect(res.events == [.next(200, 0), .next(220, 2)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func prefixIsSynchronous() {
        var values: [Int] = []
        let subscription = Observable<Int>.never().startWith(1, 2).subscribe(onNext: { values.append($0) })
        #expect(values == [1, 2])
        subscription.dispose()
    }
}
