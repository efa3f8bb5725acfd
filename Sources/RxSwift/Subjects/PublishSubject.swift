/// A subject that passes each event on to the observers subscribed at that moment.
///
/// Observers that subscribe after a terminal event receive that event at once; after
/// `dispose()` they receive `RxError.disposed`.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, SubjectObserverRemoving, FanOutSubject, @unchecked Sendable {
    public typealias SubjectObserverType = PublishSubject<Element>

    private let lock = Lock.make()
    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per event).
    @exclusivity(unchecked)
    private var state = SubjectState()

    /// A new subject.
    public override init() {
        super.init()
    }

    /// Whether the subject has observers.
    public var hasObservers: Bool {
        lock.withLock { !state.observers.isEmpty }
    }

    public var isDisposed: Bool {
        lock.withLock { state.disposed }
    }

    /// Sends `event` to every observer.
    public func on(_ event: Event<Element>) {
        route(event)
    }

    /// Sends `element` to every observer (what `on(.next(element))` does, without
    /// building and switching on an `Event`).
    public func onNext(_ element: Element) {
        lock.lock()
        guard state.isOpen else {
            lock.unlock()
            return
        }
        let delivery = state.observers.beginDelivery()
        lock.unlock()
        delivery.passNextByAddress(element)
        state.observers.endDelivery()
    }

    func stop(error: Swift.Error?) {
        lock.lock()
        let snapshot = state.stop(error: error)
        lock.unlock()
        snapshot?.passTerminal(error)
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.lock()
        if !state.isOpen, let refusal: Event<Element> = state.refusal(by: self) {
            lock.unlock()
            observer.on(refusal)
            return Disposables.create()
        }
        let (key, released) = state.join(observer)
        lock.unlock()
        withExtendedLifetime(released) {}
        return SubjectSubscription(owner: self, key: key)
    }

    func removeObserver(_ key: BagKey) {
        lock.lock()
        let removed = state.observers.remove(key)
        lock.unlock()
        withExtendedLifetime(removed) {}
    }

    /// The observer side of the subject.
    public func asObserver() -> PublishSubject<Element> {
        self
    }

    /// Drops every observer; later subscribers receive `RxError.disposed`.
    public func dispose() {
        lock.lock()
        let dropped = state.dispose()
        lock.unlock()
        withExtendedLifetime(dropped) {}
    }
}
