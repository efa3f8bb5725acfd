/// Root class of Rivulet's own observers (every sink, subscribe's observer): a direct
/// path for events that skips `Event`. In code generic over the element type, every
/// `Event<Element>` built or switched on costs a generic-metadata lookup and enum
/// value-witness calls; the direct path costs one virtual call. A class rather than a
/// protocol: finding it is a class cast, not a protocol-conformance lookup.
///
/// The address path: `map`, `filter`, `scan` and `subscribe(onNext:)` are inlinable, so
/// each builds its per-element step where the element types are known, in the module
/// that calls them, fully specialised. Between such stages an element travels by
/// address (`receive(at:)`), valid only during the call, and each stage runs its
/// specialised step: no value-witness copies, no conversion thunks around the user's
/// closures. Every other observer keeps the generic direct path.
@usableFromInline
class DirectObserver: @unchecked Sendable {
    init() {}

    /// Whether this observer takes elements by address through `receive(at:)`.
    /// Decided when it is made, before anything upstream asks.
    @usableFromInline
    var takesElementAddresses: Bool { false }

    /// Receives one element by address; the pointer is valid only during the call.
    @usableFromInline
    func receive(at element: UnsafeRawPointer) {
        rxAbstractMethod()
    }

    /// Called by this observer's own step: passes the element at `element` downstream
    /// by address, unless the observer was disposed meanwhile.
    @usableFromInline
    func forward(at element: UnsafeRawPointer) {
        rxAbstractMethod()
    }

    /// Whether this observer takes elements of type `T` through `receiveNext` (and its
    /// terminal events through `receiveCompleted` / `receiveError`).
    func acceptsElements<T>(of type: T.Type) -> Bool { false }

    /// Receives one element of the type `acceptsElements` accepted.
    func receiveNext<T>(_ element: T) {
        rxAbstractMethod()
    }

    /// Receives `completed`.
    func receiveCompleted() {
        rxAbstractMethod()
    }

    /// Receives `error`.
    func receiveError(_ error: Swift.Error) {
        rxAbstractMethod()
    }
}

/// The observer that fills a vacated slot of a list of observers (a `Bag`'s vacancy):
/// it takes every element and terminal event and does nothing with them, so a walk
/// over the list needs no test per slot.
final class VacantObserver: DirectObserver, @unchecked Sendable {
    /// The one instance every list shares.
    static let shared = VacantObserver()

    override var takesElementAddresses: Bool { true }
    override func receive(at element: UnsafeRawPointer) {}
    override func acceptsElements<T>(of type: T.Type) -> Bool { true }
    override func receiveNext<T>(_ element: T) {}
    override func receiveCompleted() {}
    override func receiveError(_ error: Swift.Error) {}
}

/// The direct path into `observer`, when it offers one for its element type.
///
/// The type is checked first: a metatype cast walks the class chain, where casting the
/// value would go through the general dynamic cast.
@inline(__always)
func directPath<Observer: ObserverType>(of observer: Observer) -> DirectObserver? {
    unretainedDirectPath(of: observer)?.takeUnretainedValue()
}

/// `directPath(of:)` without a retain: valid while `observer` is alive.
@inline(__always)
func unretainedDirectPath<Observer: ObserverType>(of observer: Observer) -> Unmanaged<DirectObserver>? {
    guard Observer.self is DirectObserver.Type else { return nil }
    // `Observer` is a class deriving from DirectObserver: its value is that reference,
    // which `observer` keeps alive while it is asked.
    let direct = unsafeBitCast(observer, to: Unmanaged<DirectObserver>.self)
    guard direct._withUnsafeGuaranteedRef({ $0.acceptsElements(of: Observer.Element.self) }) else { return nil }
    return direct
}

/// The step of `map` and `filter` for one element, built specialised by the inlinable
/// operator: reads the element at the address, runs the user's closure, and passes the
/// result on through `forward(at:)` of the sink it is given. Returns what the closure
/// threw.
@usableFromInline
typealias ElementStep = (UnsafeRawPointer, DirectObserver) -> Swift.Error?

/// An `ElementStep` that may be absent. A struct rather than an optional function: a
/// function stored in an `Optional` is kept in its most general form, and converting
/// it back and forth allocates a thunk.
@usableFromInline
struct OptionalStep {
    @usableFromInline let step: ElementStep
    @usableFromInline let isPresent: Bool

    @usableFromInline
    init(_ step: @escaping ElementStep) {
        self.step = step
        isPresent = true
    }

    @usableFromInline
    init() {
        step = { _, _ in nil }
        isPresent = false
    }

    /// No step. Computed: the closure captures nothing, so making it allocates nothing.
    @inlinable
    static var none: OptionalStep { OptionalStep() }
}

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
/// of `map`, `filter` and `scan` derive from `DirectSink` and are made, where the
/// element types are known, by their inlinable operators. Their type then comes from the
/// caller's cache, with no lookup in the runtime's generic metadata per subscription.
@usableFromInline
class SinkCore: DirectObserver, Disposable, Cancelable, @unchecked Sendable {
    /// The downstream observer's direct path, if it has one. It is held strongly
    /// elsewhere (by `Sink.observer` or `DirectSink`), so it is kept unretained here: a
    /// call through it then costs no reference counting.
    private final let downstream: Unmanaged<DirectObserver>?
    private final let state = InlineAtomicInt(0)
    /// Not optional: destroying an optional existential goes through `Optional`'s
    /// generic value witnesses; a plain existential is destroyed through its own.
    @exclusivity(unchecked)
    private final var upstream: Disposable = NopDisposable()
    /// Set only while a test kit tracks subscriptions (see Tracking.swift).
    private final var tracking: RxTrackingToken?

    init(downstream: Unmanaged<DirectObserver>?) {
        self.downstream = downstream
        super.init()
        Resources.incrementTotal()
        if RxTracking.isActive {
            tracking = RxTracking.open(.sink(type(of: self)))
        }
    }

    deinit {
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

    /// Passes an element on through the downstream's direct path, unless the sink was
    /// disposed; `sendAsEvent` runs when the downstream has no direct path.
    @inline(__always)
    final func forwardNext<T>(_ element: T, orElse sendAsEvent: (T) -> Void) {
        if state.loadRelaxed() & sinkDisposedBit != 0 { return }
        if let downstream {
            downstream._withUnsafeGuaranteedRef { $0.receiveNext(element) }
        } else {
            sendAsEvent(element)
        }
    }

    /// Passes an element on by address, unless the sink was disposed. Only sinks whose
    /// downstream takes addresses run steps that call it.
    override func forward(at element: UnsafeRawPointer) {
        if state.loadRelaxed() & sinkDisposedBit != 0 { return }
        passDownstream(at: element)
    }

    /// Passes an element on by address, without the disposal check.
    @inline(__always)
    final func passDownstream(at element: UnsafeRawPointer) {
        downstream.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.receive(at: element) }
    }

    /// Whether the sink was disposed, for the address path's steps.
    @inline(__always)
    final var skipsElements: Bool {
        state.loadRelaxed() & sinkDisposedBit != 0
    }

    /// Ends the sequence with `error` (once), through the direct path when there is
    /// one, then disposes.
    final func forwardError(_ error: Swift.Error) {
        guard markStopped() else { return }
        if !isDisposed {
            if let downstream {
                downstream._withUnsafeGuaranteedRef { $0.receiveError(error) }
            } else {
                sendErrorAsEvent(error)
            }
        }
        dispose()
    }

    /// Completes the sequence (once), through the direct path when there is one, then
    /// disposes.
    final func forwardCompleted() {
        guard markStopped() else { return }
        if !isDisposed {
            if let downstream {
                downstream._withUnsafeGuaranteedRef { $0.receiveCompleted() }
            } else {
                sendCompletedAsEvent()
            }
        }
        dispose()
    }

    /// Sends `error` to a downstream without a direct path (see `Sink`).
    func sendErrorAsEvent(_ error: Swift.Error) {
        rxAbstractMethod()
    }

    /// Sends `completed` to a downstream without a direct path (see `Sink`).
    func sendCompletedAsEvent() {
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
        upstream = disposable
        let previous = state.fetchOr(sinkUpstreamBit)
        if previous & sinkDisposedBit != 0 {
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

    init(observer: consuming Observer) {
        let direct = unretainedDirectPath(of: observer)
        self.observer = consume observer
        super.init(downstream: direct)
    }

    /// Forwards an event downstream unless the sink was disposed.
    @inline(__always)
    final func forwardOn(_ event: Event<Observer.Element>) {
        if isDisposed { return }
        observer.on(event)
    }

    /// Forwards an element downstream unless the sink was disposed, through the
    /// downstream's direct path when it has one.
    @inline(__always)
    final func forwardNext(_ element: Observer.Element) {
        forwardNext(element) { forwardNextAsEvent($0) }
    }

    /// Out of line: building an `Event` needs its generic metadata, which would
    /// otherwise be looked up on entry of every caller.
    @inline(never)
    private final func forwardNextAsEvent(_ element: Observer.Element) {
        observer.on(.next(element))
    }

    /// Builds the `Event` here, out of line: its metadata is then looked up only
    /// here, not on entry of every `forwardError`.
    override final func sendErrorAsEvent(_ error: Swift.Error) {
        observer.on(.error(error))
    }

    /// Builds the `Event` here (see `sendErrorAsEvent`).
    override final func sendCompletedAsEvent() {
        observer.on(.completed)
    }

    /// Forwards a terminal event (once) and disposes.
    final func forwardTerminal(_ event: Event<Observer.Element>) {
        guard markStopped() else { return }
        forwardOn(event)
        dispose()
    }
}

/// A sink whose downstream always has a direct path: `DirectObserver.adapting(_:)`
/// gives one for any observer. Its subclasses are generic over element types only.
@usableFromInline
class DirectSink: SinkCore, @unchecked Sendable {
    /// Keeps the downstream alive; `SinkCore` calls it unretained.
    private final let retainedDownstream: DirectObserver
    /// Every direct sink runs a step its operator built for the address path, so it
    /// takes elements by address exactly when its downstream does.
    private final let byAddress: Bool

    @usableFromInline
    init(downstream: consuming DirectObserver) {
        let unretained = Unmanaged.passUnretained(downstream)
        byAddress = downstream.takesElementAddresses
        retainedDownstream = consume downstream
        super.init(downstream: unretained)
    }

    override final var takesElementAddresses: Bool { byAddress }

    /// Passes an element on through the direct path, unless the sink was disposed.
    @inline(__always)
    final func forwardNext<T>(direct element: T) {
        forwardNext(element) { _ in }
    }
}

/// A `DirectSink` taking elements of type `Input`: the terminal calls and `Event`s
/// from upstreams without a direct path arrive here, and `Event`s go to `receiveNext`.
@usableFromInline
class DirectSinkOf<Input>: DirectSink, ObserverType, @unchecked Sendable {
    override final func acceptsElements<T>(of type: T.Type) -> Bool {
        T.self == Input.self
    }

    override final func receiveCompleted() {
        forwardCompleted()
    }

    override final func receiveError(_ error: Swift.Error) {
        forwardError(error)
    }

    @usableFromInline
    final func on(_ event: Event<Input>) {
        switch event {
        case .next(let element):
            receiveNext(element)
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}

/// A `DirectSink` whose address-path step (`map`'s, `filter`'s) reads the element at
/// an address and passes its result on through `forward(at:)`.
///
/// Fusion: when a `map` or `filter` is applied to another one and the downstream takes
/// elements by address, one sink serves both. It runs its own step, then the second
/// operator's (`tail`), then passes the result on: one sink, one upstream subscription
/// and one disposal fewer per subscription, and one hop fewer per element. Each step
/// still checks for disposal before it runs and before it passes on, as two sinks would.
@usableFromInline
class ElementStepSink<Input>: DirectSinkOf<Input>, @unchecked Sendable {
    /// Run only when the downstream takes addresses.
    private final let step: ElementStep
    /// The fused second step, if any; the downstream then takes addresses.
    private final let tail: OptionalStep
    /// Whether `forward(at:)` is called by `tail` rather than by `step`. Touched only
    /// while delivering an element, which the Rx grammar serialises; a delivery that
    /// re-enters this sink saves and restores it.
    @exclusivity(unchecked)
    private final var inTail = false

    init(step: @escaping ElementStep, tail: OptionalStep, downstream: consuming DirectObserver) {
        self.step = step
        self.tail = tail
        super.init(downstream: downstream)
    }

    override final func receive(at element: UnsafeRawPointer) {
        if skipsElements { return }
        if !tail.isPresent {
            if let error = step(element, self) { forwardError(error) }
            return
        }
        let outer = inTail
        inTail = false
        if let error = step(element, self) { forwardError(error) }
        inTail = outer
    }

    override final func forward(at element: UnsafeRawPointer) {
        if skipsElements { return }
        guard tail.isPresent, !inTail else {
            passDownstream(at: element)
            return
        }
        inTail = true
        let error = tail.step(element, self)
        inTail = false
        if let error { forwardError(error) }
    }

    /// Passes on the result of this sink's own operator, taken from the value path:
    /// through the fused step when there is one.
    @inline(__always)
    final func forwardStepped<T>(_ element: T) {
        if !tail.isPresent {
            forwardNext(direct: element)
            return
        }
        let outer = inTail
        inTail = false
        withUnsafePointer(to: element) { forward(at: $0) }
        inTail = outer
    }
}

/// The observable of an operator whose inlinable function builds, where the element
/// types are known, the way to subscribe its `DirectSink` (`map`, `filter`, `scan`):
/// the sink's type then comes from the caller's cache.
///
/// A `map` or `filter` (those with an `elementStep`) applied to another, unfused, one
/// fuses into it: subscribed with a downstream that takes addresses, it has its source
/// make one sink for both (see `ElementStepSink`). Runs fuse in pairs.
@usableFromInline
class SinkMakingProducer<Source, Element>: Producer<Element>, @unchecked Sendable {
    @usableFromInline final let source: Observable<Source>
    /// The step of `map` and `filter`; absent for other operators.
    @usableFromInline final let elementStep: OptionalStep
    /// Whether this operator runs its step in its source's sink.
    private final let fusesIntoSource: Bool
    /// Called with `self`, which it may take as the subclass that built it, and the
    /// step of a fused operator applied to it.
    private final let subscribeSink: (SinkMakingProducer, consuming DirectObserver, OptionalStep) -> Disposable

    @usableFromInline
    init(
        source: Observable<Source>,
        elementStep: OptionalStep,
        subscribe: @escaping (SinkMakingProducer, consuming DirectObserver, OptionalStep) -> Disposable
    ) {
        self.source = source
        self.elementStep = elementStep
        self.fusesIntoSource = elementStep.isPresent && source.takesFusedStep
        self.subscribeSink = subscribe
    }

    /// Subscribes without entering this thread's trampoline: the operator schedules
    /// nothing itself, and its source enters the trampoline when it needs it.
    override final func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subscribe(direct: directObserver(for: observer))
    }

    override final func subscribe<Observer: ObserverType>(_ observer: Observer, directPath direct: DirectObserver) -> Disposable where Observer.Element == Element {
        subscribe(direct: direct)
    }

    @inline(__always)
    private final func subscribe(direct: consuming DirectObserver) -> Disposable {
        if fusesIntoSource, direct.takesElementAddresses {
            return source.subscribeFused(direct, tail: elementStep)
        }
        return subscribeSink(self, direct, .none)
    }

    override final var takesFusedStep: Bool {
        elementStep.isPresent && !fusesIntoSource
    }

    override final func subscribeFused(_ downstream: DirectObserver, tail: OptionalStep) -> Disposable {
        subscribeSink(self, downstream, tail)
    }
}

/// Gives an observer without a direct path one: `receiveNext` and the terminal calls
/// become `Event`s sent to it.
final class DirectPathAdapter<Observer: ObserverType>: DirectObserver, @unchecked Sendable {
    private let observer: Observer

    init(_ observer: Observer) {
        self.observer = observer
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        T.self == Observer.Element.self
    }

    override func receiveNext<T>(_ element: T) {
        observer.on(.next(unsafeBitCast(element, to: Observer.Element.self)))
    }

    override func receiveCompleted() {
        observer.on(.completed)
    }

    override func receiveError(_ error: Swift.Error) {
        observer.on(.error(error))
    }
}

/// `observer`'s direct path: the observer itself when it has one, or an adapter.
@usableFromInline
func directObserver<Observer: ObserverType>(for observer: Observer) -> DirectObserver {
    if let direct = unretainedDirectPath(of: observer) {
        return direct.takeUnretainedValue()
    }
    return DirectPathAdapter(observer)
}

/// A sink that forwards events unchanged (used by `create`-like wrappers).
final class ForwardSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next(let element): forwardNext(element)
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        T.self == Observer.Element.self
    }

    override func receiveNext<T>(_ element: T) {
        forwardNext(unsafeBitCast(element, to: Observer.Element.self))
    }

    override func receiveCompleted() {
        forwardCompleted()
    }

    override func receiveError(_ error: Swift.Error) {
        forwardError(error)
    }
}
