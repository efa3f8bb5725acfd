import Dispatch
import Foundation

/// A time interval for schedulers, as in RxSwift 6.
public typealias RxTimeInterval = DispatchTimeInterval

/// An absolute time for schedulers.
public typealias RxTime = Date

/// A scheduler that runs work as soon as it can.
public protocol ImmediateSchedulerType {
    /// Schedules `action` to run with `state`.
    ///
    /// - returns: A disposable that cancels the action if it has not run yet (best effort).
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable
}

/// A scheduler with a clock: work can run after a delay or periodically.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's current time.
    var now: RxTime { get }

    /// Schedules `action` to run after `dueTime`.
    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable

    /// Schedules `action` to run first after `startAfter`, then every `period`; each run
    /// receives the state the previous run returned.
    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable
}

extension SchedulerType {
    /// Periodic scheduling built from recursive relative scheduling: each tick first
    /// schedules the next one, then runs the action.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        let current = LockedState(state)
        return scheduleRecursive((), dueTime: startAfter) { _, recurse in
            recurse((), period)
            let value = current.withLock { $0 }
            let next = action(value)
            current.withLock { $0 = next }
        }
    }
}

extension DispatchTimeInterval {
    /// The interval in seconds (`.never` is infinity).
    package var convertToSecondsInterval: TimeInterval {
        switch self {
        case .seconds(let value): return TimeInterval(value)
        case .milliseconds(let value): return TimeInterval(value) / 1_000
        case .microseconds(let value): return TimeInterval(value) / 1_000_000
        case .nanoseconds(let value): return TimeInterval(value) / 1_000_000_000
        case .never: return .infinity
        @unknown default: rxFatalError("Unknown DispatchTimeInterval case \(self)")
        }
    }

    /// An interval from seconds, rounded to whole nanoseconds.
    package static func fromSeconds(_ seconds: TimeInterval) -> DispatchTimeInterval {
        if seconds.isInfinite { return .never }
        return .nanoseconds(Int((seconds * 1_000_000_000).rounded()))
    }

    /// What is left of the interval once the time from `earlierDate` to `laterDate` has
    /// passed, as RxSwift computes it: in the interval's own unit, rounded to a whole
    /// number of that unit (halves away from zero), and zero when nothing is left.
    /// So `.seconds(1)` with 0.6 s gone leaves nothing, while `.milliseconds(1000)`
    /// leaves 400 ms; `delay` and `throttle` time their next turn with it.
    package func reduceWithSpanBetween(earlierDate: Date, laterDate: Date) -> DispatchTimeInterval {
        let elapsed = laterDate.timeIntervalSince(earlierDate)
        func left(_ value: Int, unitsPerSecond: Double) -> Int {
            let remainder = Double(value) - elapsed * unitsPerSecond
            return remainder > 0 ? Int(remainder.rounded(.toNearestOrAwayFromZero)) : 0
        }
        switch self {
        case .seconds(let value): return .seconds(left(value, unitsPerSecond: 1))
        case .milliseconds(let value): return .milliseconds(left(value, unitsPerSecond: 1_000))
        case .microseconds(let value): return .microseconds(left(value, unitsPerSecond: 1_000_000))
        case .nanoseconds(let value): return .nanoseconds(left(value, unitsPerSecond: 1_000_000_000))
        case .never: return .never
        @unknown default: rxFatalError("Unknown DispatchTimeInterval case \(self)")
        }
    }
}

/// A seconds literal for intervals (`delay(0.1, scheduler:)`), as code written for
/// RxSwift 4 and earlier does.
extension DispatchTimeInterval: @retroactive ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) {
        self = .fromSeconds(value)
    }
}

// MARK: - Recursive scheduling

extension ImmediateSchedulerType {
    /// Schedules `action` recursively: the action receives a function that schedules
    /// it again with a new state.
    public func scheduleRecursive<State>(_ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void) -> Disposable {
        let recursive = RecursiveScheduler<State, Self>(scheduler: self) { state, recurse in
            action(state) { recurse($0, nil) }
        }
        recursive.schedule(state, dueTime: nil)
        return recursive
    }
}

extension SchedulerType {
    /// Schedules `action` recursively after `dueTime`: the action receives a function
    /// that schedules it again with a new state and delay.
    public func scheduleRecursive<State>(_ state: State, dueTime: RxTimeInterval, action: @escaping (_ state: State, _ recurse: (State, RxTimeInterval) -> Void) -> Void) -> Disposable {
        let recursive = RecursiveScheduler<State, Self>(scheduler: self) { state, recurse in
            action(state) { recurse($0, $1) }
        }
        recursive.schedule(state, dueTime: dueTime)
        return recursive
    }
}

/// Runs a recursive action: every pending scheduled run is kept in a group so that
/// disposing the whole cancels whatever is pending.
final class RecursiveScheduler<State, Scheduler: ImmediateSchedulerType>: Disposable, @unchecked Sendable {
    typealias Action = (State, _ recurse: (State, RxTimeInterval?) -> Void) -> Void

    /// The action, `nil` once disposed.
    ///
    /// In a struct, not bare: a function value stored as a generic parameter is
    /// re-abstracted whenever it crosses into concrete code, and passed `inout` it
    /// came back wrapped in two more thunks on every recursive step (a stack overflow
    /// after some thousands of steps). The value of a `LockedPair` with no state of a
    /// fixed type, as `Action` depends on the generic `State` and a `LockedState` would
    /// look up its storage's metadata on every step.
    private struct Pending {
        var action: Action?
    }

    private let pending: LockedPair<Void, Pending>
    private let scheduler: Scheduler
    private let group = CompositeDisposable()

    init(scheduler: Scheduler, action: @escaping Action) {
        self.scheduler = scheduler
        self.pending = LockedPair((), Pending(action: action))
    }

    func schedule(_ state: State, dueTime: RxTimeInterval?) {
        // `done` and `key` coordinate an action that runs synchronously inside
        // `schedule` with the insertion of its disposable into the group.
        let slot = LockedState<(done: Bool, key: CompositeDisposable.DisposeKey?)>((false, nil))
        // Holds the recursion until the scheduled run ran: a scheduler's queue is what
        // keeps a pending step alive, as in RxSwift.
        let body: (State) -> Disposable = { state in
            let key = slot.withLock { slot -> CompositeDisposable.DisposeKey? in
                slot.done = true
                return slot.key
            }
            if let key { self.group.remove(for: key) }
            let action = self.pending.withLock { _, pending in pending.action }
            action?(state) { [weak self] state, dueTime in self?.schedule(state, dueTime: dueTime) }
            return Disposables.create()
        }
        let disposable: Disposable
        if let dueTime {
            guard let timed = scheduler as? SchedulerType else {
                rxFatalError("A recursive action with a due time needs a SchedulerType.")
            }
            disposable = timed.scheduleRelative(state, dueTime: dueTime, action: body)
        } else {
            disposable = scheduler.schedule(state, action: body)
        }
        let alreadyRan = slot.withLock { slot -> Bool in
            if slot.done { return true }
            return false
        }
        if alreadyRan { return }
        if let key = group.insert(disposable) {
            let ranMeanwhile = slot.withLock { slot -> Bool in
                if slot.done { return true }
                slot.key = key
                return false
            }
            if ranMeanwhile { group.remove(for: key) }
        }
    }

    func dispose() {
        // Taken out and released after unlocking: what the action captured may
        // deinitialise.
        _ = pending.withLock { _, pending in pending.action.take() }
        group.dispose()
    }
}
