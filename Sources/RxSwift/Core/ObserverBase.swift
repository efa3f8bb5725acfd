/// The base class of every observer Rivulet makes (each sink, `subscribe`'s observers,
/// the subjects' entries): the entry points of the two fast paths beside `on(_:)`.
///
/// - Direct path: `receiveNext<T>`, `receiveCompleted`, `receiveError`. No `Event` is
///   built or switched on; in code generic over the element type that saves a
///   generic-metadata lookup and enum value-witness calls per element, for one virtual
///   call. A sender asks `acceptsElements(of:)` once (see `directPath(of:)`), and then
///   sends only elements of that type: an override reads its `T` as its own element
///   type with `unsafeSameTypeCast` (UnsafeCasts.swift), sound because the two are the
///   same type, and checked to be in debug builds.
/// - Address path: `receive(at:)`. The element travels as a pointer valid only during
///   the call; the receiver reads it with `assumingMemoryBound(to:)` in a step built
///   where the element type is known (see OperatorKit/FastPath/AddressStep.swift).
///   Only an observer whose `takesElementAddresses` is `true` is sent addresses.
///
/// Contract for subclasses. `receiveNext`, `receiveCompleted` and `receiveError` are
/// abstract: an observer that answers `true` to `acceptsElements` overrides all three.
/// `receive(at:)` is abstract: one that answers `true` to `takesElementAddresses`
/// overrides it. `forward(at:)` is abstract: a sink whose step passes elements on by
/// address overrides it (`SpecializedSink`). Both answers are fixed when the observer
/// is made, before anything upstream asks.
///
/// A class rather than a protocol: finding it is a class cast, not a lookup of a
/// protocol conformance.
@usableFromInline
class ObserverBase: @unchecked Sendable {
    init() {}

    /// Whether this observer takes elements by address through `receive(at:)`.
    @usableFromInline
    var takesElementAddresses: Bool { false }

    /// Receives one element by address; the pointer is valid only during the call.
    @usableFromInline
    func receive(at element: UnsafeRawPointer) {
        rxAbstractMethod()
    }

    /// Called by this observer's own step: passes the element at `element` downstream,
    /// unless the observer was disposed meanwhile.
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

/// Whether `A` and `B` are one type: what an `acceptsElements(of:)` override answers,
/// the check behind `range`'s and the virtual-time scheduler's `Int` fast paths, and
/// `unsafeSameTypeCast`'s check in debug builds. One
/// function rather than `A.self == B.self` at each site, where the type checker would
/// try every `==` overload of the standard library.
@inline(__always)
func isSameType<A, B>(_ a: A.Type, _ b: B.Type) -> Bool {
    ObjectIdentifier(a) == ObjectIdentifier(b)
}
