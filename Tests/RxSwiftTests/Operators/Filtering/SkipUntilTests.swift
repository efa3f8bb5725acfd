import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("skip(until:)", .rxLeakCheck)
struct SkipUntilTests {
    private func someData(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
        ])
    }

    @Test func passesElementsAfterOtherEmits() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = someData(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .next(225, 99), .completed(230)])
        let res = scheduler.start { l.skip(until: r) }
        #expect(res.events == [.next(230, 4), .next(240, 5), .completed(250)])
        #expect(l.subscriptions == [Subscription(200, 250)])
        #expect(r.subscriptions == [Subscription(200, 225)])
    }

    @Test func otherErrorEndsSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = someData(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .error(225, testError)])
        let res = scheduler.start { l.skip(until: r) }
        #expect(res.events == [.error(225, testError)])
        #expect(l.subscriptions == [Subscription(200, 225)])
        #expect(r.subscriptions == [Subscription(200, 225)])
    }

    @Test func sourceErrorEndsSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .error(220, testError)])
        let r = scheduler.createHotObservable([.next(150, 1), .next(230, 2), .completed(250)])
        let res = scheduler.start { l.skip(until: r) }
        #expect(res.events == [.error(220, testError)])
        #expect(l.subscriptions == [Subscription(200, 220)])
        #expect(r.subscriptions == [Subscription(200, 220)])
    }

    @Test func otherCompletingWithoutElementKeepsSkipping() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = someData(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .completed(225)])
        let res = scheduler.start { l.skip(until: r) }
        // As in RxSwift, the source's completion is not passed on while still skipping.
        #expect(res.events == [])
        #expect(l.subscriptions == [Subscription(200, 250)])
        #expect(r.subscriptions == [Subscription(200, 225)])
    }

    @Test func neverSourceWithOtherElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1)])
        let r = scheduler.createHotObservable([.next(150, 1), .next(225, 2), .completed(250)])
        let res = scheduler.start { l.skip(until: r) }
        #expect(res.events == [])
        #expect(l.subscriptions == [Subscription(200, 1000)])
        #expect(r.subscriptions == [Subscription(200, 225)])
    }

    @Test func neverSourceWithOtherError() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1)])
        let r = scheduler.createHotObservable([.next(150, 1), .error(225, testError)])
        let res = scheduler.start { l.skip(until: r) }
        #expect(res.events == [.error(225, testError)])
        #expect(l.subscriptions == [Subscription(200, 225)])
        #expect(r.subscriptions == [Subscription(200, 225)])
    }

    @Test func sourceCompletingFirstDisposesOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = someData(scheduler)
        let r = scheduler.createHotObservable([.next(150, 1), .error(300, testError)])
        let res = scheduler.start { l.skip(until: r) }
        #expect(res.events == [])
        #expect(l.subscriptions == [Subscription(200, 250)])
        #expect(r.subscriptions == [Subscription(200, 250)])
    }

    @Test func neverAndNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createHotObservable([.next(150, 1)])
        let r = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { l.skip(until: r) }
        #expect(res.events == [])
        #expect(l.subscriptions == [Subscription(200, 1000)])
        #expect(r.subscriptions == [Subscription(200, 1000)])
    }

    @Test func coldSourceAndTrigger() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3), .completed(40)])
        let r = scheduler.createColdObservable([.next(15, "go")])
        let res = scheduler.start { l.skip(until: r) }
        #expect(res.events == [.next(220, 2), .next(230, 3), .completed(240)])
        #expect(l.subscriptions == [Subscription(200, 240)])
        #expect(r.subscriptions == [Subscription(200, 215)])
    }

    @Test func disposalBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let l = someData(scheduler)
        let r = scheduler.createHotObservable([.next(215, 1)])
        let res = scheduler.start(disposed: 235) { l.skip(until: r) }
        #expect(res.events == [.next(220, 3), .next(230, 4)])
        #expect(l.subscriptions == [Subscription(200, 235)])
        #expect(r.subscriptions == [Subscription(200, 215)])
    }

    @Test func concurrentSourceAndTriggerKeepTheGrammar() {
        let problems = runBounded(seconds: 60) { () -> [String] in
            var problems: [String] = []
            for round in 0..<200 {
                let source = PublishSubject<Int>()
                let trigger = PublishSubject<Int>()
                let recorder = GrammarCheckingObserver<Int>()
                let subscription = source.skip(until: trigger).subscribe(recorder)
                DispatchQueue.concurrentPerform(iterations: 3) { lane in
                    switch lane {
                    case 0:
                        // Ends with an error, so that every round has exactly one terminal
                        // event whether or not the trigger opened the gate or failed first.
                        for value in 0..<300 { source.onNext(value) }
                        source.onError(testError)
                    case 1:
                        for _ in 0..<(round % 7) * 40 { _ = trigger.hasObservers }
                        trigger.onNext(round)
                    default:
                        for _ in 0..<(round % 5) * 80 { _ = trigger.hasObservers }
                        trigger.onError(testError)
                    }
                }
                let summary = recorder.snapshot
                if summary.overlaps != 0 { problems.append("round \(round): \(summary.overlaps) overlapping deliveries") }
                if summary.terminals != 1 { problems.append("round \(round): \(summary.terminals) terminal events") }
                if summary.afterTerminal != 0 { problems.append("round \(round): events after the terminal event") }
                // Whatever got through is a contiguous run of the source.
                if let first = summary.elements.first, summary.elements != Array(first..<(first + summary.elements.count)) {
                    problems.append("round \(round): gaps in the elements")
                }
                subscription.dispose()
            }
            return problems
        }
        #expect(problems == [], "concurrent skip(until:) broke the grammar or did not finish in time")
    }
}
