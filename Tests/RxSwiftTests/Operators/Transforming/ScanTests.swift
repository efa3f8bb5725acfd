import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("scan", .rxLeakCheck)
struct ScanTests {
    @Test func seedOnlyNeverEmits() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.scan(42) { $0 + $1 } }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptyCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.scan(42) { $0 + $1 } }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func emitsEveryIntermediateState() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .next(230, 4),
            .next(240, 5),
            .completed(250),
        ])
        let res = scheduler.start { xs.scan(42) { $0 + $1 } }
        #expect(res.events == [
            .next(210, 42 + 2),
            .next(220, 42 + 2 + 3),
            .next(230, 42 + 2 + 3 + 4),
            .next(240, 42 + 2 + 3 + 4 + 5),
            .completed(250),
        ])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func intoMutatesStateInPlace() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, "a"),
            .next(20, "b"),
            .next(30, "c"),
            .completed(40),
        ])
        let res = scheduler.start { xs.scan(into: [String]()) { $0.append($1) }.map { $0.joined() } }
        #expect(res.events == [.next(210, "a"), .next(220, "ab"), .next(230, "abc"), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }

    @Test func eachSubscriptionStartsFromSeed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let scanned = xs.scan(into: 0) { $0 += $1 }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { _ = scanned.subscribe(first) }
        scheduler.scheduleAt(200) { _ = scanned.subscribe(second) }
        scheduler.start()
        #expect(first.events == [.next(110, 1), .next(120, 3), .completed(130)])
        #expect(second.events == [.next(210, 1), .next(220, 3), .completed(230)])
        #expect(xs.subscriptions == [Subscription(100, 130), Subscription(200, 230)])
    }

    @Test func passesSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 2),
            .next(220, 3),
            .error(225, testError),
            .next(230, 4),
        ])
        let res = scheduler.start { xs.scan(42) { $0 + $1 } }
        #expect(res.events == [.next(210, 44), .next(220, 47), .error(225, testError)])
        #expect(xs.subscriptions == [Subscription(200, 225)])
    }

    @Test func throwingAccumulatorEndsSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 2),
            .next(220, 3),
            .next(230, 4),
            .completed(250),
        ])
        let res = scheduler.start {
            xs.scan(42) { state, element in
                if element == 4 { throw testError }
                return state + element
            }
        }
        #expect(res.events == [.next(210, 44), .next(220, 47), .error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func throwingIntoAccumulatorEndsSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start {
            xs.scan(into: 0) { state, element in
                if element == 3 { throw testError }
                state += element
            }
        }
        #expect(res.events == [.next(210, 2), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.scan(0, accumulator: +) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    /// The counter example's presenter: taps at 100, 200 and 300 counted
    /// by `scan`, subscribed at 0 with `scheduleAt`.
    @Test func presenterCountsTaps() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([next(100, ()), next(200, ()), next(300, ())])
        let count = taps.asObservable().scan(0) { previousValue, _ in previousValue + 1 }
        let results = scheduler.createObserver(Int.self)
        var bag = DisposeBag()
        scheduler.scheduleAt(0) { count.subscribe(results).disposed(by: bag) }
        scheduler.start()
        #expect(results.events == [next(100, 1), next(200, 2), next(300, 3)])
        bag = DisposeBag()
        #expect(taps.subscriptions == [Subscription(0, 300)])
    }
}
