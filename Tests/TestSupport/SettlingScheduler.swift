import Foundation
import RxSwift

/// A scheduler that forwards to another one and counts the work still to come: actions
/// scheduled and neither run nor cancelled yet, periodic timers not disposed yet, and
/// actions running right now. When the count is zero, nothing more can be delivered
/// through it unless some other thread schedules new work, so a test that has joined its
/// own threads can wait for `settles` instead of guessing from a quiet period.
public final class SettlingScheduler: SchedulerType, @unchecked Sendable {
    private let base: any SchedulerType
    private let condition = NSCondition()
    private var outstanding = 0

    public init(_ base: any SchedulerType) {
        self.base = base
    }

    public var now: RxTime { base.now }

    /// Waits until no scheduled work is left; `false` when some is still outstanding after
    /// `seconds` (a timer that is never disposed, or work that keeps scheduling more).
    public func settles(seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while outstanding > 0 {
            if !condition.wait(until: deadline) { return outstanding == 0 }
        }
        return true
    }

    /// The work still outstanding, for failure messages.
    public var outstandingWork: Int { condition.withLock { outstanding } }

    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let pending = Pending(self)
        let scheduled = base.schedule(state) { state in self.running { pending.resolve(); return action(state) } }
        return pending.disposable(cancelling: scheduled)
    }

    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let pending = Pending(self)
        let scheduled = base.scheduleRelative(state, dueTime: dueTime) { state in
            self.running { pending.resolve(); return action(state) }
        }
        return pending.disposable(cancelling: scheduled)
    }

    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        // The timer counts as one piece of work until it is disposed.
        let alive = Pending(self)
        let scheduled = base.schedulePeriodic(state, startAfter: startAfter, period: period) { state in
            self.running { action(state) }
        }
        return alive.disposable(cancelling: scheduled)
    }

    private func running<T>(_ body: () -> T) -> T {
        adjust(by: 1)
        defer { adjust(by: -1) }
        return body()
    }

    fileprivate func adjust(by delta: Int) {
        condition.lock()
        outstanding += delta
        if outstanding == 0 { condition.broadcast() }
        condition.unlock()
    }

    /// One piece of outstanding work, counted until it starts running or is disposed,
    /// whichever comes first.
    private final class Pending: @unchecked Sendable {
        private let scheduler: SettlingScheduler
        private let lock = NSLock()
        private var resolved = false

        init(_ scheduler: SettlingScheduler) {
            self.scheduler = scheduler
            scheduler.adjust(by: 1)
        }

        func resolve() {
            let first = lock.withLock {
                defer { resolved = true }
                return !resolved
            }
            if first { scheduler.adjust(by: -1) }
        }

        func disposable(cancelling scheduled: Disposable) -> Disposable {
            Disposables.create {
                scheduled.dispose()
                self.resolve()
            }
        }
    }
}
