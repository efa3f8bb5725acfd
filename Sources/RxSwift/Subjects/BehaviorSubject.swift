/// A subject that holds a current value: each new observer receives it first, then
/// every later event.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, SubjectObserverRemoving, @unchecked Sendable {
    public typealias SubjectObserverType = BehaviorSubject<Element>

    private let lock = Lock.make()
    private var element: Element
    private var observers = Bag<ReplayingObserver<Element>>()
    private var stoppedEvent: Event<Element>?
    private var disposed = false

    /// A subject whose current value is `value`.
    public init(value: Element) {
        element = value
        super.init()
    }

    /// Whether the subject has observers.
    public var hasObservers: Bool {
        lock.withLock { !observers.isEmpty }
    }

    public var isDisposed: Bool {
        lock.withLock { disposed }
    }

    /// The current value; throws the subject's error after an error, and
    /// `RxError.disposed` after `dispose()`.
    public func value() throws -> Element {
        lock.lock()
        defer { lock.unlock() }
        if disposed { throw RxError.disposed(object: self) }
        if let error = stoppedEvent?.error { throw error }
        return element
    }

    public func on(_ event: Event<Element>) {
        lock.lock()
        if disposed || stoppedEvent != nil {
            lock.unlock()
            return
        }
        switch event {
        case .next(let value):
            element = value
        case .error, .completed:
            stoppedEvent = event
        }
        let snapshot = observers.elements
        if event.isStopEvent { observers.removeAll() }
        lock.unlock()
        snapshot.forEachElement { observer in observer.on(event) }
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.lock()
        if disposed {
            lock.unlock()
            observer.on(.error(RxError.disposed(object: self)))
            return Disposables.create()
        }
        if let stoppedEvent {
            lock.unlock()
            observer.on(stoppedEvent)
            return Disposables.create()
        }
        let entry = ReplayingObserver(observer.on)
        let key = observers.insert(entry)
        let current = element
        lock.unlock()
        entry.replay([.next(current)])
        return SubjectSubscription(owner: self, key: key)
    }

    func removeObserver(_ key: BagKey) {
        let removed = lock.withLock { observers.remove(key) }
        _ = removed
    }

    /// The observer side of the subject.
    public func asObserver() -> BehaviorSubject<Element> {
        self
    }

    public func dispose() {
        let dropped = lock.withLock { () -> Bag<ReplayingObserver<Element>> in
            disposed = true
            defer {
                observers.removeAll()
                stoppedEvent = nil
            }
            return observers
        }
        _ = dropped
    }
}
