/// A subject that passes each event on to the observers subscribed at that moment.
///
/// Observers that subscribe after a terminal event receive that event at once; after
/// `dispose()` they receive `RxError.disposed`.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, SubjectObserverRemoving, FanOutSubject, @unchecked Sendable {
    public typealias SubjectObserverType = PublishSubject<Element>

    private let lock = Lock.make()
    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per event).
    @exclusivity(unchecked)
    private var observers = FanOut()
    private var stoppedEvent: Event<Element>?
    /// `stoppedEvent != nil`, kept apart: testing the optional event costs a generic
    /// metadata lookup on every event.
    @exclusivity(unchecked)
    private var stopped = false
    @exclusivity(unchecked)
    private var disposed = false

    /// A new subject.
    public override init() {
        super.init()
    }

    /// Whether the subject has observers.
    public var hasObservers: Bool {
        lock.withLock { !observers.isEmpty }
    }

    public var isDisposed: Bool {
        lock.withLock { disposed }
    }

    /// Sends `event` to every observer.
    public func on(_ event: Event<Element>) {
        route(event)
    }

    /// Sends `element` to every observer (what `on(.next(element))` does, without
    /// building and switching on an `Event`).
    public func onNext(_ element: Element) {
        lock.lock()
        if disposed || stopped {
            lock.unlock()
            return
        }
        let delivery = observers.beginDelivery()
        lock.unlock()
        delivery.passNext(element)
        observers.endDelivery()
    }

    func stop(_ event: Event<Element>, error: Swift.Error?) {
        lock.lock()
        if disposed || stopped {
            lock.unlock()
            return
        }
        stoppedEvent = event
        stopped = true
        let snapshot = observers.removeAll()
        lock.unlock()
        snapshot.passTerminal(error)
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.lock()
        if let stoppedEvent {
            lock.unlock()
            observer.on(stoppedEvent)
            return Disposables.create()
        }
        if disposed {
            lock.unlock()
            observer.on(.error(RxError.disposed(object: self)))
            return Disposables.create()
        }
        let (key, released) = observers.insert(directPath(of: observer) ?? ReplayGate(observer, replaying: false))
        lock.unlock()
        withExtendedLifetime(released) {}
        return SubjectSubscription(owner: self, key: key)
    }

    func removeObserver(_ key: BagKey) {
        lock.lock()
        let removed = observers.remove(key)
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
        disposed = true
        stoppedEvent = nil
        stopped = false
        let dropped = observers.removeAll()
        lock.unlock()
        withExtendedLifetime(dropped) {}
    }
}
