import RivuletTestSupport
import RxSwift
import RxTest

/// Races that RxSwift users met in released versions (issues 2653, 2698, 2713, 2718):
/// every order of the threads' steps that the strategy reaches, not the few a stress test
/// happens to hit. The last three are lock inversions between a lock of the user's code
/// and an operator that called out under its own lock.
enum RxSwiftIssueScenarios {
    static let all: [ExplorationScenario] = [
        // RxSwift issue 2718: share() checked for a connection and made one in two steps.
        ExplorationScenario("share", "the first two subscribers (RxSwift 2718)", seed: 2718) { run in
            let tally = SubscriptionTally()
            let shared = tally.source(1).share()
            _ = run.observeLater(shared, as: "first", subscribedBy: "first subscriber")
            _ = run.observeLater(shared, as: "second", subscribedBy: "second subscriber")
            tally.expect(in: run, "the shared source") { subscribed, _ in subscribed == 1 }
        },
        ExplorationScenario("ReplaySubject", "two elements against a subscriber (RxSwift 2653)", seed: 2653) { run in
            let subject = ReplaySubject<Int>.create(bufferSize: 2)
            run.thread("producer", sends: "1 2", to: subject)
            run.expectEvents(run.observeLater(subject), among: "1 2")
        },
        ExplorationScenario("combineLatest", "two sources completing on two threads (RxSwift 2698)", seed: 2698) { run in
            let (observer, _, _) = run.observe(as: "combined", left: "1 |", right: "2 |") { left, right in
                Observable.combineLatest(left, right) { [$0, $1] }
            }
            run.expectEvents(observer, among: "[1, 2] |")
        },
        ExplorationScenario("refCount", "the last two subscribers leaving (RxSwift 2713)", seed: 2713) { run in
            let tally = SubscriptionTally()
            let shared = tally.source(1).publish().refCount()
            for name in ["one", "two"] {
                run.thread(name) {
                    let subscription = shared.subscribe { _ in }
                    subscription.dispose()
                }
            }
            tally.expect(in: run, "the source") { subscribed, disposed in subscribed >= 1 && subscribed == disposed }
        },
        // RxSwift issue 2653: a replay into `take(1)` whose observer takes the user's lock,
        // while another thread holding that lock disposes a subscription to the same share.
        ExplorationScenario("share(replay:)", "a replay under a user's lock against a dispose holding it (RxSwift 2653)", seed: 2653) { run in
            let left = BehaviorSubject(value: 1).share(replay: 1)
            let right = BehaviorSubject(value: 10).share(replay: 1)
            _ = left.subscribe { _ in }
            _ = right.subscribe { _ in }
            let combinerSubscription = UnsafeTransfer(left.subscribe { _ in })
            let combinerLock = ExplorableLock()
            let combined = run.observer("combined", of: Int.self)
            run.thread("disposer") {
                combinerLock.withLock { combinerSubscription.value.dispose() }
            }
            run.thread("combiner") {
                _ = left.take(1).subscribe(onNext: { x in
                    combinerLock.withLock {
                        _ = right.take(1).subscribe(onNext: { y in combined.onNext(x + y) })
                    }
                })
            }
            run.expectEvents(combined, among: "11")
        },
        // RxSwift issue 2698: a connection disposed its source subscription under the
        // connectable's lock, while a thread holding the user's lock subscribed to it.
        ExplorationScenario("publish", "disposing the connection against a subscriber holding a user's lock (RxSwift 2698)", seed: 2698) { run in
            let foreign = ExplorableLock()
            let source = Observable<Int>.create { _ in
                Disposables.create { foreign.withLock {} }
            }
            let connectable = source.publish()
            let connection = UnsafeTransfer(connectable.connect())
            let observer = run.observer("late", of: Int.self)
            run.thread("holder") {
                foreign.withLock { _ = connectable.subscribe(observer) }
            }
            run.thread("disposer") { connection.value.dispose() }
        },
        // RxSwift issue 2713: a replay buffer replayed under its lock, so a thread emitting
        // while holding the user's lock waited for an observer that, replaying, wanted it.
        ExplorationScenario("share(replay:)", "a replay taking a user's lock against an emitter holding it (RxSwift 2713)", seed: 2713) { run in
            let subject = PublishSubject<Int>()
            let shared = subject.share(replay: 2)
            _ = shared.subscribe { _ in }
            subject.onNext(1)
            subject.onNext(2)
            let foreign = ExplorableLock()
            let observer = run.observer("replayed", of: Int.self)
            run.thread("subscriber") {
                _ = shared.subscribe(AnyObserver<Int> { event in
                    if event.element == 1 { foreign.withLock {} }
                    observer.on(event)
                })
            }
            run.thread("emitter") {
                foreign.withLock { subject.onNext(3) }
            }
            // Subscribed before the emitter: the buffer [1, 2], then 3; after it: [2, 3].
            run.expectEvents(observer, among: "1 2 3", "2 3")
        },
    ]
}
