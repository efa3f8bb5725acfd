/// A subject that passes each event on to the observers subscribed at that moment.
///
/// Observers that subscribe after a terminal event receive that event at once; after
/// `dispose()` they receive `RxError.disposed`.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, LockedSubject, FanOutSubject, @unchecked Sendable {
    public typealias SubjectObserverType = PublishSubject<Element>

    let lockedState = LockedPair()

    /// A new subject.
    public override init() {
        super.init()
    }

    /// Whether the subject has observers.
    public var hasObservers: Bool { hasObserversNow }

    public var isDisposed: Bool { isDisposedNow }

    /// Sends `event` to every observer.
    public func on(_ event: Event<Element>) {
        route(event)
    }

    /// Sends `element` to every observer (what `on(.next(element))` does, without
    /// building and switching on an `Event`).
    public func onNext(_ element: Element) {
        fanOut(keeping: { _ in }) { $0.passNextByAddress(element) }
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        admit(
            backlog: { _ in },
            refuse: { _, refusal in observer.on(refusal) },
            join: { state, _ in (state.join(observer), ()) },
            open: { _ in }
        )
    }

    /// The observer side of the subject.
    public func asObserver() -> PublishSubject<Element> {
        self
    }

    /// Drops every observer; later subscribers receive `RxError.disposed`.
    public func dispose() {
        disposeObservers { _ in }
    }
}
