import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("compactMap", .rxLeakCheck)
struct CompactMapTests {
    @Test func dropsNilResultsOfHotSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, "0"),
            .next(210, "1"),
            .next(220, "x"),
            .next(230, "3"),
            .next(240, ""),
            .next(250, "5"),
            .completed(300),
        ])
        let res = scheduler.start { xs.compactMap { Int($0) } }
        #expect(res.events == [.next(210, 1), .next(230, 3), .next(250, 5), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func coldSourceRelativeToSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 1),
            .next(20, 2),
            .next(30, 3),
            .completed(40),
        ])
        let res = scheduler.start { xs.compactMap { $0 % 2 == 1 ? $0 * 10 : nil } }
        #expect(res.events == [.next(210, 10), .next(230, 30), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }

    @Test func passesSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .error(220, testError),
            .next(230, 3),
        ])
        let res = scheduler.start { xs.compactMap { $0 } }
        #expect(res.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func thrownErrorEndsSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .next(230, 3),
            .completed(300),
        ])
        let res = scheduler.start {
            xs.compactMap { value -> Int? in
                if value == 2 { throw testError }
                return value
            }
        }
        #expect(res.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .next(260, 3),
            .completed(300),
        ])
        let res = scheduler.start(disposed: 250) { xs.compactMap { $0 } }
        #expect(res.events == [.next(210, 1), .next(220, 2)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}
