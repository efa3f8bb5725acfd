import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("element(at:)", .rxLeakCheck)
struct ElementAtTests {
    @Test func firstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .completed(690),
        ])
        let res = scheduler.start { xs.element(at: 0) }
        #expect(res.events == [.next(210, 2), .completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func laterElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(690),
        ])
        let res = scheduler.start { xs.element(at: 2) }
        #expect(res.events == [.next(230, 4), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func coldSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let res = scheduler.start { xs.element(at: 1) }
        #expect(res.events == [.next(220, 2), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func completingEarlyIsOutOfRange() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(230)])
        let res = scheduler.start { xs.element(at: 2) }
        #expect(res.events == [.error(230, RxError.argumentOutOfRange)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func passesSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, testError)])
        let res = scheduler.start { xs.element(at: 3) }
        #expect(res.events == [.error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposalBeforeReachingIndex() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 3), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.element(at: 1) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}
