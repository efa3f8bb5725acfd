import Atomics

/// A one-way boolean flag, safe across threads.
package final class AtomicFlag: @unchecked Sendable {
    private let storage = ManagedAtomic<Bool>(false)

    package init() {}

    @inline(__always)
    package var isSet: Bool { storage.load(ordering: .acquiring) }

    /// Sets the flag; returns whether it was already set.
    @inline(__always)
    package func testAndSet() -> Bool {
        storage.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// The per-subscription object every operator creates: it holds the downstream
/// observer and the upstream subscription, and implements disposal once and only once.
///
/// State bits: `disposed` (nothing is forwarded afterwards), `upstreamSet` (the
/// upstream subscription is stored) and `stopped` (a terminal event was seen).
class Sink<Observer: ObserverType>: Disposable, Cancelable, @unchecked Sendable {
    final let observer: Observer
    private final let state = ManagedAtomic<Int>(0)
    private final var upstream: Disposable?

    private static var disposedBit: Int { 1 }
    private static var upstreamBit: Int { 2 }
    private static var stoppedBit: Int { 4 }

    init(observer: Observer) {
        self.observer = observer
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    final var isDisposed: Bool {
        state.load(ordering: .relaxed) & Sink.disposedBit != 0
    }

    /// Forwards an event downstream unless the sink was disposed.
    @inline(__always)
    final func forwardOn(_ event: Event<Observer.Element>) {
        if state.load(ordering: .relaxed) & Sink.disposedBit != 0 { return }
        observer.on(event)
    }

    /// Marks the sink stopped; returns `true` only for the first caller.
    final func markStopped() -> Bool {
        state.loadThenBitwiseOr(with: Sink.stoppedBit, ordering: .acquiringAndReleasing) & Sink.stoppedBit == 0
    }

    final var isStopped: Bool {
        state.load(ordering: .acquiring) & Sink.stoppedBit != 0
    }

    /// Forwards a terminal event (once) and disposes.
    final func forwardTerminal(_ event: Event<Observer.Element>) {
        guard markStopped() else { return }
        forwardOn(event)
        dispose()
    }

    /// Stores the upstream subscription; disposes it at once when the sink was
    /// already disposed (a synchronous terminal event during `subscribe`).
    final func setUpstream(_ disposable: Disposable) {
        upstream = disposable
        let previous = state.loadThenBitwiseOr(with: Sink.upstreamBit, ordering: .acquiringAndReleasing)
        if previous & Sink.disposedBit != 0 {
            upstream = nil
            disposable.dispose()
        }
    }

    /// Disposes the sink and its upstream subscription; idempotent and thread-safe.
    /// Subclasses that override it call `super.dispose()`.
    func dispose() {
        let previous = state.loadThenBitwiseOr(with: Sink.disposedBit, ordering: .acquiringAndReleasing)
        if previous & Sink.disposedBit != 0 { return }
        if previous & Sink.upstreamBit != 0 {
            let disposable = upstream
            upstream = nil
            disposable?.dispose()
        }
        disposeCore()
    }

    /// Extra clean-up run once, after the upstream subscription is disposed.
    func disposeCore() {}
}

/// A sink that forwards events unchanged (used by `asObservable`-like wrappers).
final class ForwardSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next: forwardOn(event)
        case .error, .completed: forwardTerminal(event)
        }
    }
}
