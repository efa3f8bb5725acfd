import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("reduce", .rxLeakCheck)
struct ReduceTests {
    @Test func emptyEmitsSeed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.reduce(42, accumulator: +) }
        #expect(res.events == [.next(250, 42), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func emitsFinalStateOnCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 0),
            .next(220, 1),
            .next(230, 2),
            .next(240, 3),
            .next(250, 4),
            .completed(260),
        ])
        let res = scheduler.start { xs.reduce(42, accumulator: +) }
        #expect(res.events == [.next(260, 42 + 0 + 1 + 2 + 3 + 4), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
    }

    @Test func mapResultTransformsFinalState() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let res = scheduler.start { xs.reduce(0, accumulator: +, mapResult: { "sum \($0)" }) }
        #expect(res.events == [.next(230, "sum 3"), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func passesSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.reduce(42, accumulator: +) }
        #expect(res.events == [.error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func neverNeverEmits() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.reduce(42, accumulator: +) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func throwingAccumulatorEndsSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 0), .next(220, 1), .next(230, 2), .completed(260),
        ])
        let res = scheduler.start {
            xs.reduce(42) { state, element in
                if element == 1 { throw testError }
                return state + element
            }
        }
        #expect(res.events == [.error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func throwingMapResultEndsSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .completed(260)])
        let res = scheduler.start {
            xs.reduce(42, accumulator: +, mapResult: { (_: Int) -> Int in throw testError })
        }
        #expect(res.events == [.error(260, testError)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.reduce(0, accumulator: +) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}
