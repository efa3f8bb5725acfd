import Atomics

/// A one-way boolean flag, safe across threads.
package final class AtomicFlag: @unchecked Sendable {
    // `UnsafeAtomic` inlines to plain atomic instructions; `ManagedAtomic`'s accessor
    // is an out-of-line call on every access from generic code.
    private let storage = UnsafeAtomic<Bool>.create(false)

    package init() {}

    deinit {
        storage.destroy()
    }

    @inline(__always)
    package var isSet: Bool { storage.load(ordering: .acquiring) }

    /// Sets the flag; returns whether it was already set.
    @inline(__always)
    package func testAndSet() -> Bool {
        storage.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// Implemented by Rivulet's own observers (sinks, subscribe's observer): a direct
/// path for elements that skips `Event`. In code generic over the element type, every
/// `Event<Element>` built or switched on costs a generic-metadata lookup and enum
/// value-witness calls; the direct path costs one protocol-method call.
package protocol ElementForwarding: AnyObject {
    /// Whether `receiveNext` takes elements of type `T`.
    func acceptsElements<T>(of type: T.Type) -> Bool
    /// Receives one element of the type `acceptsElements` accepted.
    func receiveNext<T>(_ element: T)
}

/// The direct element path into `observer`, when it offers one for its element type.
@inline(__always)
package func directPath<Observer: ObserverType>(of observer: Observer) -> ElementForwarding? {
    guard let forwarding = observer as? ElementForwarding,
          forwarding.acceptsElements(of: Observer.Element.self) else { return nil }
    return forwarding
}

// The state bits of a sink. File-level constants: a static member of the generic
// `Sink` would need its generic metadata looked up at every use.
private let sinkDisposedBit = 1
private let sinkUpstreamBit = 2
private let sinkStoppedBit = 4

/// The per-subscription object every operator creates: it holds the downstream
/// observer and the upstream subscription, and implements disposal once and only once.
///
/// State bits: `disposed` (nothing is forwarded afterwards), `upstreamSet` (the
/// upstream subscription is stored) and `stopped` (a terminal event was seen).
class Sink<Observer: ObserverType>: Disposable, Cancelable, @unchecked Sendable {
    final let observer: Observer
    /// The downstream observer's direct element path, if it has one.
    private final let downstreamNext: ElementForwarding?
    private final let state = UnsafeAtomic<Int>.create(0)
    private final var upstream: Disposable?
    /// Set only while a test kit tracks subscriptions (see Tracking.swift).
    private final var tracking: RxTrackingToken?

    init(observer: Observer) {
        self.observer = observer
        self.downstreamNext = directPath(of: observer)
        Resources.incrementTotal()
        tracking = RxTracking.open(.sink(type(of: self)))
    }

    deinit {
        tracking?.release()
        state.destroy()
        Resources.decrementTotal()
    }

    final var isDisposed: Bool {
        state.load(ordering: .relaxed) & sinkDisposedBit != 0
    }

    /// Forwards an event downstream unless the sink was disposed.
    @inline(__always)
    final func forwardOn(_ event: Event<Observer.Element>) {
        if state.load(ordering: .relaxed) & sinkDisposedBit != 0 { return }
        observer.on(event)
    }

    /// Forwards an element downstream unless the sink was disposed, through the
    /// downstream's direct path when it has one.
    @inline(__always)
    final func forwardNext(_ element: Observer.Element) {
        if state.load(ordering: .relaxed) & sinkDisposedBit != 0 { return }
        if let downstreamNext {
            downstreamNext.receiveNext(element)
        } else {
            forwardNextAsEvent(element)
        }
    }

    /// Out of line: building an `Event` needs its generic metadata, which would
    /// otherwise be looked up on entry of every caller.
    @inline(never)
    private final func forwardNextAsEvent(_ element: Observer.Element) {
        observer.on(.next(element))
    }

    /// Ends the sequence with `error` (out of line, for the same reason).
    @inline(never)
    final func forwardError(_ error: Swift.Error) {
        forwardTerminal(.error(error))
    }

    /// Marks the sink stopped; returns `true` only for the first caller.
    final func markStopped() -> Bool {
        state.loadThenBitwiseOr(with: sinkStoppedBit, ordering: .acquiringAndReleasing) & sinkStoppedBit == 0
    }

    final var isStopped: Bool {
        state.load(ordering: .acquiring) & sinkStoppedBit != 0
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
        let previous = state.loadThenBitwiseOr(with: sinkUpstreamBit, ordering: .acquiringAndReleasing)
        if previous & sinkDisposedBit != 0 {
            upstream = nil
            disposable.dispose()
        }
    }

    /// Disposes the sink and its upstream subscription; idempotent and thread-safe.
    /// Subclasses that override it call `super.dispose()`.
    func dispose() {
        let previous = state.loadThenBitwiseOr(with: sinkDisposedBit, ordering: .acquiringAndReleasing)
        if previous & sinkDisposedBit != 0 { return }
        tracking?.dispose()
        if previous & sinkUpstreamBit != 0 {
            let disposable = upstream
            upstream = nil
            disposable?.dispose()
        }
        disposeCore()
    }

    /// Extra clean-up run once, after the upstream subscription is disposed.
    func disposeCore() {}
}

/// A sink that forwards events unchanged (used by `create`-like wrappers).
final class ForwardSink<Observer: ObserverType>: Sink<Observer>, ObserverType, ElementForwarding, @unchecked Sendable {
    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next(let element): forwardNext(element)
        case .error, .completed: forwardTerminal(event)
        }
    }

    func acceptsElements<T>(of type: T.Type) -> Bool {
        T.self == Observer.Element.self
    }

    func receiveNext<T>(_ element: T) {
        forwardNext(unsafeBitCast(element, to: Observer.Element.self))
    }
}
