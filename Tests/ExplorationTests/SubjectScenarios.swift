import RivuletTestSupport
import RxSwift
import RxTest

/// Subjects: an emitter's thread races a subscriber, a subscriber leaving, or the
/// subject's own disposal. Emitters are serialised by the caller, as the contract asks.
enum SubjectScenarios {
    static let all: [ExplorationScenario] = [
        ExplorationScenario("PublishSubject", "elements against a subscriber", depth: 2, seed: 601) { run in
            let subject = PublishSubject<Int>()
            run.thread("producer", sends: "1 2", to: subject)
            run.expectEvents(run.observeLater(subject), among: "", "2", "1 2")
        },
        ExplorationScenario("PublishSubject", "the completion against a late subscriber", depth: 2, seed: 602) { run in
            let subject = PublishSubject<Int>()
            run.thread("producer", sends: "|", to: subject)
            run.expectEvents(run.observeLater(subject), among: "|")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("PublishSubject", "elements against a subscriber leaving", seed: 603) { run in
            let subject = PublishSubject<Int>()
            let leaving = run.observe(subject, as: "leaving", disposedBy: "disposer")
            let staying = run.observe(subject, as: "staying")
            run.thread("producer", sends: "1 2", to: subject)
            run.expectEvents(leaving, among: "", "1", "1 2")
            run.expectEvents(staying, among: "1 2")
        },
        ExplorationScenario("PublishSubject", "an element against the subject's disposal", depth: 2, seed: 604) { run in
            let subject = PublishSubject<Int>()
            let observer = run.observe(subject, as: "observer")
            run.thread("producer", sends: "1", to: subject)
            run.thread("disposer") { subject.dispose() }
            let late = run.observeLater(subject)
            run.expectEvents(observer, among: "", "1")
            // Before the disposal it sees 1 or nothing; after it, the disposal error.
            run.expectEvents(late, among: "", "1", "#")
            run.expect({ subject.isDisposed && !subject.hasObservers }) { "the subject still has observers after its disposal" }
        },
        ExplorationScenario("PublishSubject", "an observer taking a user's lock against a subscriber holding it", seed: 613) { run in
            let subject = PublishSubject<Int>()
            let (locking, late) = raceUserLock(around: subject, in: run)
            run.expectEvents(locking, among: "1")
            run.expectEvents(late, among: "", "1")
        },
        ExplorationScenario("PublishSubject", "an observer emitting into its own subject against a subscriber", seed: 614) { run in
            let subject = PublishSubject<Int>()
            let echoed = run.observer("echoing", of: Int.self)
            _ = subject.subscribe(AnyObserver<Int> { event in
                if event.element == 1 { subject.onNext(2) }
                if let element = event.element { echoed.onNext(element) }
            })
            run.thread("producer", sends: "1", to: subject)
            let late = run.observeLater(subject)
            // The echo is delivered within the delivery of 1, before the echoing observer
            // records 1; the late subscriber sees either order, or what came after it.
            run.expectEvents(echoed, among: "2 1")
            run.expectEvents(late, among: "", "2", "1 2", "2 1")
        },
        ExplorationScenario("PublishSubject", "hasObservers against a subscriber", depth: 2, seed: 616) { run in
            let subject = PublishSubject<Int>()
            let seen = LockedBox<Bool?>(nil)
            let late = run.observeLater(subject)
            run.thread("reader") { seen.value = subject.hasObservers }
            run.thread("producer", sends: "1", to: subject)
            run.expectEvents(late, among: "", "1")
            run.expect({ seen.value != nil && subject.hasObservers }) { "hasObservers read \(String(describing: seen.value)), \(subject.hasObservers) at the end" }
        },
        ExplorationScenario("PublishSubject", "isDisposed against the subject's disposal", depth: 2, seed: 617) { run in
            let subject = PublishSubject<Int>()
            let seen = LockedBox<Bool?>(nil)
            run.thread("disposer") { subject.dispose() }
            run.thread("reader") { seen.value = subject.isDisposed }
            let late = run.observeLater(subject)
            run.expectEvents(late, among: "", "#")
            run.expect({ seen.value != nil && subject.isDisposed }) { "isDisposed read \(String(describing: seen.value)), \(subject.isDisposed) at the end" }
        },
        ExplorationScenario("PublishSubject", "a refused observer subscribing again on its completion against an emitter", depth: 2, seed: 618) { run in
            let subject = PublishSubject<Int>()
            subject.onCompleted()
            let again = run.observer("again", of: Int.self)
            run.thread("subscriber") {
                // The completion of a finished subject, delivered as the subscription is
                // refused, subscribes once more: the refusal runs with no lock held.
                _ = subject.subscribe(onCompleted: { _ = subject.subscribe(again) })
            }
            run.thread("producer", sends: "1", to: subject)
            run.expectEvents(again, among: "|")
        },
        ExplorationScenario("BehaviorSubject", "an observer emitting into its subject as it subscribes, against a late subscriber", seed: 619) { run in
            let subject = BehaviorSubject(value: 0)
            let observer = run.observe(subject, as: "observer")
            run.thread("emitting subscriber") {
                // The current value, delivered as it subscribes, makes it emit: the
                // opening delivery runs with no lock held.
                _ = subject.subscribe(onNext: { if $0 == 0 { subject.onNext(1) } })
            }
            let late = run.observeLater(subject)
            run.expectEvents(observer, among: "0 1")
            run.expectEvents(late, among: "0 1", "1")
        },
        ExplorationScenario("ReplaySubject", "a replay against an element and the completion", seed: 621) { run in
            let subject = ReplaySubject<Int>.create(bufferSize: 1)
            subject.onNext(1)
            run.thread("producer", sends: "2 |", to: subject)
            // The replay, then what came after it, each once, the completion last.
            run.expectEvents(run.observeLater(subject), among: "1 2 |", "2 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("PublishSubject", "two threads sending at once, then an observer leaving", seed: 622) { run in
            // Its deliveries may overlap (the emitters break the contract): the count of
            // deliveries running must come back to none, or an observer that leaves
            // afterwards stays alive for a delivery that is over.
            let subject = PublishSubject<Int>()
            let held = HeldObject()
            let watched = WeakReference(held)
            let subscription = UnsafeTransfer(subject.subscribe(onNext: { _ in withExtendedLifetime(held) {} }))
            let observer = run.observe(subject.toArray().asObservable(), as: "array")
            run.thread("one", sends: "1", to: subject)
            run.thread("two", sends: "2", to: subject)
            run.check {
                subject.onCompleted()
                subscription.value.dispose()
                try require(watched.object == nil, "an observer that left is still alive, kept for a delivery that is over")
            }
            run.expectEvents(observer, among: "[1, 2] |", "[2, 1] |")
        },
        ExplorationScenario("BehaviorSubject", "elements against a subscriber", seed: 605) { run in
            let subject = BehaviorSubject(value: 0)
            run.thread("producer", sends: "1 2", to: subject)
            // The value at subscription, then every later one: no gap, no repeat.
            run.expectEvents(run.observeLater(subject), among: "0 1 2", "1 2", "2")
        },
        ExplorationScenario("BehaviorSubject", "an observer taking a user's lock against a subscriber holding it", seed: 615) { run in
            let subject = BehaviorSubject(value: 0)
            let (locking, late) = raceUserLock(around: subject, in: run)
            run.expectEvents(locking, among: "0 1")
            run.expectEvents(late, among: "0 1", "1")
        },
        ExplorationScenario("BehaviorSubject", "the completion against a late subscriber", depth: 2, seed: 606) { run in
            let subject = BehaviorSubject(value: 0)
            run.thread("producer", sends: "1 |", to: subject)
            run.expectEvents(run.observeLater(subject), among: "0 1 |", "1 |", "|")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("BehaviorSubject", "an error against reading the value", depth: 2, seed: 607) { run in
            let subject = BehaviorSubject(value: 0)
            let read = LockedBox("")
            run.thread("producer", sends: "1 #", to: subject)
            run.thread("reader") { read.value = (try? subject.value()).map(String.init) ?? "#" }
            run.expect({ ["0", "1", "#"].contains(read.value) }) { "value() read \(read.value)" }
            run.expect({ (try? subject.value()) == nil }) { "value() does not throw after the error" }
        },
        ExplorationScenario("ReplaySubject", "the completion against a late subscriber", depth: 2, seed: 608) { run in
            let subject = ReplaySubject<Int>.createUnbounded()
            run.thread("producer", sends: "1 2 |", to: subject)
            run.expectEvents(run.observeLater(subject), among: "1 2 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("ReplaySubject", "a replay against an element", seed: 609) { run in
            let subject = ReplaySubject<Int>.create(bufferSize: 2)
            subject.onNext(1)
            subject.onNext(2)
            let observer = run.observeLater(subject)
            run.thread("producer", sends: "3 4", to: subject)
            // Whatever the buffer holds when it subscribes, then every later element.
            run.expectEvents(observer, among: "1 2 3 4", "2 3 4", "3 4")
        },
        ExplorationScenario("ReplaySubject", "a subscriber leaving during its replay", depth: 2, seed: 610) { run in
            let subject = ReplaySubject<Int>.create(bufferSize: 2)
            subject.onNext(1)
            subject.onNext(2)
            let observer = run.observer("leaving", of: Int.self)
            let subscription = LockedBox<Disposable?>(nil)
            let disposed = LockedBox(false)
            run.thread("subscriber") { subscription.value = subject.subscribe(observer) }
            run.thread("disposer") {
                guard let taken = subscription.value else { return }
                taken.dispose()
                disposed.value = true
            }
            run.thread("producer", sends: "3", to: subject)
            run.expect({ subject.hasObservers != disposed.value }) {
                "the subscription was \(disposed.value ? "" : "not ")disposed and the subject has \(subject.hasObservers ? "an" : "no") observer"
            }
            // The buffer when it subscribed, then 3; cut short when it left.
            run.expect({ ["1 2 3", "2 3"].contains { disposed.value ? $0.hasPrefix(observer.spelled) : $0 == observer.spelled } }) {
                "received \"\(observer.spelled)\""
            }
        },
        ExplorationScenario("AsyncSubject", "the completion against a late subscriber", depth: 2, seed: 611) { run in
            let subject = AsyncSubject<Int>()
            run.thread("producer", sends: "1 2 |", to: subject)
            run.expectEvents(run.observeLater(subject), among: "2 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("AsyncSubject", "an observer subscribing again on the completion, against a late subscriber", seed: 620) { run in
            let subject = AsyncSubject<Int>()
            let again = run.observer("again", of: Int.self)
            // The completion, delivered to an observer that subscribes once more: the
            // delivery runs with no lock held, and the new observer is refused with the
            // last element and the completion.
            _ = subject.subscribe(onCompleted: { _ = subject.subscribe(again) })
            run.thread("producer", sends: "1 |", to: subject)
            run.expectEvents(run.observeLater(subject), among: "1 |")
            run.expectEvents(again, among: "1 |")
        },
        ExplorationScenario("AsyncSubject", "an error against two subscribers", seed: 612) { run in
            let subject = AsyncSubject<Int>()
            run.thread("producer", sends: "1 #", to: subject)
            for name in ["first", "second"] {
                run.expectEvents(run.observeLater(subject, as: name), among: "#")
            }
            run.expectEverySubscriptionEnded()
        },
    ]

    /// An observer of `subject` that takes a lock of the user's code for every event,
    /// while a producer thread sends 1 and a subscriber thread subscribes holding that
    /// lock: a subject that delivered under its own lock would deadlock.
    private static func raceUserLock<Subject: Producible & ObservableType>(
        around subject: Subject, in run: ScheduleRun
    ) -> (locking: ScheduleObserver<Int>, late: ScheduleObserver<Int>) where Subject.Element == Int {
        let foreign = ExplorableLock()
        let locking = run.observer("locking", of: Int.self)
        _ = subject.subscribe(AnyObserver<Int> { event in
            foreign.withLock { locking.on(event) }
        })
        let late = run.observer("late", of: Int.self)
        run.thread("producer", sends: "1", to: subject)
        run.thread("subscriber") { foreign.withLock { _ = subject.subscribe(late) } }
        return (locking, late)
    }
}
