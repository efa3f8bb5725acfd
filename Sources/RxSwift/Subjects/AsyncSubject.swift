/// A subject that emits only the last element, and only when it completes.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, SubjectObserverRemoving, @unchecked Sendable {
    public typealias SubjectObserverType = AsyncSubject<Element>

    private let lock = Lock.make()
    private var observers = Bag<(Event<Element>) -> Void>(vacancy: { _ in })
    private var lastElement: Element?
    private var stoppedEvent: Event<Element>?

    /// A new subject.
    public override init() {
        super.init()
    }

    /// Whether the subject has observers.
    public var hasObservers: Bool {
        lock.withLock { !observers.isEmpty }
    }

    public func on(_ event: Event<Element>) {
        lock.lock()
        if stoppedEvent != nil {
            lock.unlock()
            return
        }
        switch event {
        case .next(let value):
            lastElement = value
            lock.unlock()
        case .error, .completed:
            stoppedEvent = event
            let snapshot = observers.elements
            observers.removeAll()
            let last = lastElement
            lock.unlock()
            for observer in snapshot {
                if case .completed = event, let last { observer(.next(last)) }
                observer(event)
            }
        }
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.lock()
        if let stoppedEvent {
            let last = lastElement
            lock.unlock()
            if case .completed = stoppedEvent, let last { observer.on(.next(last)) }
            observer.on(stoppedEvent)
            return Disposables.create()
        }
        let key = observers.insert(observer.on)
        lock.unlock()
        return SubjectSubscription(owner: self, key: key)
    }

    func removeObserver(_ key: BagKey) {
        let removed = lock.withLock { observers.remove(key) }
        _ = removed
    }

    /// The observer side of the subject.
    public func asObserver() -> AsyncSubject<Element> {
        self
    }
}
