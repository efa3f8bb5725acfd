import Foundation
import RivuletTestSupport
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
        ExplorationScenario("observe(on:) a concurrent queue", "two producers through merge", seed: 513) { run in
            // The queue runs work items in parallel: the sink's deliveries must still take
            // turns, in the order the elements came.
            let (observer, _, _) = run.observe(as: "observed", left: "1 2 |", right: "10 |") { left, right in
                Observable.merge(left, right).observe(on: ConcurrentDispatchQueueScheduler(qos: .default))
            }
            run.expectEvents(observer, among: spellings(interleavings([1, 2], [10])) { $0.map(String.init) + ["|"] })
            run.expectEverySubscriptionEnded()
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
        ExplorationScenario("scheduleRecursive on a concurrent queue", "each step against the keeping of its disposable", seed: 513) { run in
            let scheduler = WatchedScheduler(ConcurrentDispatchQueueScheduler(qos: .default))
            let steps = LockedBox(0)
            let recursion = UnsafeTransfer(scheduler.scheduleRecursive(0) { step, recurse in
                steps.mutate { $0 += 1 }
                if step < 2 { recurse(step + 1) }
            })
            run.expect({ steps.value == 3 }) { "the recursion ran \(steps.value) steps of 3" }
            // A step that ran is let go of: the recursion, still held, keeps only what is pending.
            scheduler.expectNothingHeld(in: run)
            run.check { withExtendedLifetime(recursion) {} }
        },
        // Random choices: a lost count needs one thread to stop between the load and the
        // store of its update exactly while another updates the count.
        ExplorationScenario(part: "observe(on:) a main scheduler of its own", race: "two producers through merge, then work from the main queue", strategy: .random(seed: 514), schedules: ExplorationScenario.fullRun) { run in
            let main = MainScheduler()
            let (observer, _, _) = run.observe(as: "observed", left: "1 |", right: "10 |") { left, right in
                Observable.merge(left, right).observe(on: main)
            }
            run.expectEvents(observer, among: "1 10 |", "10 1 |")
            run.expectEverySubscriptionEnded()
            // Every delivery ran: nothing of the scheduler is queued, so work scheduled
            // from the main queue runs at once.
            run.expect({ runsAtOnce(on: main) }) { "work scheduled from the main queue, with nothing queued, did not run at once" }
        },
        ExplorationScenario("subscribe(on:) a serial queue", "a source that ends as it is subscribed, against the upstream's setting", seed: 515) { run in
            let calls = CallCount()
            let observer = run.observe(EndingAtOnce(calls: calls).subscribe(on: serialQueue()), as: "subscribed")
            run.expectEvents(observer, among: "1 |")
            calls.expect(in: run, ["subscribe", "dispose"], calledTimes: 1)
            run.expectEverySubscriptionEnded()
        },
    ]

    /// Whether work `main` is given from the main queue runs at once, before `schedule`
    /// returns.
    private static func runsAtOnce(on main: MainScheduler) -> Bool {
        let check = {
            let ran = LockedBox(false)
            _ = main.schedule(()) { _ in
                ran.value = true
                return Disposables.create()
            }
            return ran.value
        }
        return isOnMainThread ? check() : DispatchQueue.main.sync(execute: check)
    }

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

/// A source that sends 1 and completes as it is subscribed, with no sink of its own:
/// its subscription ends only when disposed from downstream. Its calls are counted
/// (`subscribe`, `dispose`).
private struct EndingAtOnce: ObservableType, Sendable {
    typealias Element = Int
    let calls: CallCount

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
        calls.record("subscribe")
        observer.on(.next(1))
        observer.on(.completed)
        return calls.disposable("dispose")
    }
}
