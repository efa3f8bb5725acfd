/// A subject that passes each event on to the observers subscribed at that moment.
///
/// Observers that subscribe after a terminal event receive that event at once; after
/// `dispose()` they receive `RxError.disposed`.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, SubjectObserverRemoving, @unchecked Sendable {
    public typealias SubjectObserverType = PublishSubject<Element>

    private let lock = Lock.make()
    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per event).
    @exclusivity(unchecked)
    private var observers = Bag<SubjectObserverEntry>(vacancy: .vacancy)
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
        lock.lock()
        if disposed || stopped {
            lock.unlock()
            return
        }
        let snapshot = observers.elements
        if event.isStopEvent {
            stoppedEvent = event
            stopped = true
            observers.removeAll()
        }
        lock.unlock()
        snapshot.deliver(event)
    }

    /// Sends `element` to every observer (what `on(.next(element))` does, without
    /// building and switching on an `Event`).
    public func onNext(_ element: Element) {
        lock.lock()
        if disposed || stopped {
            lock.unlock()
            return
        }
        let snapshot = observers.elements
        lock.unlock()
        snapshot.deliverNext(element)
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
        let key = observers.insert(SubjectObserverEntry(observer))
        lock.unlock()
        return SubjectSubscription(owner: self, key: key)
    }

    func removeObserver(_ key: BagKey) {
        let removed = lock.withLock { observers.remove(key) }
        _ = removed
    }

    /// The observer side of the subject.
    public func asObserver() -> PublishSubject<Element> {
        self
    }

    /// Drops every observer; later subscribers receive `RxError.disposed`.
    public func dispose() {
        let dropped = lock.withLock { () -> Bag<SubjectObserverEntry> in
            disposed = true
            defer {
                observers.removeAll()
                stoppedEvent = nil
                stopped = false
            }
            return observers
        }
        _ = dropped
    }
}
