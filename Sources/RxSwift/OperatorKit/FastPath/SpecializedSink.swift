/// The sink of an operator that opts into the fast path (`map`, `filter`, `scan`).
///
/// Generic over its element types only, not over its observer: its downstream is
/// always a `ObserverBase` (`directPathOrAdapter(for:)` gives one for any observer),
/// so the inlinable operator can make it where the element types are known and its
/// type comes from the caller's cache, with no lookup in the runtime's generic
/// metadata per subscription.
///
/// Every element goes through the operator's step (see AddressStep.swift), which is
/// the operator's only body:
/// - by address: `receive(at:)` runs the step on the address it is given;
/// - by value (`receiveNext`, `on(.next)`): the step runs on the element's address
///   (a subclass may override this, see StepSink.swift);
/// - out: the step calls `forward(at:)`, which passes the result on by address when
///   the downstream takes addresses, or reads it as an `Output` and sends it on the
///   direct path otherwise.
///
/// Contract: a subclass overrides `receive(at:)` (abstract) to run its step, checking
/// `isDisposed` first. `Output` is the type its step passes to `forward(at:)`.
/// `receiveNext`'s `T` is `Input` (`acceptsElements` accepts nothing else), so the
/// step may read the element's address as an `Input`.
@usableFromInline
class SpecializedSink<Input, Output>: SinkCore, ObserverType, @unchecked Sendable {
    /// Keeps the downstream alive; `SinkCore.downstream` calls it unretained.
    private final let retainedDownstream: ObserverBase
    private final let downstreamTakesAddresses: Bool

    /// Never called: fills the superclass's `init(downstream:)` slot (see `rxUnusedInitializer`).
    override convenience init(downstream: Unmanaged<ObserverBase>?) { rxUnusedInitializer() }

    @usableFromInline
    init(downstream: consuming ObserverBase) {
        let unretained = Unmanaged.passUnretained(downstream)
        downstreamTakesAddresses = downstream.takesElementAddresses
        retainedDownstream = consume downstream
        super.init(downstream: unretained)
    }

    /// Always: `forward(at:)` turns an address back into a value for a downstream that
    /// takes none.
    override final var takesElementAddresses: Bool { true }

    override final func acceptsElements<T>(of type: T.Type) -> Bool {
        isSameType(T.self, Input.self)
    }

    /// An element by value runs the same step, on the element's address. `MapSink` and
    /// `FilterSink` override it (see StepSink.swift).
    override func receiveNext<T>(_ element: T) {
        withUnsafePointer(to: element) { receive(at: $0) }
    }

    override final func receiveCompleted() {
        forwardCompleted()
    }

    override final func receiveError(_ error: Swift.Error) {
        forwardError(error)
    }

    @usableFromInline
    final func on(_ event: Event<Input>) {
        receiveEvent(event)
    }

    /// Passes the step's result on, unless the sink was disposed.
    override func forward(at element: UnsafeRawPointer) {
        if isDisposed { return }
        passOn(at: element)
    }

    /// Passes the `Output` at `element` on, without the disposal check.
    @inline(__always)
    final func passOn(at element: UnsafeRawPointer) {
        if downstreamTakesAddresses {
            downstream.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.receive(at: element) }
        } else {
            passOnAsValue(at: element)
        }
    }

    /// Out of line: reading an `Output` needs its generic metadata and stack space for
    /// it, which would otherwise be paid on entry of every `forward(at:)`.
    @inline(never)
    private final func passOnAsValue(at element: UnsafeRawPointer) {
        retainedDownstream.receiveNext(element.assumingMemoryBound(to: Output.self).pointee)
    }
}
