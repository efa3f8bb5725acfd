import Foundation

// What the time-based operators share besides `SerializedSink`
// (Internal/Delivery/SerializedSink.swift): the slot of a sink's pending timer, and
// the arithmetic of due times.

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
