import Foundation

// What the time-based operators share besides `PlainSerializedSink`
// (PlainOperator.swift): `TimerSlot`, the slot of a sink's pending timer, kept in the
// sink's state; `TimedSink`, the sink whose state keeps one; the subscription of a sink
// to its source alongside a timer; the arithmetic of due times.

/// The one pending timer of a sink, and its generation: a plain value in the sink's
/// state, so that it changes only under the sink's one lock, in the sections that change
/// the rest of the state.
///
/// Each timer carries the generation it was started for (`advance()`, in the section
/// that decides to start it). A timer is scheduled outside the lock, since scheduling
/// may run it at once, then stored (`store(_:of:)`): the timer of the latest generation
/// replaces the one kept, which is disposed; a timer of an older generation, stored
/// late, after a newer one was started, is disposed at once; so is every timer stored
/// after `dispose()`. Whatever a section takes out of the slot is disposed by the caller
/// after unlocking. So timers can be scheduled on any thread without an older one ever
/// displacing a newer one.
struct TimerSlot {
    /// The timer kept, if any: the latest one stored of the current generation.
    private var pending: Disposable?
    /// The generation of the latest timer started: a timer that fires with another one
    /// was superseded.
    private(set) var generation: UInt64 = 0
    private var disposed = false

    init() {}

    /// Starts a newer generation, for a timer about to be scheduled; returns it.
    mutating func advance() -> UInt64 {
        generation &+= 1
        return generation
    }

    /// Stores `timer`, scheduled for `generation`; returns the timer to dispose after
    /// unlocking: the one `timer` replaces, or `timer` itself when a newer generation was
    /// started meanwhile or the slot was disposed.
    mutating func store(_ timer: Disposable, of generation: UInt64) -> Disposable? {
        if disposed || generation != self.generation { return timer }
        let previous = pending
        pending = timer
        return previous
    }

    /// Disposes the slot: returns the timer kept, to dispose after unlocking; every
    /// timer stored afterwards is disposed at once.
    mutating func dispose() -> Disposable? {
        disposed = true
        let previous = pending
        pending = nil
        return previous
    }

    /// Schedules the timer of `generation`: `fired` runs with that generation once
    /// `dueTime` has passed on `scheduler`. Call it unlocked, then store the timer.
    /// `fired` holds its sink, as RxSwift's timers do: a pending timer keeps the sink
    /// alive until it fires or is disposed, so the events it owes still arrive when the
    /// subscription's disposable was dropped (`_ = just(1).delay(...).subscribe`).
    static func schedule(_ generation: UInt64, after dueTime: RxTimeInterval, on scheduler: SchedulerType, _ fired: @escaping (UInt64) -> Void) -> Disposable {
        scheduler.scheduleRelative(generation, dueTime: dueTime) { generation in
            fired(generation)
            return Disposables.create()
        }
    }
}

/// The state of a `TimedSink`: the operator's own, with the slot of its pending timer.
protocol TimedState {
    var timer: TimerSlot { get set }
}

/// A `PlainSerializedSink` with one pending timer at a time, kept in its state
/// (`TimedState`) under its one lock; disposing the sink disposes the timer.
///
/// The sections that store and dispose the timer send nothing, so they take the lock
/// with `withLock` rather than `update`: a transition that sends claims the delivery of
/// what it queued, so no event ever waits for one of these. Disposal comes from any
/// thread, and may meet another thread's section, or its timer scheduled but not yet
/// stored: it takes the lock in turn, and the timer stored after it is disposed at once.
class TimedSink<Operator: OperatorParameters, Observer: ObserverType, State: TimedState>: PlainSerializedSink<Operator, Observer, State>, @unchecked Sendable
    where Observer.Element == Operator.Element {
    /// Starts the timer of `generation` (`TimerSlot.advance()`, in the section that
    /// decided to start it): schedules it, unlocked, then stores it in the state.
    final func startTimer(_ generation: UInt64, after dueTime: RxTimeInterval, on scheduler: SchedulerType, _ fired: @escaping (UInt64) -> Void) {
        let timer = TimerSlot.schedule(generation, after: dueTime, on: scheduler, fired)
        state.withLock { $0.value.timer.store(timer, of: generation) }?.dispose()
    }

    override final func disposeCore() {
        state.withLock { $0.value.timer.dispose() }?.dispose()
    }
}

extension ObserverType where Self: SinkCore {
    /// Subscribes this sink to `source`, with `timer` (already scheduled) as part of
    /// the subscription, and returns the sink, which is the subscription.
    func observe(_ source: Observable<Element>, alongside timer: Disposable) -> Disposable {
        let sourceSubscription = SingleAssignmentDisposable()
        setUpstream(Disposables.create(timer, sourceSubscription))
        sourceSubscription.setDisposable(source.subscribe(self))
        return self
    }
}

extension DispatchTimeInterval {
    /// Whether the interval is zero or negative (a timer for it is due at once).
    var isNowOrEarlier: Bool {
        convertToSecondsInterval <= 0
    }
}
