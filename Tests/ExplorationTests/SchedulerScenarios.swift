import Foundation
import RxSwift
import RxTest

/// Hand-offs to schedulers: work queued on a serial queue, a concurrent queue or an
/// operation queue becomes threads of the run, racing the producer and a dispose.
enum SchedulerScenarios {
    static let all: [ExplorationScenario] = [
        ExplorationScenario("observe(on:) a serial queue", "two producers through merge", seed: 501) { run in
            let (observer, _, _) = run.observe(as: "observed", left: "1 2 |", right: "10 |") { left, right in
                Observable.merge(left, right).observe(on: serialQueue())
            }
            run.expectEvents(observer, among: spellings(interleavings([1, 2], [10])) { $0.map(String.init) + ["|"] })
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("observe(on:) a serial queue", "elements queued against dispose", seed: 502) { run in
            let source = PublishSubject<Int>()
            let observer = run.observe(source.observe(on: serialQueue()), as: "observed", disposedBy: "disposer")
            run.thread("producer", sends: "1 2 |", to: source)
            run.expectEvents(observer, among: "", "1", "1 2", "1 2 |")
            expectUnobserved(source, in: run)
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("observe(on:) a concurrent queue", "the elements of one producer, the subscription kept", seed: 511) { run in
            expectEveryElement(observedOn: ConcurrentDispatchQueueScheduler(qos: .default), keepingTheSubscription: true, in: run)
        },
        ExplorationScenario("observe(on:) a concurrent queue", "elements queued against dispose", depth: 2, seed: 504) { run in
            let source = PublishSubject<Int>()
            let observer = run.observe(source.observe(on: ConcurrentDispatchQueueScheduler(qos: .default)), as: "observed", disposedBy: "disposer")
            run.thread("producer", sends: "1 2", to: source)
            run.expectEvents(observer, among: "", "1", "1 2")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("observe(on:) an operation queue", "the elements of one producer, the subscription kept", seed: 512) { run in
            expectEveryElement(observedOn: OperationQueueScheduler(operationQueue: operationQueue(running: 2)), keepingTheSubscription: true, in: run)
        },
        ExplorationScenario("observe(on:) a serial operation queue", "two producers through merge against dispose", seed: 506) { run in
            let left = PublishSubject<Int>()
            let right = PublishSubject<Int>()
            let observed = Observable.merge(left, right).observe(on: OperationQueueScheduler(operationQueue: operationQueue(running: 1)))
            let observer = run.observe(observed, as: "observed", disposedBy: "disposer")
            run.thread("left", sends: "1", to: left)
            run.thread("right", sends: "2", to: right)
            run.expectEvents(observer, among: "", "1", "2", "1 2", "2 1")
            expectUnobserved(left, right, in: run)
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("subscribe(on:) a serial queue", "the scheduled subscription against dispose", depth: 2, seed: 507) { run in
            let tally = SubscriptionTally()
            let observer = run.observe(tally.source(1).subscribe(on: serialQueue()), as: "subscribed", disposedBy: "disposer")
            run.expectEvents(observer, among: "", "1")
            tally.expect(in: run, "the source") { subscribed, disposed in subscribed <= 1 && subscribed == disposed }
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("subscribe(on:) a concurrent queue", "two subscribers", seed: 508) { run in
            let tally = SubscriptionTally()
            let source = tally.counting(Observable.of(1, 2)).subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
            let observers = [run.observer("first", of: Int.self), run.observer("second", of: Int.self)]
            for observer in observers {
                run.thread("subscriber") { _ = source.subscribe(observer) }
                run.expectEvents(observer, among: "1 2 |")
            }
            tally.expect(in: run, "the source") { subscribed, disposed in subscribed == 2 && disposed == 2 }
        },
        ExplorationScenario("scheduleRecursive on a serial queue", "the recursion against dispose", seed: 509) { run in
            let observer = run.observe(Observable.range(start: 1, count: 3, scheduler: serialQueue()), as: "range", disposedBy: "disposer")
            run.expectEvents(observer, among: "", "1", "1 2", "1 2 3", "1 2 3 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("observe(on:) the main queue", "two producers through merge", seed: 510) { run in
            let (observer, _, _) = run.observe(as: "observed", left: "1 |", right: "10 |") { left, right in
                Observable.merge(left, right).observe(on: MainScheduler.asyncInstance)
            }
            run.expectEvents(observer, among: "1 10 |", "10 1 |")
            run.expectEverySubscriptionEnded()
        },
        // observe(on:) a concurrent or operation queue lost the events still queued
        // once the subscription was dropped and the source ended (fixed: the drain
        // holds its sink until it ran).
        ExplorationScenario("observe(on:) a concurrent queue", "the elements of one producer, the subscription dropped", seed: 503) { run in
            expectEveryElement(observedOn: ConcurrentDispatchQueueScheduler(qos: .default), keepingTheSubscription: false, in: run)
        },
        ExplorationScenario("observe(on:) an operation queue", "the elements of one producer, the subscription dropped", seed: 505) { run in
            expectEveryElement(observedOn: OperationQueueScheduler(operationQueue: operationQueue(running: 2)), keepingTheSubscription: false, in: run)
        },
    ]

    /// Sends 1, 2, 3 and completion from a producer thread through `observe(on:)`: every
    /// event arrives, in order. The subscription is held to the end of the run, or dropped
    /// at once (what `_ = ...subscribe` does).
    private static func expectEveryElement(observedOn scheduler: ImmediateSchedulerType, keepingTheSubscription keeps: Bool, in run: ScheduleRun) {
        let source = PublishSubject<Int>()
        let observer = run.observer("observed", of: Int.self)
        let subscription = UnsafeTransfer(source.observe(on: scheduler).subscribe(observer))
        if keeps {
            run.check { withExtendedLifetime(subscription) {} }
        }
        run.thread("producer", sends: "1 2 3 |", to: source)
        run.expectEvents(observer, among: "1 2 3 |")
        run.expectEverySubscriptionEnded()
    }

    /// An operation queue that runs `count` operations at a time.
    private static func operationQueue(running count: Int) -> OperationQueue {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = count
        return queue
    }
}
