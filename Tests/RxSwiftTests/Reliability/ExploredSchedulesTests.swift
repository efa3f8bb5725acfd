import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

/// Races that RxSwift users met in released versions, run under the schedule explorer:
/// every order of the threads' steps that the strategy reaches, not the few a stress test
/// happens to hit. Each one fails with the schedule and its steps when an order breaks it.
@Suite struct ExploredSchedulesTests {
    /// Counts subscriptions to a source and the disposals of them, from any thread.
    private final class SubscriptionCount: @unchecked Sendable {
        let counts = LockedState((subscribed: 0, disposed: 0))

        func source<Element: Sendable>(_ elements: [Element]) -> Observable<Element> {
            Observable.create { observer in
                self.counts.withLock { $0.subscribed += 1 }
                for element in elements { observer.onNext(element) }
                return Disposables.create { self.counts.withLock { $0.disposed += 1 } }
            }
        }
    }

    @Test func shareConnectsOnceWhenTheFirstSubscribersRace() {
        exploreSchedules(.pct(depth: 3, seed: 2718), schedules: 150) { run in
            let count = SubscriptionCount()
            let shared = count.source([1]).concat(Observable.never()).share()
            let first = run.observer("first", of: Int.self)
            let second = run.observer("second", of: Int.self)
            run.thread("first subscriber") { _ = shared.subscribe(first) }
            run.thread("second subscriber") { _ = shared.subscribe(second) }
            run.check {
                let subscribed = count.counts.current.subscribed
                guard subscribed == 1 else { throw ExploredMismatch("the source was subscribed \(subscribed) times") }
            }
        }
    }

    @Test func replaySubjectGivesARacingSubscriberEveryElementOnce() {
        exploreSchedules(.pct(depth: 3, seed: 2653), schedules: 150) { run in
            let subject = ReplaySubject<Int>.create(bufferSize: 2)
            let observer = run.observer("late", of: Int.self)
            run.thread("producer") {
                subject.onNext(1)
                subject.onNext(2)
            }
            run.thread("subscriber") { _ = subject.subscribe(observer) }
            run.check {
                let elements = observer.elements
                guard elements == [1, 2] else { throw ExploredMismatch("the subscriber received \(elements)") }
            }
        }
    }

    @Test func combineLatestFromTwoThreadsEndsWithBothLatestValues() {
        exploreSchedules(.pct(depth: 3, seed: 2698), schedules: 150) { run in
            let left = PublishSubject<Int>()
            let right = PublishSubject<Int>()
            let observer = run.observer("combined", of: [Int].self)
            _ = Observable.combineLatest(left, right) { [$0, $1] }.subscribe(observer)
            run.thread("left") {
                left.onNext(1)
                left.onCompleted()
            }
            run.thread("right") {
                right.onNext(2)
                right.onCompleted()
            }
            run.check {
                let events = observer.events
                guard observer.elements == [[1, 2]], events.last?.isCompleted == true else {
                    throw ExploredMismatch("combineLatest delivered \(events)")
                }
            }
        }
    }

    @Test func refCountDisposesTheSourceOnceItsLastSubscriberLeaves() {
        exploreSchedules(.pct(depth: 3, seed: 2713), schedules: 150) { run in
            let count = SubscriptionCount()
            let shared = count.source([1]).concat(Observable.never()).publish().refCount()
            for name in ["one", "two"] {
                run.thread(name) {
                    let subscription = shared.subscribe { _ in }
                    subscription.dispose()
                }
            }
            run.check {
                let counts = count.counts.current
                guard counts.subscribed >= 1, counts.subscribed == counts.disposed else {
                    throw ExploredMismatch("the source was subscribed \(counts.subscribed) times and disposed \(counts.disposed) times")
                }
            }
        }
    }
}

/// RxSwift's reported lock inversions, each between a lock of the user's code and an
/// operator that called out under its own lock, explored instead of forced with signals.
@Suite struct ExploredLockInversionTests {
    /// RxSwift issue 2653: a replay into `take(1)` whose observer takes the user's lock,
    /// while another thread holding that lock disposes a subscription to the same share.
    @Test func shareReplayDoesNotHoldItsLockWhileReplaying() {
        exploreSchedules(.pct(depth: 3, seed: 2653), schedules: 150) { run in
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
            run.check {
                guard combined.elements == [11] else { throw ExploredMismatch("combined \(combined.elements)") }
            }
        }
    }

    /// RxSwift issue 2698: a connection disposed its source subscription under the
    /// connectable's lock, while a thread holding the user's lock subscribed to it.
    @Test func publishDisposesItsConnectionOutsideItsLock() {
        exploreSchedules(.pct(depth: 3, seed: 2698), schedules: 150) { run in
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
        }
    }

    /// RxSwift issue 2713: a replay buffer replayed under its lock, so a thread emitting
    /// while holding the user's lock waited for an observer that, replaying, wanted it.
    @Test func replayBufferReplaysWhileAnotherThreadEmits() {
        exploreSchedules(.pct(depth: 3, seed: 2713), schedules: 150) { run in
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
            run.check {
                // Subscribed before the emitter: the buffer [1, 2], then 3; after it: [2, 3].
                guard [[1, 2, 3], [2, 3]].contains(observer.elements) else {
                    throw ExploredMismatch("replayed \(observer.elements)")
                }
            }
        }
    }
}

/// What a check of an explored test found, in words: a type of its own because the
/// explorer reports the thrown error's description, which must be the mismatch itself.
struct ExploredMismatch: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
