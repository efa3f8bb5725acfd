/// Finding an observer's direct path (see Core/ObserverBase.swift); `EventObserver`, the base
/// of the internal observers that take `Event`s; and the two observers that give a
/// direct path where there is none: `EventAdapter` for an observer that takes only
/// `Event`s, `VacantObserver` for an empty slot of a list of observers.
///
/// Contract: a sender that got a direct path from these functions sends it only
/// elements of the observer's `Element` type, so the `unsafeSameTypeCast`s below (and
/// in every `receiveNext` override) convert a type to itself; debug builds check that
/// they do (Core/UnsafeCasts.swift).

/// The direct path into `observer`, when it offers one for its element type.
///
/// The type is checked first: a metatype cast walks the class chain, where casting the
/// value would go through the general dynamic cast.
@inline(__always)
func directPath<Observer: ObserverType>(of observer: Observer) -> ObserverBase? {
    unretainedDirectPath(of: observer)?.takeUnretainedValue()
}

/// `directPath(of:)` without a retain: valid while `observer` is alive.
@inline(__always)
func unretainedDirectPath<Observer: ObserverType>(of observer: Observer) -> Unmanaged<ObserverBase>? {
    guard Observer.self is ObserverBase.Type else { return nil }
    // `Observer` is a class deriving from ObserverBase: its value is that reference,
    // which `observer` keeps alive while it is asked. Debug builds check the class.
    let direct = unsafeUnretainedUpcast(observer, to: ObserverBase.self)
    guard direct._withUnsafeGuaranteedRef({ $0.acceptsElements(of: Observer.Element.self) }) else { return nil }
    return direct
}

/// `observer`'s direct path: the observer itself when it has one, or an adapter.
@usableFromInline
func directPathOrAdapter<Observer: ObserverType>(for observer: Observer) -> ObserverBase {
    if let direct = unretainedDirectPath(of: observer) {
        return direct.takeUnretainedValue()
    }
    return EventAdapter(observer)
}

extension ObserverBase {
    /// Takes `event` on the direct path: what an observer's `on(_:)` does when its
    /// element type is `Element` and it handles events only through the direct path.
    @inline(__always)
    final func receiveEvent<Element>(_ event: Event<Element>) {
        switch event {
        case .next(let element): receiveNext(element)
        case .error(let error): receiveError(error)
        case .completed: receiveCompleted()
        }
    }
}

/// The base of an internal observer that handles its events in `on(_:)`: it accepts
/// its own element type on the direct path and turns each call into the `Event` for
/// `on`, so a sender reaches it without an `EventAdapter`.
class EventObserver<Element>: ObserverBase, ObserverType, @unchecked Sendable {
    override final func acceptsElements<T>(of type: T.Type) -> Bool {
        isSameType(T.self, Element.self)
    }

    override final func receiveNext<T>(_ element: T) {
        on(.next(unsafeSameTypeCast(element, to: Element.self)))
    }

    override final func receiveCompleted() {
        on(.completed)
    }

    override final func receiveError(_ error: Swift.Error) {
        on(.error(error))
    }

    /// Abstract: takes one event.
    func on(_ event: Event<Element>) {
        rxAbstractMethod()
    }
}

/// Gives an observer that takes only `Event`s a direct path: `receiveNext` and the
/// terminal calls become `Event`s sent to it.
final class EventAdapter<Observer: ObserverType>: ObserverBase, @unchecked Sendable {
    private let observer: Observer

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(_ observer: Observer) {
        self.observer = observer
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        isSameType(T.self, Observer.Element.self)
    }

    override func receiveNext<T>(_ element: T) {
        observer.on(.next(unsafeSameTypeCast(element, to: Observer.Element.self)))
    }

    override func receiveCompleted() {
        observer.on(.completed)
    }

    override func receiveError(_ error: Swift.Error) {
        observer.on(.error(error))
    }
}

/// The observer that fills a vacated slot of a list of observers (a `Bag`'s vacancy):
/// it takes every element, by value or by address, and every terminal event, and does
/// nothing with them, so a walk over the list needs no test per slot.
final class VacantObserver: ObserverBase, @unchecked Sendable {
    /// The one instance every list shares.
    static let shared = VacantObserver()

    override var takesElementAddresses: Bool { true }
    override func receive(at element: UnsafeRawPointer) {}
    override func acceptsElements<T>(of type: T.Type) -> Bool { true }
    override func receiveNext<T>(_ element: T) {}
    override func receiveCompleted() {}
    override func receiveError(_ error: Swift.Error) {}
}
