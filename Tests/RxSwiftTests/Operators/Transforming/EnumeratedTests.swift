import RivuletTestSupport
import RxSwift
import RxTest
import Testing

/// An `enumerated()` element in a comparable form.
private struct Indexed: Equatable {
    let index: Int
    let element: String
}

@Suite("enumerated", .rxLeakCheck)
struct EnumeratedTests {
    @Test func pairsElementsWithIndices() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, "z"),
            .next(210, "a"),
            .next(220, "b"),
            .next(280, "c"),
            .completed(300),
        ])
        let res = scheduler.start { xs.enumerated().map { Indexed(index: $0.index, element: $0.element) } }
        #expect(res.events == [
            .next(210, Indexed(index: 0, element: "a")),
            .next(220, Indexed(index: 1, element: "b")),
            .next(280, Indexed(index: 2, element: "c")),
            .completed(300),
        ])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func eachSubscriptionCountsFromZero() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, "a"), .next(20, "b"), .completed(30)])
        let indices = xs.enumerated().map { $0.index }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = indices.subscribe(first) }
        scheduler.scheduleAt(215) { _ = indices.subscribe(second) }
        scheduler.start()
        #expect(first.events == [.next(210, 0), .next(220, 1), .completed(230)])
        #expect(second.events == [.next(225, 0), .next(235, 1), .completed(245)])
    }

    @Test func passesSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .error(220, testError)])
        let res = scheduler.start { xs.enumerated().map { $0.index } }
        #expect(res.events == [.next(210, 0), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(260, "b"), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.enumerated().map { $0.index } }
        #expect(res.events == [.next(210, 0)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}
