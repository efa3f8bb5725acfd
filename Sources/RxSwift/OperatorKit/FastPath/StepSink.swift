/// Fusion: the sink of `map` and `filter`, which runs its operator's step and, fused,
/// the step of a `map` or `filter` applied to it.
///
/// When a `map` or `filter` is applied to another, unfused, one and the downstream
/// takes elements by address, one sink serves both (`SpecializedProducer` decides): it
/// runs its own step, then the second operator's (`tail`), then passes the result on.
/// That is one sink, one upstream subscription and one disposal fewer per
/// subscription, and one hop fewer per element.
/// Each step still checks for disposal before it runs and before it passes on, as two
/// sinks would.
///
/// The value path: `map` and `filter` override `receiveNext` to call their closure on
/// the value and pass the result on with `forwardResult`. Where they are not
/// specialised (an operator of another module that calls them, as RxCocoa's `Driver`
/// does), running the step on the value's address costs a third more instructions per
/// element (benchmark row 10), so this is the one place where an operator's logic is
/// written twice: the step and the override next to it, in the same file.
///
/// Contract: `Output` is the type of this sink's own result. With a `tail` the
/// downstream takes addresses, so `Output` is never read: the `tail`'s result travels
/// by address only.
@usableFromInline
class StepSink<Input, Output>: SpecializedSink<Input, Output>, @unchecked Sendable {
    private final let step: AddressStep
    /// The fused second step, if any.
    private final let tail: OptionalAddressStep
    /// Whether `forward(at:)` is called by `tail` rather than by `step`. Touched only
    /// while delivering an element, which the Rx grammar serialises; a delivery that
    /// re-enters this sink saves and restores it.
    @exclusivity(unchecked)
    private final var inTail = false

    /// Never called: fills the superclass's `init(downstream:)` slot (see `rxUnusedInitializer`).
    override convenience init(downstream: consuming ObserverBase) { rxUnusedInitializer() }

    @usableFromInline
    init(step: @escaping AddressStep, tail: OptionalAddressStep, downstream: consuming ObserverBase) {
        self.step = step
        self.tail = tail
        super.init(downstream: downstream)
    }

    override final func receive(at element: UnsafeRawPointer) {
        if isDisposed { return }
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
        if isDisposed { return }
        guard tail.isPresent, !inTail else {
            passOn(at: element)
            return
        }
        inTail = true
        let error = tail.step(element, self)
        inTail = false
        if let error { forwardError(error) }
    }

    /// Passes on this sink's own result (an `Output`) from the value path: through the
    /// fused step when there is one.
    @inline(__always)
    final func forwardResult<T>(_ result: T) {
        if !tail.isPresent {
            if isDisposed { return }
            downstream.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.receiveNext(result) }
            return
        }
        let outer = inTail
        inTail = false
        withUnsafePointer(to: result) { forward(at: $0) }
        inTail = outer
    }
}
