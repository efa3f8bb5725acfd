import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("skip(_ count:)", .rxLeakCheck)
struct SkipCountTests {
    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(70, 6), .next(150, 4), .next(210, 9), .next(230, 13), .next(270, 7), .next(280, 1), .completed(690),
        ])
    }

    @Test func skipsTheFirstElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.skip(2) }
        #expect(res.events == [.next(270, 7), .next(280, 1), .completed(690)])
        #expect(xs.subscriptions == [Subscription(200, 690)])
    }

    @Test func zeroSkipsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.skip(0) }
        #expect(res.events == [.next(210, 9), .next(230, 13), .next(270, 7), .next(280, 1), .completed(690)])
    }

    @Test func moreThanAvailableGivesOnlyCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.skip(20) }
        #expect(res.events == [.completed(690)])
        #expect(xs.subscriptions == [Subscription(200, 690)])
    }

    @Test func coldSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3), .completed(40)])
        let res = scheduler.start { xs.skip(1) }
        #expect(res.events == [.next(220, 2), .next(230, 3), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }

    @Test func passesSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 9), .next(230, 13), .error(240, testError)])
        let res = scheduler.start { xs.skip(1) }
        #expect(res.events == [.next(230, 13), .error(240, testError)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start(disposed: 250) { xs.skip(1) }
        #expect(res.events == [.next(230, 13)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}
