import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("withUnretained", .rxLeakCheck)
struct WithUnretainedTests {
    @Test func combinesObjectWithElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner(name: "o")
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .next(210, 1),
            .next(220, 2),
            .completed(300),
        ])
        let res = scheduler.start { xs.withUnretained(owner) { "\($0.name)\($1)" } }
        #expect(res.events == [.next(210, "o1"), .next(220, "o2"), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(owner.name == "o")
    }

    @Test func tupleFormPairsObjectAndElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner(name: "o")
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.withUnretained(owner).map { pair in pair.0 === owner ? pair.1 : -1 } }
        #expect(res.events == [.next(210, 1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func completesOnFirstElementAfterObjectIsReleased() {
        let scheduler = TestScheduler(initialClock: 0)
        var owner: Owner? = Owner(name: "o")
        weak let weakOwner = owner
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .next(240, 3),
            .next(250, 4),
            .completed(300),
        ])
        let unretained = xs.withUnretained(owner!) { "\($0.name)\($1)" }
        let res = scheduler.createObserver(String.self)
        scheduler.scheduleAt(200) { _ = unretained.subscribe(res) }
        scheduler.scheduleAt(230) { owner = nil }
        scheduler.start()
        #expect(weakOwner == nil)
        #expect(res.events == [.next(210, "o1"), .next(220, "o2"), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }

    @Test func passesSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner(name: "o")
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.withUnretained(owner) { $1 } }
        #expect(res.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner(name: "o")
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.withUnretained(owner) { $1 } }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func releasingTheObjectFromADownstreamActionCompletesAtTheNextElement() {
        let scheduler = TestScheduler(initialClock: 0)
        var owner: Owner? = Owner(name: "o")
        let xs = scheduler.createColdObservable([
            .next(210, 1), .next(215, 2), .next(220, 3), .next(225, 5), .next(230, 8), .completed(250),
        ])
        let res = scheduler.start {
            xs.withUnretained(owner!)
                .do(onNext: { _, value in
                    if value == 3 { owner = nil }
                })
                .map { "\($0.name), \($1)" }
        }
        #expect(owner == nil)
        #expect(res.events == [.next(410, "o, 1"), .next(415, "o, 2"), .next(420, "o, 3"), .completed(425)])
        #expect(xs.subscriptions == [Subscription(200, 425)])
    }
}
