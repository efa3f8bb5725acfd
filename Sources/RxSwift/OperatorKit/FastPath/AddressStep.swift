/// The address path's unit of work: an operator's step.
///
/// `map`, `filter`, `scan` and `subscribe(onNext:)` are inlinable, so each builds its
/// per-element step where the element types are known, in the module that calls them,
/// fully specialised. Between such stages an element travels by address
/// (`receive(at:)`, valid only during the call) and each stage runs its step: no
/// value-witness copies, no conversion thunks around the user's closures.
///
/// A step is the operator's only body: its sink runs it for elements that arrive by
/// address and, taking the element's address, for elements that arrive by value (see
/// `SpecializedSink`). Contract: a step reads the element with
/// `assumingMemoryBound(to:)` at the type its operator was built for (the sink accepts
/// only that type), never keeps the pointer after it returns, passes its result on
/// through `forward(at:)` of the sink it is given, and returns what the user's closure
/// threw. It returns the error rather than throwing it: a call that may throw keeps a
/// register for the error, and the sinks that run steps then save and restore one more
/// register for every element.
@usableFromInline
typealias AddressStep = (UnsafeRawPointer, ObserverBase) -> Swift.Error?

/// An `AddressStep` that may be absent. A struct rather than an optional function: a
/// function stored in an `Optional` is kept in its most general form, and converting
/// it back and forth allocates a thunk.
@usableFromInline
struct OptionalAddressStep {
    @usableFromInline let step: AddressStep
    @usableFromInline let isPresent: Bool

    @usableFromInline
    init(_ step: @escaping AddressStep) {
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
    static var none: OptionalAddressStep { OptionalAddressStep() }
}
