/// The plain recipe for an operator's per-subscription object (see ARCHITECTURE.md,
/// "Adding an operator"): a final subclass of `Sink<Observer>`, through `PlainSink`
/// (PlainOperator.swift), that conforms to `ObserverType`, receives its source's events
/// in `on(_:)` and calls `forwardNext`, `forwardError` / `forwardCompleted`
/// (`forwardEvent` for an event in hand, `forwardLast` for a result and its
/// completion); its operator value makes it and returns `sink.observe(source)`.
///
/// `SinkCore` holds what does not depend on the observer's type; `Sink` adds the
/// observer. Elements go downstream on the direct path when the observer has one (see
/// Core/ObserverBase.swift), as `Event`s otherwise.

// The state bits of a sink. File-level constants: a static member of the generic
// `Sink` would need its generic metadata looked up at every use.
private let sinkDisposedBit = 1
private let sinkUpstreamBit = 2
private let sinkStoppedBit = 4

/// The part of every sink that does not depend on the observer's type: the downstream's
/// direct path, the upstream subscription, and disposal once and only once.
///
/// State bits: `disposed` (nothing is forwarded afterwards), `upstreamSet` (the
/// upstream subscription is stored) and `stopped` (a terminal event was seen).
///
/// Not generic, so that a sink class need not be generic over its observer: the sinks
/// of the fast path derive from it through `SpecializedSink` (FastPath/).
@usableFromInline
class SinkCore: ObserverBase, Disposable, Cancelable, @unchecked Sendable {
    /// The downstream observer's direct path, if it has one. It is held strongly
    /// elsewhere (by `Sink.observer` or `SpecializedSink`), so it is kept unretained
    /// here: a call through it then costs no reference counting.
    final let downstream: Unmanaged<ObserverBase>?
    private final let state = InlineAtomicInt(0)
    /// Not optional: destroying an optional existential goes through `Optional`'s
    /// generic value witnesses; a plain existential is destroyed through its own.
    @exclusivity(unchecked)
    private final var upstream: Disposable = NopDisposable()
    /// Set only while a test kit tracks subscriptions (see Tracking.swift).
    private final var tracking: RxTrackingToken?

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(downstream: Unmanaged<ObserverBase>?) {
        self.downstream = downstream
        super.init()
        Resources.incrementTotal()
        if RxTracking.isActive {
            tracking = RxTracking.open(.sink(type(of: self)))
        }
    }

    deinit {
        Interleaving.forget(self)
        tracking?.release()
        Resources.decrementTotal()
    }

    /// Names the operator of a sink several operators share (`timer`, `create`) for the
    /// leak check's report; nothing to do when no test kit tracks.
    @inline(__always)
    final func trackAs(_ name: @autoclosure () -> String) {
        if let tracking { tracking.rename(.named(name())) }
    }

    /// The test kit's tracker watching this subscription, if any.
    final var tracker: RxTracker? {
        tracking?.tracker
    }

    @inline(__always) @usableFromInline
    final var isDisposed: Bool {
        state.loadRelaxed() & sinkDisposedBit != 0
    }

    /// Ends the sequence with `error` (once), then disposes.
    final func forwardError(_ error: Swift.Error) {
        forwardStop(error)
    }

    /// Completes the sequence (once), then disposes.
    final func forwardCompleted() {
        forwardStop(nil)
    }

    /// Sends `error`, or `completed` when it is `nil`, once, through the direct path
    /// when there is one, then disposes. Out of line: inlined, it would cost every
    /// element-handling function that can end the sequence registers saved per call.
    @inline(never)
    private final func forwardStop(_ error: Swift.Error?) {
        guard markStopped() else { return }
        deliverStop(error)
        dispose()
    }

    /// Sends `error`, or `completed` when it is `nil`, unless the sink was disposed; the
    /// caller has marked the sink stopped and disposes it afterwards.
    @inline(__always)
    final func deliverStop(_ error: Swift.Error?) {
        if !isDisposed {
            if let downstream {
                downstream._withUnsafeGuaranteedRef {
                    if let error { $0.receiveError(error) } else { $0.receiveCompleted() }
                }
            } else {
                sendStopAsEvent(error)
            }
        }
    }

    /// Abstract: sends `error`, or `completed` when it is `nil`, to a downstream
    /// without a direct path (see `Sink`).
    func sendStopAsEvent(_ error: Swift.Error?) {
        rxAbstractMethod()
    }

    /// Marks the sink stopped; returns `true` only for the first caller.
    final func markStopped() -> Bool {
        state.fetchOr(sinkStoppedBit) & sinkStoppedBit == 0
    }

    final var isStopped: Bool {
        state.load() & sinkStoppedBit != 0
    }

    /// Stores the upstream subscription; disposes it at once when the sink was
    /// already disposed (a synchronous terminal event during `subscribe`).
    @usableFromInline
    final func setUpstream(_ disposable: Disposable) {
        if state.loadRelaxed() & sinkDisposedBit != 0 {
            // Disposed before the upstream bit was set: `dispose()` left the slot alone.
            disposable.dispose()
            return
        }
        Interleaving.access(self, at: SyncSite(#fileID, #line))
        upstream = disposable
        let previous = state.fetchOr(sinkUpstreamBit)
        if previous & sinkDisposedBit != 0 {
            Interleaving.access(self, at: SyncSite(#fileID, #line))
            upstream = NopDisposable()
            disposable.dispose()
        }
    }

    /// Disposes the sink and its upstream subscription; idempotent and thread-safe.
    /// Subclasses that override it call `super.dispose()`.
    @usableFromInline
    func dispose() {
        let previous = state.fetchOr(sinkDisposedBit)
        if previous & sinkDisposedBit != 0 { return }
        tracking?.dispose()
        if previous & sinkUpstreamBit != 0 {
            Interleaving.access(self, at: SyncSite(#fileID, #line))
            var disposable: Disposable = NopDisposable()
            swap(&disposable, &upstream)
            disposable.dispose()
        }
        disposeCore()
    }

    /// Extra clean-up run once, after the upstream subscription is disposed.
    func disposeCore() {}
}

/// The per-subscription object of most operators: a `SinkCore` that holds the
/// downstream observer, of any kind, and sends it `Event`s when it has no direct path.
class Sink<Observer: ObserverType>: SinkCore, @unchecked Sendable {
    final let observer: Observer

    /// Never called: fills the superclass's `init(downstream:)` slot (see `rxUnusedInitializer`).
    override convenience init(downstream: Unmanaged<ObserverBase>?) { rxUnusedInitializer() }

    init(observer: consuming Observer) {
        let direct = unretainedDirectPath(of: observer)
        self.observer = consume observer
        super.init(downstream: direct)
    }

    /// Forwards an element downstream unless the sink was disposed, through the
    /// downstream's direct path when it has one.
    @inline(__always)
    final func forwardNext(_ element: Observer.Element) {
        if isDisposed { return }
        if let downstream {
            downstream._withUnsafeGuaranteedRef { $0.receiveNext(element) }
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

    /// `forwardNext` for an element the sink's direct path took as a `T` (which
    /// `acceptsElements` checked is `Observer.Element`): through the downstream's direct
    /// path as it is, with no lookup of the element type (`merge`, `observe(on:)`).
    @inline(__always)
    final func forwardAcceptedNext<T>(_ element: T) {
        if let downstream {
            if !isDisposed { downstream._withUnsafeGuaranteedRef { $0.receiveNext(element) } }
        } else {
            forwardAcceptedNextAsEvent(element)
        }
    }

    /// Out of line, so that the lookup of `Observer.Element` this needs is not made on
    /// every element of the direct path.
    @inline(never)
    private final func forwardAcceptedNextAsEvent<T>(_ element: T) {
        forwardNext(unsafeSameTypeCast(element, to: Observer.Element.self))
    }

    /// Builds the `Event` here, out of line: its metadata is then looked up only
    /// here, not on entry of every `forwardError` / `forwardCompleted`.
    override final func sendStopAsEvent(_ error: Swift.Error?) {
        if let error { observer.on(.error(error)) } else { observer.on(.completed) }
    }

    /// Forwards an event in hand: its element through `forwardNext`, its end through
    /// `forwardError` or `forwardCompleted`.
    @inline(__always)
    final func forwardEvent(_ event: Event<Observer.Element>) {
        switch event {
        case .next(let element): forwardNext(element)
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }

    /// Forwards `element` and completes, as one stop (once), then disposes: for an
    /// operator whose one element is its result (`toArray`, `reduce`, `asSingle`).
    final func forwardLast(_ element: Observer.Element) {
        guard markStopped() else { return }
        forwardNext(element)
        deliverStop(nil)
        dispose()
    }
}
