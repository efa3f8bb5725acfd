/// A subject that holds a current value: each new observer receives it first, then
/// every later event.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, LockedSubject, FanOutSubject, @unchecked Sendable {
    public typealias SubjectObserverType = BehaviorSubject<Element>

    /// Each observer behind a `ReplayGate`; the value is the current element.
    let lockedState: LockedPair<SubjectState, Element>

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override package convenience init() { rxUnusedInitializer() }

    /// A subject whose current value is `value`.
    public init(value: Element) {
        lockedState = LockedPair(value)
        super.init()
    }

    /// Whether the subject has observers.
    public var hasObservers: Bool { hasObserversNow }

    public var isDisposed: Bool { isDisposedNow }

    /// The current value; throws the subject's error after an error, and
    /// `RxError.disposed` after `dispose()`.
    public func value() throws -> Element {
        // Only the element comes back from the lock: a tuple of the error and an element
        // of a generic type has its metadata looked up at run time on every call (the
        // BehaviorRelay row's profile: 8% of its time, in the runtime's tuple cache).
        var failure: Swift.Error?
        let current = lockedState.withLock { state, element -> Element in
            failure = state.failure(of: self)
            return element
        }
        if let failure { throw failure }
        return current
    }

    public func on(_ event: Event<Element>) {
        route(event)
    }

    /// Makes `element` the current value and sends it to every observer (what
    /// `on(.next(element))` does, without building and switching on an `Event`).
    public func onNext(_ element: Element) {
        fanOut(keeping: { $0 = element }) { $0.passNext(element) }
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        admit(
            backlog: { _ in },
            refuse: { _, refusal in observer.on(refusal) },
            join: { state, element in
                let gate = ReplayGate(observer, replaying: true)
                return (state.observers.insert(gate), (gate, element))
            },
            open: { gate, current in gate.open(after: current) }
        )
    }

    /// The observer side of the subject.
    public func asObserver() -> BehaviorSubject<Element> {
        self
    }

    public func dispose() {
        disposeObservers { _ in }
    }
}
