import Foundation

// What the time-based operators share besides `PlainSerializedSink`
// (PlainOperator.swift): `TimerSlot`, the slot of a sink's pending timer; the
// subscription of a sink to its source alongside a timer; the arithmetic of due times.

/// Holds the one pending timer of a sink. Each timer carries a generation number:
/// a newer timer replaces (and disposes) an older one, and an older timer stored
/// late, after a newer one, is disposed at once. So timers can be scheduled outside
/// the sink's lock, on any thread, without an older one ever displacing a newer one.
final class TimerSlot: Disposable, @unchecked Sendable {
    private struct State {
        var current: Disposable?
        var generation: UInt64 = 0
        var disposed = false
    }

    private let state = LockedState(State())

    init() {}

    /// Whether `dispose()` was called.
    var isDisposed: Bool {
        state.withLock { $0.disposed }
    }

    /// Stores the timer of `generation`, disposing whichever of the two is older.
    func set(_ timer: Disposable, generation: UInt64) {
        let older = state.withLock { state -> Disposable? in
            if state.disposed || generation < state.generation { return timer }
            let previous = state.current
            state.current = timer
            state.generation = generation
            return previous
        }
        older?.dispose()
    }

    /// Starts the timer of `generation`: `fired` runs with that generation once
    /// `dueTime` has passed on `scheduler`, unless a newer timer replaced it first.
    /// `fired` holds its sink, as RxSwift's timers do: a pending timer keeps the sink
    /// alive until it fires or the slot is disposed, so the events it owes still arrive
    /// when the subscription's disposable was dropped (`_ = just(1).delay(...).subscribe`).
    func start(_ generation: UInt64, after dueTime: RxTimeInterval, on scheduler: SchedulerType, _ fired: @escaping (UInt64) -> Void) {
        set(scheduler.scheduleRelative(generation, dueTime: dueTime) { generation in
            fired(generation)
            return Disposables.create()
        }, generation: generation)
    }

    func dispose() {
        let previous = state.withLock { state -> Disposable? in
            if state.disposed { return nil }
            state.disposed = true
            let previous = state.current
            state.current = nil
            return previous
        }
        previous?.dispose()
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

extension Date {
    /// The date `interval` later.
    func adding(_ interval: RxTimeInterval) -> Date {
        addingTimeInterval(interval.convertToSecondsInterval)
    }
}
