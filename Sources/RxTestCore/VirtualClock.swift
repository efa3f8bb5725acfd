import Foundation
import RxSwift

/// A `Clock` whose time is a `TestScheduler`'s virtual clock: `sleep` returns when the
/// scheduler reaches the deadline, and `now` is the scheduler's tick times its resolution.
///
/// Obtain it from ``TestScheduler/asyncClock`` and hand it to code that takes a
/// `some Clock<Duration>`; drive it with the scheduler's asynchronous
/// ``TestScheduler/advance(byTicks:)``, ``TestScheduler/advance(toTick:)``,
/// ``TestScheduler/advance(by:)`` and ``TestScheduler/run()``.
///
/// ```swift
/// let clock = scheduler.asyncClock
/// async let beat: Void = clock.sleep(for: .seconds(2))
/// await scheduler.advance(byTicks: 2) // the sleep returns at tick 2, before advance does
/// ```
///
/// One tick stands for `resolution` seconds, rounded to whole nanoseconds. A deadline
/// between two ticks is reached at the later one, so a sleep never returns early.
public struct VirtualClock: Clock, Sendable {
    /// A point on the virtual time line: the time elapsed since tick 0.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// The time since tick 0.
        public var offset: Swift.Duration

        /// The instant `offset` after tick 0.
        public init(offset: Swift.Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Swift.Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        public func duration(to other: Instant) -> Swift.Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        public var description: String {
            "VirtualClock.Instant(\(offset))"
        }
    }

    /// The scheduler whose clock this is.
    public let scheduler: TestScheduler

    /// The clock of `scheduler`.
    public init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// The scheduler's current tick as an instant.
    public var now: Instant {
        instant(ofTick: scheduler.clock)
    }

    /// One tick.
    public var minimumResolution: Swift.Duration {
        .nanoseconds(tickNanoseconds)
    }

    /// Suspends until the scheduler's clock reaches `deadline` (the first tick at or
    /// after it); returns at once for a deadline already reached.
    ///
    /// The sleep is an action on the scheduler at that tick: when the scheduler runs it,
    /// the sleeping task is resumed, and an asynchronous `advance` waits until that task
    /// has run as far as it can before running the next action.
    ///
    /// - Throws: `CancellationError` when the task is cancelled, before or during the
    ///   sleep (the scheduled action is then disposed).
    public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        try Task.checkCancellation()
        let tick = firstTick(atOrAfter: deadline)
        if tick <= scheduler.clock {
            return
        }
        let sleeper = VirtualSleep()
        let scheduler = self.scheduler
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                guard sleeper.install(continuation) else { return }
                sleeper.attach(scheduler.scheduleAbsoluteVirtual((), time: tick) { _ in
                    sleeper.wake()
                    return Disposables.create()
                })
            }
        } onCancel: {
            sleeper.cancel()
        }
    }

    /// The virtual time of `tick`.
    public func instant(ofTick tick: TestTime) -> Instant {
        Instant(offset: .nanoseconds(Int64(tick) * tickNanoseconds))
    }

    /// The first tick whose time is `instant` or later.
    public func firstTick(atOrAfter instant: Instant) -> TestTime {
        let (seconds, attoseconds) = instant.offset.components
        let wholeNanoseconds = attoseconds / 1_000_000_000
        let partial: Int64 = attoseconds % 1_000_000_000 > 0 ? 1 : 0
        let nanoseconds = seconds * 1_000_000_000 + wholeNanoseconds + partial
        let tick = nanoseconds >= 0
            ? (nanoseconds + tickNanoseconds - 1) / tickNanoseconds
            : -((-nanoseconds) / tickNanoseconds)
        return TestTime(tick)
    }

    private var tickNanoseconds: Int64 {
        scheduler.tickNanoseconds
    }
}

extension VirtualClock: CustomStringConvertible {
    public var description: String {
        "VirtualClock(tick: \(scheduler.clock), resolution: \(scheduler.resolution) s)"
    }
}

extension TestScheduler {
    /// The scheduler's time as a `Clock` for Swift concurrency (the name `clock` is the
    /// current tick, as in RxSwift): code sleeping on it wakes as the scheduler advances.
    public var asyncClock: VirtualClock {
        VirtualClock(scheduler: self)
    }

    /// One tick in whole nanoseconds.
    var tickNanoseconds: Int64 {
        let nanoseconds = (resolution * 1_000_000_000).rounded()
        precondition(nanoseconds >= 1, "Rivulet: VirtualClock needs a resolution of at least one nanosecond, got \(resolution) s.")
        return Int64(nanoseconds)
    }

    /// Runs every action due up to `time` in time order, then sets the clock to `time`;
    /// after each action, waits until the tasks of the virtual-time test have done all
    /// they can (see ``VirtualClock``), so async code resumed by the action runs at the
    /// action's tick.
    ///
    /// ```swift
    /// await scheduler.advance(toTick: 300)
    /// ```
    ///
    /// The tick forms are named `advance(toTick:)` and `advance(byTicks:)`, not
    /// `advance(to:)` and `advance(by:)`: RxSwift's `TestScheduler` has neither, and a
    /// synchronous `advance(by:)` of a user's own extension must still be the one an
    /// `async` test calls with a number.
    public func advance(toTick time: TestTime) async {
        let start = clock
        precondition(time >= start, "Rivulet: advance(toTick: \(time)) cannot move the clock back: it is already at \(start).")
        precondition(!isRunning, "Rivulet: advance(toTick: \(time)) was called while the scheduler is running (from inside a scheduled action).")
        await executor.waitUntilIdle()
        while let due = nextActionTime, due <= time {
            guard runNextAction(until: time) else { break }
            await executor.waitUntilIdle()
        }
        let now = clock
        if now < time {
            sleep(time - now)
        }
    }

    /// Moves the clock `ticks` ticks forward as ``advance(toTick:)`` does.
    public func advance(byTicks ticks: TestTime) async {
        precondition(ticks >= 0, "Rivulet: advance(byTicks: \(ticks)) needs 0 ticks or more.")
        await advance(toTick: clock + ticks)
    }

    /// Moves the clock forward by `duration` (rounded up to whole ticks) as
    /// ``advance(toTick:)`` does.
    public func advance(by duration: Swift.Duration) async {
        precondition(duration >= .zero, "Rivulet: advance(by: \(duration)) needs a duration of 0 or more.")
        let clock = asyncClock
        await advance(toTick: clock.firstTick(atOrAfter: clock.now.advanced(by: duration)))
    }

    /// Runs every pending action, in time order, until none is left, waiting after each
    /// one for the test's tasks as ``advance(toTick:)`` does: the asynchronous `start()`.
    ///
    /// Like `start()`, it does not return while a periodic timer is still scheduled.
    public func run() async {
        precondition(!isRunning, "Rivulet: run() was called while the scheduler is running (from inside a scheduled action).")
        await executor.waitUntilIdle()
        while runNextAction() {
            await executor.waitUntilIdle()
        }
    }

    /// The test scheduler installed by the `.virtualTime` trait or `withVirtualTime`
    /// for the current task.
    ///
    /// Reading it elsewhere is misuse: inside a test, the test fails with a message
    /// saying so and gets a new scheduler of its own, unconnected to the main
    /// schedulers; outside a test, the program stops with that message. Use
    /// ``currentIfInstalled`` to ask.
    public static var current: TestScheduler {
        guard let scheduler = currentIfInstalled else {
            rxMisuse("TestScheduler.current was read outside a virtual-time test: add the .virtualTime trait to the test, or run the code inside withVirtualTime { scheduler in ... }.")
            return TestScheduler(initialClock: 0)
        }
        return scheduler
    }

    /// The test scheduler installed for the current task, or `nil` outside a
    /// virtual-time test.
    public static var currentIfInstalled: TestScheduler? {
        TestKitHooks.SchedulerSubstitution.current?.scheduler as? TestScheduler
    }
}

/// One sleep on a `VirtualClock`: the continuation, the scheduled wake-up and whether it
/// was cancelled. Transitions run under the lock; resuming and disposing happen after.
final class VirtualSleep: @unchecked Sendable {
    private enum State {
        case idle
        case sleeping(CheckedContinuation<Void, Error>, Disposable?)
        case done
        case cancelled
    }

    private let state = LockedState(State.idle)

    /// Installs the continuation; resumes it with `CancellationError` and returns `false`
    /// when the task was cancelled first.
    func install(_ continuation: CheckedContinuation<Void, Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            if case .cancelled = state {
                state = .done
                return true
            }
            state = .sleeping(continuation, nil)
            return false
        }
        if cancelled {
            continuation.resume(throwing: CancellationError())
        }
        return !cancelled
    }

    /// Keeps the scheduled wake-up so that a cancellation can dispose it.
    func attach(_ wakeUp: Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            guard case .sleeping(let continuation, nil) = state else { return true }
            state = .sleeping(continuation, wakeUp)
            return false
        }
        if disposeNow {
            wakeUp.dispose()
        }
    }

    /// The deadline was reached.
    func wake() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Error>? in
            guard case .sleeping(let continuation, _) = state else { return nil }
            state = .done
            return continuation
        }
        continuation?.resume()
    }

    /// The task was cancelled.
    func cancel() {
        let pending = state.withLock { state -> (CheckedContinuation<Void, Error>, Disposable?)? in
            switch state {
            case .idle:
                state = .cancelled
                return nil
            case .sleeping(let continuation, let wakeUp):
                state = .done
                return (continuation, wakeUp)
            case .done, .cancelled:
                return nil
            }
        }
        if let (continuation, wakeUp) = pending {
            wakeUp?.dispose()
            continuation.resume(throwing: CancellationError())
        }
    }
}
