import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("ignoreElements", .rxLeakCheck)
struct IgnoreElementsTests {
    @Test func passesOnlyCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(180, 1), .next(210, 2), .next(250, 3), .next(270, 4), .completed(610),
        ])
        let res = scheduler.start { xs.ignoreElements() }
        #expect(res.events == [.completed(610)])
        #expect(xs.subscriptions == [Subscription(200, 610)])
    }

    @Test func passesOnlyError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, testError)])
        let res = scheduler.start { xs.ignoreElements() }
        #expect(res.events == [.error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(610)])
        let res = scheduler.start(disposed: 250) { xs.ignoreElements() }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}
