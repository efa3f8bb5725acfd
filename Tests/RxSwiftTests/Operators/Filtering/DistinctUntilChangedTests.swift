import RivuletTestSupport
import RxSwift
import RxTest
import Testing

private struct Item: Equatable {
    let name: String
    let group: Int
}

@Suite("distinctUntilChanged", .rxLeakCheck)
struct DistinctUntilChangedTests {
    @Test func dropsConsecutiveDuplicates() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(215, 3),
            .next(220, 3),
            .next(225, 2),
            .next(230, 2),
            .next(230, 1),
            .next(240, 2),
            .completed(250),
        ])
        let res = scheduler.start { xs.distinctUntilChanged() }
        #expect(res.events == [
            .next(210, 2), .next(215, 3), .next(225, 2), .next(230, 1), .next(240, 2), .completed(250),
        ])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func allSameGivesFirstOnly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(10, 2), .next(20, 2), .next(30, 2), .next(40, 2), .completed(50),
        ])
        let res = scheduler.start { xs.distinctUntilChanged() }
        #expect(res.events == [.next(210, 2), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func keySelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 2), .next(220, 4), .next(230, 3), .next(240, 5), .next(245, 6), .completed(250),
        ])
        let res = scheduler.start { xs.distinctUntilChanged { $0 % 2 } }
        #expect(res.events == [.next(210, 2), .next(230, 3), .next(245, 6), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func optionalKeysCompareNilAsAValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, "a"), .next(220, "1"), .next(230, "b"), .next(240, "2"), .next(245, "3"), .completed(250),
        ])
        let res = scheduler.start { xs.distinctUntilChanged { Int($0) == nil ? nil : 0 } }
        #expect(res.events == [.next(210, "a"), .next(220, "1"), .next(230, "b"), .next(240, "2"), .completed(250)])
    }

    @Test func comparer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 10), .next(240, 12), .completed(250),
        ])
        // Equal when within 5 of the last element passed on.
        let res = scheduler.start { xs.distinctUntilChanged { abs($0 - $1) <= 5 } }
        #expect(res.events == [.next(210, 1), .next(230, 10), .completed(250)])
    }

    @Test func keySelectorAndComparer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, "ab"), .next(220, "AB"), .next(230, "cd"), .next(240, "Cd"), .completed(250),
        ])
        let res = scheduler.start {
            xs.distinctUntilChanged({ $0.lowercased() }, comparer: { $0 == $1 })
        }
        #expect(res.events == [.next(210, "ab"), .next(230, "cd"), .completed(250)])
    }

    @Test func keyPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Item(name: "a", group: 1)),
            .next(220, Item(name: "b", group: 1)),
            .next(230, Item(name: "c", group: 2)),
            .next(240, Item(name: "d", group: 1)),
            .completed(250),
        ])
        let res = scheduler.start { xs.distinctUntilChanged(at: \.group) }
        #expect(res.events == [
            .next(210, Item(name: "a", group: 1)),
            .next(230, Item(name: "c", group: 2)),
            .next(240, Item(name: "d", group: 1)),
            .completed(250),
        ])
    }

    @Test func throwingKeySelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start {
            xs.distinctUntilChanged { (value: Int) -> Int in
                if value == 3 { throw testError }
                return value
            }
        }
        #expect(res.events == [.next(210, 2), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func throwingComparerIsNotCalledForFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged { (_: Int, _: Int) -> Bool in throw testError } }
        #expect(res.events == [.next(210, 2), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func passesSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(215, 2), .error(220, testError)])
        let res = scheduler.start { xs.distinctUntilChanged() }
        #expect(res.events == [.next(210, 2), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 3), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.distinctUntilChanged() }
        #expect(res.events == [.next(210, 2)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}
