import Dispatch
import Foundation

/// The main queue. Work scheduled from the main thread while nothing else is queued
/// runs at once, as in RxSwift (Drivers deliver their first element synchronously).
///
/// Inside a test that substitutes the main schedulers (RxTest's `withVirtualTime` and
/// `.virtualTime` trait), `instance` and `asyncInstance` are the test's stand-ins, and
/// every other main scheduler forwards the work scheduled from that test's task to them.
/// The class is not open: only Rivulet subclasses it, for those stand-ins.
public class MainScheduler: SerialDispatchQueueScheduler, @unchecked Sendable {
    /// The work queued on the main queue and not finished yet.
    private let numberEnqueued = InlineAtomicInt(0)
    /// Set while work runs at once; read and written on the main thread only.
    @exclusivity(unchecked)
    private var runningAtOnce = false

    /// A main scheduler (prefer `instance`).
    public init() {
        super.init(serialQueue: DispatchQueue.main)
    }

    private static let shared = MainScheduler()
    private static let sharedAsync: SerialDispatchQueueScheduler = MainAsyncScheduler(serialQueue: DispatchQueue.main)

    /// The shared main scheduler that runs work at once when it can (the test's stand-in
    /// while a test substitutes the main schedulers).
    public static var instance: MainScheduler {
        SchedulerSubstitution.current?.mainInstance ?? shared
    }

    /// A scheduler that always goes through the main queue, never at once (the test's
    /// stand-in while a test substitutes the main schedulers).
    public static var asyncInstance: SerialDispatchQueueScheduler {
        SchedulerSubstitution.current?.asyncInstance ?? sharedAsync
    }

    /// Stops with a clear message when not on the main thread or the main queue (the
    /// main actor's jobs run there), nor in a test that substitutes the main schedulers
    /// (its task stands for the main thread).
    ///
    /// Inside a running test, the test kit records the message as a failure of that test
    /// instead, and the call returns.
    public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        if !isOnMainThread && SchedulerSubstitution.current == nil {
            rxMisuse(errorMessage ?? "Executing on a background thread. Please use `MainScheduler.instance.schedule` to schedule work on the main thread.")
        }
    }

    /// Stops with a clear message when not on the main thread or the main queue (see
    /// ``ensureExecutingOnScheduler(errorMessage:)``).
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        ensureExecutingOnScheduler(errorMessage: errorMessage)
    }

    public override var now: RxTime {
        if let substitution = SchedulerSubstitution.current {
            return substitution.scheduler.now
        }
        return Date()
    }

    override func scheduleInternal<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if let substitution = SchedulerSubstitution.current {
            return substitution.mainInstance.scheduleInternal(state, action: action)
        }
        if let disposable = runIfAtOnce({ action(state) }) {
            return disposable
        }
        let cancel = SingleAssignmentDisposable()
        let work = UnsafeTransfer((state, action))
        _ = numberEnqueued.add(1)
        configuration.async { [self] in
            if !cancel.isDisposed {
                cancel.setDisposable(work.value.1(work.value.0))
            }
            _ = numberEnqueued.add(-1)
        }
        return cancel
    }

    override func dispatch(_ work: @escaping @Sendable () -> Void) {
        if let substitution = SchedulerSubstitution.currentIfInstalled {
            substitution.mainInstance.dispatch(work)
            return
        }
        if runIfAtOnce(work) != nil {
            return
        }
        _ = numberEnqueued.add(1)
        configuration.async { [self] in
            work()
            _ = numberEnqueued.add(-1)
        }
    }

    /// `dispatch { target.deliverWaiting() }`, with no closure built when the delivery
    /// runs at once.
    override func dispatchDelivery(_ target: any SerialQueueDelivery) {
        if let substitution = SchedulerSubstitution.currentIfInstalled {
            substitution.mainInstance.dispatchDelivery(target)
            return
        }
        if runIfAtOnce(target.deliverWaiting) != nil {
            return
        }
        _ = numberEnqueued.add(1)
        configuration.async { [self] in
            target.deliverWaiting()
            _ = numberEnqueued.add(-1)
        }
    }

    override var deliversInBatches: Bool { false }

    /// The run-at-once handshake, in one place: work scheduled now runs at once when
    /// on the main thread with none of this scheduler's work queued or running. Then
    /// `work` runs here, with `runningAtOnce` set meanwhile (so that what it schedules
    /// is queued behind it), and its result is returned; otherwise `nil`, and the caller
    /// queues the work.
    ///
    /// The queued work is counted in `numberEnqueued` (any thread adds, the main thread
    /// removes once the work ran); the work running at once is the main-thread-only
    /// flag, so running at once costs no atomic read-modify-write. Work scheduled by
    /// another thread always goes to the queue, whatever it reads, so reading the count
    /// before another thread's increment lands decides as if this thread came first.
    @inline(__always)
    private func runIfAtOnce<Result>(_ work: () -> Result) -> Result? {
        guard isOnMainThread, !runningAtOnce, numberEnqueued.loadRelaxed() == 0 else { return nil }
        runningAtOnce = true
        defer { runningAtOnce = false }
        return work()
    }

    /// `observe(on:)`'s direct path, the one place outside this class that takes part
    /// in the run-at-once handshake: when a delivery dispatched now would run at once
    /// (no substitution, on the main thread, none of this scheduler's work queued or
    /// running), runs `delivery` here, as the dispatched work, and returns `true`;
    /// otherwise changes nothing and returns `false`, and the caller dispatches as usual.
    @inline(__always)
    final func runDeliveryAtOnce(_ delivery: () -> Void) -> Bool {
        SchedulerSubstitution.currentIfInstalled == nil && runIfAtOnce(delivery) != nil
    }

    override func scheduleRelativeInternal<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        if let substitution = SchedulerSubstitution.current {
            return substitution.scheduler.scheduleRelative(state, dueTime: dueTime, action: action)
        }
        return super.scheduleRelativeInternal(state, dueTime: dueTime, action: action)
    }

    public override func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        if let substitution = SchedulerSubstitution.current {
            return substitution.scheduler.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
        }
        return super.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
