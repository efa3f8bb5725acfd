import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("skip(while:)", .rxLeakCheck)
struct SkipWhileTests {
    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(90, -1), .next(110, -1), .next(210, 2), .next(260, 5), .next(290, 13),
            .next(320, 3), .next(350, 7), .next(390, 4), .next(410, 17), .completed(600),
        ])
    }

    @Test func skipsUntilPredicateFailsThenPassesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var invoked = 0
        let res = scheduler.start {
            xs.skip(while: { value in
                invoked += 1
                return value < 10
            })
        }
        #expect(res.events == [.next(290, 13), .next(320, 3), .next(350, 7), .next(390, 4), .next(410, 17), .completed(600)])
        #expect(xs.subscriptions == [Subscription(200, 600)])
        // The predicate is not consulted once an element got through.
        #expect(invoked == 3)
    }

    @Test func predicateNeverFailsGivesOnlyCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.skip(while: { _ in true }) }
        #expect(res.events == [.completed(600)])
    }

    @Test func coldSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 5), .next(30, 2), .completed(40)])
        let res = scheduler.start { xs.skip(while: { $0 < 3 }) }
        #expect(res.events == [.next(220, 5), .next(230, 2), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }

    @Test func throwingPredicate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start {
            xs.skip(while: { value in
                if value == 5 { throw testError }
                return true
            })
        }
        #expect(res.events == [.error(260, testError)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
    }

    @Test func passesSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 20), .error(230, testError)])
        let res = scheduler.start { xs.skip(while: { $0 < 10 }) }
        #expect(res.events == [.next(220, 20), .error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start(disposed: 300) { xs.skip(while: { $0 < 10 }) }
        #expect(res.events == [.next(290, 13)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }
}
