import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("takeLast", .rxLeakCheck)
struct TakeLastTests {
    @Test func fewerThanCountGivesAll() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(70, 6), .next(150, 4), .next(210, 9), .next(230, 13), .completed(300)])
        let res = scheduler.start { xs.takeLast(7) }
        #expect(res.events == [.next(300, 9), .next(300, 13), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func moreThanCountKeepsTheLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 9), .next(230, 13), .next(250, 7), .next(270, 1), .next(290, -1), .completed(300),
        ])
        let res = scheduler.start { xs.takeLast(3) }
        #expect(res.events == [.next(300, 7), .next(300, 1), .next(300, -1), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func zeroGivesOnlyCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let res = scheduler.start { xs.takeLast(0) }
        #expect(res.events == [.completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func errorDropsKeptElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 9), .next(230, 13), .error(300, testError)])
        let res = scheduler.start { xs.takeLast(2) }
        #expect(res.events == [.error(300, testError)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 9), .next(230, 13), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.takeLast(2) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func downstreamStoppingMidwayStopsEmission() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.takeLast(3).take(2) }
        #expect(res.events == [.next(300, 1), .next(300, 2), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }
}
