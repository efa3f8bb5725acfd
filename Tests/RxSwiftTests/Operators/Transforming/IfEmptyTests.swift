import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("ifEmpty(default:)", .rxLeakCheck)
struct DefaultIfEmptyTests {
    @Test func emptySourceGetsDefault() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(201, Int.self)])
        let res = scheduler.start { xs.ifEmpty(default: 11) }
        #expect(res.events == [.next(201, 11), .completed(201)])
        #expect(xs.subscriptions == [Subscription(200, 201)])
    }

    @Test func nonEmptySourceUnchanged() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 42), .next(20, 43), .completed(30)])
        let res = scheduler.start { xs.ifEmpty(default: 11) }
        #expect(res.events == [.next(210, 42), .next(220, 43), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func errorIsPassedWithoutDefault() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(201, testError, Int.self)])
        let res = scheduler.start { xs.ifEmpty(default: 11) }
        #expect(res.events == [.error(201, testError)])
        #expect(xs.subscriptions == [Subscription(200, 201)])
    }

    @Test func neverNeverEmits() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.ifEmpty(default: 11) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(300, Int.self)])
        let res = scheduler.start(disposed: 250) { xs.ifEmpty(default: 11) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}

@Suite("ifEmpty(switchTo:)", .rxLeakCheck)
struct SwitchIfEmptyTests {
    private func fallback(_ scheduler: TestScheduler, failing: Bool = false) -> TestableObservable<Int> {
        scheduler.createColdObservable([
            .next(10, 0), .next(20, 1), .next(30, 2), .next(40, 3),
            failing ? .error(50, testError) : .completed(50),
        ])
    }

    @Test func nonEmptySourceNeverSwitches() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(205, 1), .completed(210, Int.self)])
        let other = fallback(scheduler)
        let res = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
        #expect(res.events == [.next(205, 1), .completed(210)])
        #expect(source.subscriptions == [Subscription(200, 210)])
        #expect(other.subscriptions == [])
    }

    @Test func nonEmptySourceErrorNeverSwitches() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(205, 1), .error(210, testError)])
        let other = fallback(scheduler)
        let res = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
        #expect(res.events == [.next(205, 1), .error(210, testError)])
        #expect(source.subscriptions == [Subscription(200, 210)])
        #expect(other.subscriptions == [])
    }

    @Test func emptySourceErrorNeverSwitches() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.error(210, testError, Int.self)])
        let other = fallback(scheduler)
        let res = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
        #expect(res.events == [.error(210, testError)])
        #expect(source.subscriptions == [Subscription(200, 210)])
        #expect(other.subscriptions == [])
    }

    @Test func emptySourceSwitches() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.completed(210, Int.self)])
        let other = fallback(scheduler)
        let res = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
        #expect(res.events == [.next(220, 0), .next(230, 1), .next(240, 2), .next(250, 3), .completed(260)])
        #expect(source.subscriptions == [Subscription(200, 210)])
        #expect(other.subscriptions == [Subscription(210, 260)])
    }

    @Test func emptySourceSwitchesToFailingFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.completed(210, Int.self)])
        let other = fallback(scheduler, failing: true)
        let res = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
        #expect(res.events == [.next(220, 0), .next(230, 1), .next(240, 2), .next(250, 3), .error(260, testError)])
        #expect(source.subscriptions == [Subscription(200, 210)])
        #expect(other.subscriptions == [Subscription(210, 260)])
    }

    @Test func neverSourceNeverSwitches() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(0, 0)])
        let other = fallback(scheduler)
        let res = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
        #expect(res.events == [])
        #expect(source.subscriptions == [Subscription(200, 1000)])
        #expect(other.subscriptions == [])
    }

    @Test func disposalWhileOnFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.completed(210, Int.self)])
        let other = fallback(scheduler)
        let res = scheduler.start(disposed: 235) { source.ifEmpty(switchTo: other.asObservable()) }
        #expect(res.events == [.next(220, 0), .next(230, 1)])
        #expect(source.subscriptions == [Subscription(200, 210)])
        #expect(other.subscriptions == [Subscription(210, 235)])
    }

    @Test func synchronousEmptySourceSwitchesAtOnce() {
        var events: [Event<Int>] = []
        _ = Observable<Int>.empty().ifEmpty(switchTo: .of(1, 2)).subscribe { events.append($0) }
        #expect(events == [.next(1), .next(2), .completed])
    }
}
