import RivuletTestSupport
import RxSwift
import RxTest

/// What a check of an explored scenario found, in words: a type of its own because the
/// explorer reports the thrown error's description, which must be the mismatch itself.
struct ExploredMismatch: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Throws the mismatch `message` describes unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw ExploredMismatch(message()) }
}

extension ScheduleObserver {
    /// The events received, spelled as one line: elements by their description, `|` for
    /// completion, `#` for an error (`"1 2 |"`).
    var spelled: String {
        events.map { event in
            switch event {
            case let .next(element): "\(element)"
            case .completed: "|"
            case .error: "#"
            }
        }.joined(separator: " ")
    }
}

extension ScheduleRun {
    /// Checks, once every thread finished, that `observer` received one of the
    /// `allowed` spellings (see ``ScheduleObserver/spelled``), and nothing else.
    func expectEvents<Element>(_ observer: ScheduleObserver<Element>, among allowed: String...) {
        expectEvents(observer, among: allowed)
    }

    /// Checks, once every thread finished, that `observer` received one of the
    /// `allowed` spellings (see ``ScheduleObserver/spelled``), and nothing else.
    func expectEvents<Element>(_ observer: ScheduleObserver<Element>, among outcomes: [String]) {
        // Different orders of the input may give the same outcome: each is listed once.
        let allowed = outcomes.reduce(into: [String]()) { allowed, outcome in
            if !allowed.contains(outcome) { allowed.append(outcome) }
        }
        check {
            let spelled = observer.spelled
            try require(allowed.contains(spelled), "received \"\(spelled)\"; allowed: \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
    }

    /// Checks, once every thread finished, that `condition` holds; `message` says what
    /// was found instead.
    func expect(_ condition: @escaping () -> Bool, _ message: @escaping () -> String) {
        check { try require(condition(), message()) }
    }
}

extension SubscriptionTally {
    /// Checks, once every thread of `run` finished, the counts that `expected` accepts.
    func expect(in run: ScheduleRun, _ what: String, _ expected: @escaping @Sendable (_ subscribed: Int, _ disposed: Int) -> Bool) {
        run.expect({ expected(self.subscribed, self.disposed) }) {
            "\(what): subscribed \(self.subscribed) times, disposed \(self.disposed) times"
        }
    }
}

/// Counts the calls of actions from any thread, by name: a dispose action run twice,
/// a selector called once too often.
final class CallCount: Sendable {
    private let calls = LockedBox([String: Int]())

    /// Counts one call of `name`.
    func record(_ name: String) {
        calls.mutate { $0[name, default: 0] += 1 }
    }

    /// The calls of `name` so far.
    subscript(_ name: String) -> Int {
        calls.value[name] ?? 0
    }

    /// A disposable each of whose `dispose()` calls counts as a call of `name`: unlike
    /// `Disposables.create`'s, a second call counts again, so a group that disposes a
    /// member twice is seen.
    func disposable(_ name: String) -> Disposable {
        CountedDisposable { self.record(name) }
    }

    /// Checks, once every thread of `run` finished, that each of `names` was called
    /// exactly `times` times.
    func expect(in run: ScheduleRun, _ names: [String], calledTimes times: Int) {
        run.expect({ names.allSatisfy { self[$0] == times } }) {
            "expected \(times) call(s) each of \(names); counted \(names.map { "\($0): \(self[$0])" }.joined(separator: ", "))"
        }
    }
}

/// A disposable that runs `counted` on every call of `dispose()`. Its lock is not
/// Rivulet's: disposing adds no step to a schedule.
private final class CountedDisposable: Disposable, Sendable {
    private let counted: @Sendable () -> Void

    init(_ counted: @escaping @Sendable () -> Void) {
        self.counted = counted
    }

    func dispose() {
        counted()
    }
}

/// Every order in which two threads' sequences of steps can interleave, each thread's
/// own order kept: the outcomes a serializing operator may show.
func interleavings<Element>(_ first: [Element], _ second: [Element]) -> [[Element]] {
    guard let head = first.first else { return [second] }
    guard let other = second.first else { return [first] }
    return interleavings(Array(first.dropFirst()), second).map { [head] + $0 }
        + interleavings(first, Array(second.dropFirst())).map { [other] + $0 }
}

/// The spellings of `outcomes` (see ``ScheduleObserver/spelled``), each as `spell` writes
/// it: the events an operator may deliver for each order of its input.
func spellings<Element>(_ outcomes: [[Element]], _ spell: ([Element]) -> [String]) -> [String] {
    outcomes.map { spell($0).joined(separator: " ") }
}

extension ScheduleRun {
    /// Starts a thread that sends `spelled` to `producer`, in order: elements by their
    /// number, `|` for completion, `#` for `testError` (`"1 2 |"`, as
    /// ``ScheduleObserver/spelled`` writes what is received).
    func thread<Producer: Producible>(_ name: String, sends spelled: String, to producer: Producer) {
        let events = spelled.split(separator: " ").map { token -> Event<Int> in
            switch token {
            case "|": return .completed
            case "#": return .error(testError)
            default:
                guard let element = Int(token) else { preconditionFailure("\"\(token)\" in \"\(spelled)\" is no element, | or #") }
                return .next(element)
            }
        }
        thread(name) {
            for event in events {
                if let element = event.element { producer.onNext(element) } else { producer.on(event) }
            }
        }
    }

    /// Two subjects, `left` and `right`, each fed by a thread of its own with what
    /// `leftSends` and `rightSends` spell, combined by `combine` into a new observer of
    /// the run named `name`.
    func observe<Element>(
        as name: String,
        left leftSends: String,
        right rightSends: String,
        _ combine: (_ left: PublishSubject<Int>, _ right: PublishSubject<Int>) -> Observable<Element>
    ) -> (observer: ScheduleObserver<Element>, left: PublishSubject<Int>, right: PublishSubject<Int>) {
        let left = PublishSubject<Int>()
        let right = PublishSubject<Int>()
        let observer = observe(combine(left, right), as: name)
        thread("left", sends: leftSends, to: left)
        thread("right", sends: rightSends, to: right)
        return (observer, left, right)
    }

    /// Starts a thread that disposes `disposable`.
    func thread(_ name: String = "disposer", disposing disposable: Disposable) {
        let disposable = UnsafeTransfer(disposable)
        thread(name) { disposable.value.dispose() }
    }

    /// A new observer of the run, named `name`, subscribed to `source`; the subscription
    /// lives as long as the source holds it.
    func observe<Source: ObservableConvertibleType>(_ source: Source, as name: String) -> ScheduleObserver<Source.Element> {
        let observer = self.observer(name, of: Source.Element.self)
        _ = source.asObservable().subscribe(observer)
        return observer
    }

    /// A new observer of the run, named `name`, that a thread of the run, named
    /// `subscriber`, subscribes to `source`.
    func observeLater<Source: ObservableConvertibleType & Sendable>(
        _ source: Source, as name: String = "late", subscribedBy subscriber: String = "subscriber"
    ) -> ScheduleObserver<Source.Element> {
        let observer = self.observer(name, of: Source.Element.self)
        thread(subscriber) { _ = source.asObservable().subscribe(observer) }
        return observer
    }

    /// A new observer of the run, named `name`, subscribed to `source`, and a thread of
    /// the run, named `disposer`, that disposes the subscription.
    func observe<Source: ObservableConvertibleType>(_ source: Source, as name: String, disposedBy disposer: String) -> ScheduleObserver<Source.Element> {
        let observer = self.observer(name, of: Source.Element.self)
        thread(disposer, disposing: source.asObservable().subscribe(observer))
        return observer
    }
}

/// A subject that tells whether it has observers: a source an operator must let go of.
protocol ObservedSubject: AnyObject {
    var hasObservers: Bool { get }
}

extension PublishSubject: ObservedSubject {}
extension BehaviorSubject: ObservedSubject {}
extension ReplaySubject: ObservedSubject {}

/// Checks, once every thread of `run` finished, that none of `subjects` has an observer
/// left: the operator let go of every source.
func expectUnobserved(_ subjects: any ObservedSubject..., in run: ScheduleRun) {
    run.expect({ subjects.allSatisfy { !$0.hasObservers } }) { "a source is still observed: hasObservers \(subjects.map(\.hasObservers))" }
}

/// What a producer thread of a scenario sends into: a subject of `Int`, through its own
/// `onNext` (the one user code calls, not the generic `ObserverType` one).
protocol Producible: ObserverType, Sendable where Element == Int {
    func onNext(_ element: Int)
}

extension PublishSubject: Producible where Element == Int {}
extension BehaviorSubject: Producible where Element == Int {}
extension ReplaySubject: Producible where Element == Int {}
extension AsyncSubject: Producible where Element == Int {}

/// A serial dispatch queue scheduler of its own, whose work the explorer runs as threads
/// of the run, one item at a time.
func serialQueue() -> SerialDispatchQueueScheduler {
    SerialDispatchQueueScheduler(internalSerialQueueName: "explored")
}

/// A scheduler that hands its work to `base` and watches each disposable it returns for
/// that work: how often it was disposed, and whether anything still holds it. Its lock
/// is not Rivulet's: watching adds no step to a schedule.
final class WatchedScheduler: SchedulerType, @unchecked Sendable {
    /// What a disposable was returned for.
    enum Work: String {
        case immediate = "work", timer, periodic = "periodic timer"
    }

    /// One returned disposable: its work, its disposals, and the disposable itself while
    /// something holds it.
    private struct Watch {
        let work: Work
        var disposals = 0
        weak var held: WatchedDisposable?
    }

    private let base: SchedulerType
    private let watches = LockedBox([Watch]())

    init(_ base: SchedulerType) {
        self.base = base
    }

    var now: RxTime { base.now }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        watch(.immediate, base.schedule(state, action: action))
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        watch(.timer, base.scheduleRelative(state, dueTime: dueTime, action: action))
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        watch(.periodic, base.schedulePeriodic(state, startAfter: startAfter, period: period, action: action))
    }

    private func watch(_ work: Work, _ disposable: Disposable) -> Disposable {
        let watched = WatchedDisposable(disposable)
        watches.mutate { watches in
            let index = watches.count
            watched.disposed = { self.watches.mutate { $0[index].disposals += 1 } }
            watches.append(Watch(work: work, held: watched))
        }
        return watched
    }

    /// Checks, once every thread of `run` finished, that each disposable returned for
    /// `work` was disposed at least once.
    func expectEveryDisposal(of work: Work, in run: ScheduleRun) {
        run.expect({ self.watches.value.allSatisfy { $0.work != work || $0.disposals > 0 } }) {
            let counts = self.watches.value.filter { $0.work == work }.map(\.disposals)
            return "a \(work.rawValue) was never disposed: disposals of each \(work.rawValue) scheduled, in order: \(counts)"
        }
    }

    /// Checks, once every thread of `run` finished, that nothing holds a disposable this
    /// scheduler returned any longer (while whatever the run keeps is still alive).
    func expectNothingHeld(in run: ScheduleRun) {
        run.expect({ self.watches.value.allSatisfy { $0.held == nil } }) {
            let held = self.watches.value.map { $0.held == nil ? "released" : "held" }
            return "a disposable this scheduler returned is still held; each, in order: \(held)"
        }
    }
}

/// A disposable of a `WatchedScheduler`: disposes the one it wraps, and counts.
private final class WatchedDisposable: Disposable, @unchecked Sendable {
    private let wrapped: Disposable
    /// Set once, before the disposable is returned.
    var disposed: () -> Void = {}

    init(_ wrapped: Disposable) {
        self.wrapped = wrapped
    }

    func dispose() {
        disposed()
        wrapped.dispose()
    }
}

/// An object only a scenario's closure holds, to tell whether that closure was released.
final class HeldObject: Sendable {}

/// A weak reference, readable from a check.
final class WeakReference<Object: AnyObject & Sendable>: @unchecked Sendable {
    weak var object: Object?

    init(_ object: Object) {
        self.object = object
    }
}
