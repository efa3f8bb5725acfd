import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("take(while:) and take(until: predicate)", .rxLeakCheck)
struct TakeWhileTests {
    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(90, -1), .next(110, -1), .next(205, 100), .next(210, 2), .next(260, 5), .next(290, 13),
            .next(320, 3), .next(350, 7), .next(390, 4), .next(410, 17), .next(450, 8), .next(500, 23),
            .completed(600),
        ])
    }

    @Test func completesAtFirstFailingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var invoked = 0
        let res = scheduler.start {
            xs.take(while: { value in
                invoked += 1
                return value >= 2 && value != 13
            })
        }
        #expect(res.events == [.next(205, 100), .next(210, 2), .next(260, 5), .completed(290)])
        #expect(xs.subscriptions == [Subscription(200, 290)])
        #expect(invoked == 4)
    }

    @Test func inclusivePassesTheFailingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.take(while: { $0 != 13 }, behavior: .inclusive) }
        #expect(res.events == [.next(205, 100), .next(210, 2), .next(260, 5), .next(290, 13), .completed(290)])
        #expect(xs.subscriptions == [Subscription(200, 290)])
    }

    @Test func alwaysTrueTakesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let res = scheduler.start { xs.take(while: { _ in true }) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func throwingPredicate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start {
            xs.take(while: { value in
                if value == 5 { throw testError }
                return true
            })
        }
        #expect(res.events == [.next(205, 100), .next(210, 2), .error(260, testError)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
    }

    @Test func passesSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, testError)])
        let res = scheduler.start { xs.take(while: { _ in true }) }
        #expect(res.events == [.next(210, 2), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start(disposed: 250) { xs.take(while: { _ in true }) }
        #expect(res.events == [.next(205, 100), .next(210, 2)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    private func untilSource(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
        ])
    }

    @Test(arguments: [TakeBehavior.exclusive, .inclusive])
    func untilPredicateSomeData(behavior: TakeBehavior) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = untilSource(scheduler)
        let res = scheduler.start { xs.take(until: { $0 == 4 }, behavior: behavior) }
        let expectedNexts: [Recorded<Event<Int>>] = behavior == .inclusive
            ? [.next(210, 2), .next(220, 3), .next(230, 4)]
            : [.next(210, 2), .next(220, 3)]
        #expect(res.events == expectedNexts + [.completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func untilPredicateDefaultsToExclusive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = untilSource(scheduler)
        let res = scheduler.start { xs.take(until: { $0 == 4 }) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(230)])
    }

    @Test(arguments: [TakeBehavior.exclusive, .inclusive])
    func untilPredicateError(behavior: TakeBehavior) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .error(225, testError)])
        let res = scheduler.start { xs.take(until: { $0 == 4 }, behavior: behavior) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .error(225, testError)])
        #expect(xs.subscriptions == [Subscription(200, 225)])
    }

    @Test(arguments: [TakeBehavior.exclusive, .inclusive])
    func untilPredicateAlwaysFalse(behavior: TakeBehavior) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = untilSource(scheduler)
        let res = scheduler.start { xs.take(until: { _ in false }, behavior: behavior) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test(arguments: [TakeBehavior.exclusive, .inclusive])
    func untilPredicateImmediatelyTrue(behavior: TakeBehavior) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = untilSource(scheduler)
        let res = scheduler.start { xs.take(until: { _ in true }, behavior: behavior) }
        let expected: [Recorded<Event<Int>>] = behavior == .inclusive
            ? [.next(210, 2), .completed(210)]
            : [.completed(210)]
        #expect(res.events == expected)
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func untilPredicateThrowing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = untilSource(scheduler)
        let res = scheduler.start {
            xs.take(until: { value in
                if value == 3 { throw testError }
                return false
            })
        }
        #expect(res.events == [.next(210, 2), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }
}

@Suite("take(until: other)", .rxLeakCheck)
struct TakeUntilOtherTests {
    private func someData(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
        ])
    }

    @Test func preemptedByOtherElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = someData(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .next(225, 99), .completed(230)])
        let res = scheduler.start { l.take(until: r) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(225)])
        #expect(l.subscriptions == [Subscription(200, 225)])
        #expect(r.subscriptions == [Subscription(200, 225)])
    }

    @Test func preemptedByOtherError() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = someData(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .error(225, testError)])
        let res = scheduler.start { l.take(until: r) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .error(225, testError)])
        #expect(l.subscriptions == [Subscription(200, 225)])
        #expect(r.subscriptions == [Subscription(200, 225)])
    }

    @Test func otherCompletingIsIgnored() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = someData(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .completed(225)])
        let res = scheduler.start { l.take(until: r) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250)])
        #expect(l.subscriptions == [Subscription(200, 250)])
        #expect(r.subscriptions == [Subscription(200, 225)])
    }

    @Test func otherNeverEmitting() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = someData(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { l.take(until: r) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250)])
        #expect(l.subscriptions == [Subscription(200, 250)])
        #expect(r.subscriptions == [Subscription(200, 250)])
    }

    @Test func neverSourcePreempted() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1)])
        let r = scheduler.createHotObservable([.next(150, 1), .next(225, 2), .completed(250)])
        let res = scheduler.start { l.take(until: r) }
        #expect(res.events == [.completed(225)])
        #expect(l.subscriptions == [Subscription(200, 225)])
        #expect(r.subscriptions == [Subscription(200, 225)])
    }

    @Test func neverSourceOtherEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1)])
        let r = scheduler.createHotObservable([.next(150, 1), .completed(225)])
        let res = scheduler.start { l.take(until: r) }
        #expect(res.events == [])
        #expect(l.subscriptions == [Subscription(200, 1000)])
        #expect(r.subscriptions == [Subscription(200, 225)])
    }

    @Test func preemptedBeforeFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1), .next(230, 2), .completed(240)])
        let r = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(220)])
        let res = scheduler.start { l.take(until: r) }
        #expect(res.events == [.completed(210)])
        #expect(l.subscriptions == [Subscription(200, 210)])
        #expect(r.subscriptions == [Subscription(200, 210)])
    }

    @Test func sourceErrorEndsBothSubscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1), .error(225, testError)])
        let r = scheduler.createHotObservable([.next(150, 1), .next(240, 2)])
        let res = scheduler.start { l.take(until: r) }
        #expect(res.events == [.error(225, testError)])
        #expect(l.subscriptions == [Subscription(200, 225)])
        #expect(r.subscriptions == [Subscription(200, 225)])
    }

    @Test func coldSourceAndTrigger() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3), .completed(40)])
        let r = scheduler.createColdObservable([.next(25, "stop")])
        let res = scheduler.start { l.take(until: r) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(225)])
        #expect(l.subscriptions == [Subscription(200, 225)])
        #expect(r.subscriptions == [Subscription(200, 225)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = someData(scheduler)
        let r = scheduler.createHotObservable([.next(300, 1)])
        let res = scheduler.start(disposed: 235) { l.take(until: r) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(230, 4)])
        #expect(l.subscriptions == [Subscription(200, 235)])
        #expect(r.subscriptions == [Subscription(200, 235)])
    }

    @Test func triggerFiringDuringSubscriptionKeepsSourceSilent() {
        var sourceSubscribed = 0
        var sourceDisposed = 0
        let source = Observable<Int>.create { observer in
            sourceSubscribed += 1
            observer.onNext(1)
            return Disposables.create { sourceDisposed += 1 }
        }
        var events: [Event<Int>] = []
        _ = source.take(until: Observable.just(())).subscribe { events.append($0) }
        #expect(events == [.completed])
        // As in RxSwift the source is still subscribed, and disposed at once.
        #expect(sourceSubscribed == 1)
        #expect(sourceDisposed == 1)
    }

    @Test func observerTriggeringReentrantlyDoesNotDeadlock() {
        let outcome = runBounded(seconds: 10) { () -> (events: [Event<Int>], triggerObserved: Bool, sourceObserved: Bool) in
            let source = PublishSubject<Int>()
            let trigger = PublishSubject<Void>()
            var events: [Event<Int>] = []
            let subscription = source.take(until: trigger).subscribe { event in
                events.append(event)
                if case .next(2) = event {
                    trigger.onNext(())
                    // The completion the trigger causes arrives once this delivery returns.
                    events.append(.next(-1))
                }
            }
            source.onNext(1)
            source.onNext(2)
            source.onNext(3)
            defer { subscription.dispose() }
            return (events, trigger.hasObservers, source.hasObservers)
        }
        guard let outcome else {
            Issue.record("take(until:) deadlocked when the trigger fired from inside a delivery")
            return
        }
        #expect(outcome.events == [.next(1), .next(2), .next(-1), .completed])
        #expect(!outcome.triggerObserved)
        #expect(!outcome.sourceObserved)
    }

    @Test func concurrentSourceAndTriggerKeepTheGrammar() {
        let problems = runBounded(seconds: 60) { () -> [String] in
            var problems: [String] = []
            for round in 0..<200 {
                let source = PublishSubject<Int>()
                let trigger = PublishSubject<Int>()
                let recorder = GrammarCheckingObserver<Int>()
                let subscription = source.take(until: trigger).subscribe(recorder)
                DispatchQueue.concurrentPerform(iterations: 3) { lane in
                    switch lane {
                    case 0:
                        for value in 0..<300 { source.onNext(value) }
                        source.onCompleted()
                    case 1:
                        for _ in 0..<(round % 7) * 50 { _ = trigger.hasObservers }
                        trigger.onNext(round)
                    default:
                        for _ in 0..<(round % 5) * 60 { _ = trigger.hasObservers }
                        trigger.onError(testError)
                    }
                }
                let summary = recorder.snapshot
                if summary.overlaps != 0 { problems.append("round \(round): \(summary.overlaps) overlapping deliveries") }
                if summary.terminals != 1 { problems.append("round \(round): \(summary.terminals) terminal events") }
                if summary.afterTerminal != 0 { problems.append("round \(round): events after the terminal event") }
                if summary.elements != Array(0..<summary.elements.count) { problems.append("round \(round): elements out of order") }
                subscription.dispose()
            }
            return problems
        }
        #expect(problems == [], "concurrent take(until:) broke the grammar or did not finish in time")
    }
}
