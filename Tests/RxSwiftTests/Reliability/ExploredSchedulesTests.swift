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
                guard subscribed == 1 else { throw Mismatch("the source was subscribed \(subscribed) times") }
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
                guard elements == [1, 2] else { throw Mismatch("the subscriber received \(elements)") }
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
                    throw Mismatch("combineLatest delivered \(events)")
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
                    throw Mismatch("the source was subscribed \(counts.subscribed) times and disposed \(counts.disposed) times")
                }
            }
        }
    }

    /// What a check found, in words.
    private struct Mismatch: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
