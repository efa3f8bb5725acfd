import Dispatch
import Foundation

/// A scheduler standing in for `MainScheduler.instance`, `MainScheduler.asyncInstance`,
/// `ConcurrentMainScheduler.instance` and every `MainScheduler()` for the task that
/// installs it (and the tasks that task starts), so code under test moves onto a test's
/// virtual time without taking its scheduler as a parameter.
///
/// RxTest installs it (`withVirtualTime`, the `.virtualTime` trait); it is bound as a
/// task-local value, so tests running in parallel each see their own.
package final class SchedulerSubstitution: @unchecked Sendable {
    /// Where the main schedulers' work goes.
    package let scheduler: SchedulerType
    /// `MainScheduler.instance` while installed: runs work at once when called from the
    /// installing task with none of its own work queued, as the main scheduler does on
    /// the main thread; otherwise queues it on `scheduler`.
    package let mainInstance: MainScheduler
    /// `MainScheduler.asyncInstance` while installed: always queues on `scheduler`.
    package let asyncInstance: SerialDispatchQueueScheduler
    /// The task executor tasks started by Rivulet's async bridges prefer while installed
    /// (an `any TaskExecutor`), so that they run where the test can wait for them.
    package let taskExecutor: (any Sendable)?

    package init(scheduler: SchedulerType, taskExecutor: (any Sendable)? = nil) {
        self.scheduler = scheduler
        self.taskExecutor = taskExecutor
        mainInstance = SubstitutedMainScheduler(target: scheduler, runsAtOnceWhenIdle: true)
        asyncInstance = SubstitutedMainScheduler(target: scheduler, runsAtOnceWhenIdle: false)
    }

    /// The substitution of the current task (or thread, outside tasks), if any.
    package static var current: SchedulerSubstitution? {
        installed.get()
    }

    /// The task-local value behind `current`. Declared as a `TaskLocal` rather than with
    /// the `@TaskLocal` macro: every compile job that reads `current` would otherwise load
    /// the macro plugin and expand it again.
    private static let installed = TaskLocal<SchedulerSubstitution?>(wrappedValue: nil)

    /// Set by the first `install`: until then `current` is `nil` everywhere.
    private static let everInstalled = AtomicFlag()

    /// `current`, without reading the task-local value (which costs on every event the
    /// main schedulers deliver) in a process that never installed a substitution. A
    /// task that installs one sets the flag first, and the tasks and threads that can
    /// see its substitution start after that.
    @inline(__always)
    package static var currentIfInstalled: SchedulerSubstitution? {
        everInstalled.isSet() ? current : nil
    }

    /// Runs `body` with `self` installed, then restores the previous substitution.
    package func install<Result>(_ body: () throws -> Result) rethrows -> Result {
        Self.everInstalled.set()
        return try Self.installed.withValue(self, operation: body)
    }

    /// Runs the asynchronous `body` with `self` installed.
    package func install<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        Self.everInstalled.set()
        return try await Self.installed.withValue(self, operation: body, isolation: isolation)
    }
}

/// The main scheduler of a substitution: forwards to the substituted scheduler.
///
/// Like `MainScheduler` on the main thread, immediate work runs at once when it is
/// scheduled from the installing task's context and none of the work this scheduler
/// queued is pending or running (so a `Driver` delivers its first element at the tick
/// it is driven, as on the main thread); otherwise it goes to the substituted scheduler.
final class SubstitutedMainScheduler: MainScheduler, @unchecked Sendable {
    private let target: SchedulerType
    private let runsAtOnceWhenIdle: Bool
    private let outstanding = LockedState(0)

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(target: SchedulerType, runsAtOnceWhenIdle: Bool) {
        self.target = target
        self.runsAtOnceWhenIdle = runsAtOnceWhenIdle
        super.init()
    }

    override var now: RxTime {
        target.now
    }

    /// Whether the caller runs in the context of the substitution this scheduler belongs to.
    private var isInInstallingContext: Bool {
        guard let current = SchedulerSubstitution.current else { return false }
        return current.mainInstance === self || current.asyncInstance === self
    }

    override func scheduleInternal<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let previous = outstanding.withLock { count -> Int in
            defer { count += 1 }
            return count
        }
        if runsAtOnceWhenIdle && previous == 0 && isInInstallingContext {
            defer { outstanding.withLock { $0 -= 1 } }
            return action(state)
        }
        let settled = OutstandingWork(counter: outstanding)
        let work = target.schedule(state) { state in
            defer { settled.end() }
            return action(state)
        }
        return Disposables.create {
            work.dispose()
            settled.end()
        }
    }

    /// `observe(on:)` delivers through here: the same path as `schedule`.
    override func dispatch(_ work: @escaping @Sendable () -> Void) {
        _ = scheduleInternal(()) { _ in
            work()
            return Disposables.create()
        }
    }

    override func dispatchDelivery(_ target: any SerialQueueDelivery) {
        dispatch { target.deliverWaiting() }
    }

    override func scheduleRelativeInternal<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        target.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    override func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        target.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}

/// One queued action of a `SubstitutedMainScheduler`: leaves the count once, when it
/// has run or when it is disposed before running.
private final class OutstandingWork: @unchecked Sendable {
    private let counter: LockedState<Int>
    private let ended = LockedState(false)

    init(counter: LockedState<Int>) {
        self.counter = counter
    }

    func end() {
        let first = ended.withLock { ended -> Bool in
            defer { ended = true }
            return !ended
        }
        if first {
            counter.withLock { $0 -= 1 }
        }
    }
}

extension SchedulerSubstitution {
    /// Starts the task of an async bridge. Inside a substitution with a task executor,
    /// an attached task prefers that executor, so a test that waits for its executor to
    /// go idle also waits for the bridge; otherwise it is a plain `Task`.
    package static func startTask(
        detached: Bool,
        priority: TaskPriority?,
        operation: @Sendable @escaping () async -> Void
    ) -> Task<Void, Never> {
        if detached {
            return Task.detached(priority: priority, operation: operation)
        }
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *),
           let executor = current?.taskExecutor as? any TaskExecutor {
            return Task(executorPreference: executor, priority: priority, operation: operation)
        }
        return Task(priority: priority, operation: operation)
    }
}
