import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import Testing
import RxTest

// Re-entrant use of subjects from their own observers: emitting into the subject,
// ending it, disposing and subscribing while an event is being delivered, directly and
// through map/filter chains. Rivulet's locks are not recursive, so any of these that ran
// observer code under a subject's or operator's lock would deadlock; each test runs its
// scenario on a separate thread with a bounded wait, so a deadlock fails instead of
// hanging.

/// The three subjects that take elements, behind one interface.
enum SubjectKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case publish, behavior, replay

    var testDescription: String { rawValue }

    /// A fresh subject; a behavior subject starts with `initial`, a replay subject
    /// replays one element.
    func make(initial: Int = 0) -> (observable: Observable<Int>, observer: AnyObserver<Int>) {
        switch self {
        case .publish:
            let subject = PublishSubject<Int>()
            return (subject.asObservable(), subject.asObserver())
        case .behavior:
            let subject = BehaviorSubject(value: initial)
            return (subject.asObservable(), subject.asObserver())
        case .replay:
            let subject = ReplaySubject<Int>.create(bufferSize: 1)
            return (subject.asObservable(), subject.asObserver())
        }
    }

    /// What a new observer receives at once: the behavior subject's current value.
    var replaysInitial: Bool { self == .behavior }
}

/// Runs `body` on its own thread and waits at most `seconds`; `false` means it did not
/// finish (a deadlock).
func finishesInTime(seconds: Double = 10, stackSize: Int = 8 << 20, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    return done.wait(timeout: .now() + seconds) == .success
}

@Suite("Re-entrant subjects and operator chains", .rxLeakCheck)
struct ReentrancyTests {
    @Test("an observer emitting into its own subject receives the nested element after the current one", arguments: SubjectKind.allCases)
    func emitFromOwnObserver(kind: SubjectKind) {
        let received = LockedBox<[Int]>([])
        let other = LockedBox<[Int]>([])
        let finished = finishesInTime {
            let subject = kind.make(initial: 0)
            let first = subject.observable.subscribe(onNext: { value in
                received.mutate { $0.append(value) }
                if value == 1 { subject.observer.onNext(2) }
            })
            let second = subject.observable.subscribe(onNext: { value in other.mutate { $0.append(value) } })
            subject.observer.onNext(1)
            subject.observer.onNext(3)
            first.dispose()
            second.dispose()
        }
        #expect(finished)
        let prefix = kind.replaysInitial ? [0] : []
        #expect(received.value == prefix + [1, 2, 3])
        // The second observer gets every element once; the nested 2 reaches it while
        // the subject is still delivering 1 to the first observer.
        #expect(other.value.sorted() == prefix + [1, 2, 3])
    }

    @Test("an element emitted while a new observer is being replayed to comes after the replay", arguments: [SubjectKind.behavior, .replay])
    func emitDuringReplay(kind: SubjectKind) {
        let received = LockedBox<[Int]>([])
        let finished = finishesInTime {
            let subject = kind.make(initial: 5)
            if kind == .replay { subject.observer.onNext(5) }
            let subscription = subject.observable.subscribe(onNext: { value in
                received.mutate { $0.append(value) }
                if value == 5 { subject.observer.onNext(6) }
            })
            subject.observer.onNext(7)
            subscription.dispose()
        }
        #expect(finished)
        #expect(received.value == [5, 6, 7])
    }

    @Test("completing the subject from inside onNext: every observer ends once and sees nothing after", arguments: SubjectKind.allCases)
    func completeFromOwnObserver(kind: SubjectKind) {
        let first = LockedBox<[Event<Int>]>([])
        let second = LockedBox<[Event<Int>]>([])
        let finished = finishesInTime {
            let subject = kind.make(initial: 0)
            _ = subject.observable.subscribe { event in
                first.mutate { $0.append(event) }
                if case .next(1) = event { subject.observer.onCompleted() }
            }
            _ = subject.observable.subscribe(onNext: { value in second.mutate { $0.append(.next(value)) } },
                                             onCompleted: { second.mutate { $0.append(.completed) } })
            subject.observer.onNext(1)
            subject.observer.onNext(2)
        }
        #expect(finished)
        let prefix: [Event<Int>] = kind.replaysInitial ? [.next(0)] : []
        #expect(first.value == prefix + [.next(1), .completed])
        // The second observer was still to receive 1 when the subject completed: it gets
        // the completion, and the 1 that was in flight to it is dropped after it.
        let events = second.value
        #expect(events.last == .completed)
        #expect(events.filter(\.isStopEvent).count == 1)
        #expect(!events.contains(.next(2)))
    }

    @Test("disposing its own subscription from inside onNext stops delivery at once", arguments: SubjectKind.allCases)
    func disposeOwnSubscription(kind: SubjectKind) {
        let received = LockedBox<[Int]>([])
        let finished = finishesInTime {
            let subject = kind.make(initial: 0)
            let box = LockedBox<Disposable?>(nil)
            let subscription = subject.observable
                .map { $0 * 10 }
                .filter { $0 >= 0 }
                .subscribe(onNext: { value in
                    received.mutate { $0.append(value) }
                    if value == 10 { box.value?.dispose() }
                })
            box.value = subscription
            subject.observer.onNext(1)
            subject.observer.onNext(2)
        }
        #expect(finished)
        #expect(received.value == (kind.replaysInitial ? [0, 10] : [10]))
    }

    @Test("disposing another observer's subscription from inside onNext: it receives nothing newer", arguments: SubjectKind.allCases)
    func disposeOtherSubscription(kind: SubjectKind) {
        let other = LockedBox<[Int]>([])
        let finished = finishesInTime {
            let subject = kind.make(initial: 0)
            let victim = LockedBox<Disposable?>(nil)
            _ = subject.observable.subscribe(onNext: { value in
                if value == 1 { victim.value?.dispose() }
            })
            victim.value = subject.observable.map { $0 }.subscribe(onNext: { value in other.mutate { $0.append(value) } })
            subject.observer.onNext(1)
            subject.observer.onNext(2)
        }
        #expect(finished)
        // The map sink is disposed before the subject reaches it with 1.
        #expect(other.value == (kind.replaysInitial ? [0] : []))
    }

    @Test("subscribing from inside onNext: the new observer starts from the subject's state at that moment", arguments: SubjectKind.allCases)
    func subscribeFromOwnObserver(kind: SubjectKind) {
        let inner = LockedBox<[Int]>([])
        let finished = finishesInTime {
            let subject = kind.make(initial: 0)
            let subscribed = LockedBox(false)
            let outer = subject.observable.filter { $0 > 0 }.subscribe(onNext: { _ in
                let first = subscribed.withLock { value -> Bool in
                    defer { value = true }
                    return !value
                }
                if first {
                    _ = subject.observable.map { $0 + 100 }.subscribe(onNext: { value in inner.mutate { $0.append(value) } })
                }
            })
            subject.observer.onNext(1)
            subject.observer.onNext(2)
            outer.dispose()
        }
        #expect(finished)
        switch kind {
        case .publish: #expect(inner.value == [102])
        case .behavior, .replay: #expect(inner.value == [101, 102])
        }
    }

    @Test("an operator chain feeding its own source: map/filter/scan re-entered from the end of the chain")
    func chainFeedsItsSource() {
        let received = LockedBox<[Int]>([])
        let finished = finishesInTime {
            let subject = PublishSubject<Int>()
            let subscription = subject
                .map { $0 + 1 }
                .filter { $0 % 2 == 0 }
                .scan(0) { $0 + $1 }
                .subscribe(onNext: { total in
                    received.mutate { $0.append(total) }
                    if total < 20 { subject.onNext(total + 1) }
                })
            subject.onNext(1)
            subscription.dispose()
        }
        #expect(finished)
        // 1 → 2 (total 2) → feeds 3 → 4 (total 6) → feeds 7 → 8 (14) → feeds 15 → 16 (30).
        #expect(received.value == [2, 6, 14, 30])
    }

    @Test("deep re-entrance: an observer emitting 1,000 times into its own subject, one level per element")
    func deepReentrance() {
        let count = LockedBox(0)
        // Every level nests the whole delivery path on the stack, as in RxSwift; a large
        // stack keeps the instrumented (sanitizer) builds, whose frames are bigger, in bounds.
        let finished = finishesInTime(seconds: 30, stackSize: 64 << 20) {
            let subject = PublishSubject<Int>()
            let subscription = subject.map { $0 }.subscribe(onNext: { value in
                count.mutate { $0 += 1 }
                if value < 1_000 { subject.onNext(value + 1) }
            })
            subject.onNext(1)
            subscription.dispose()
        }
        #expect(finished)
        #expect(count.value == 1_000)
    }
}
