/// A subject that emits only the last element, and only when it completes.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, SubjectObserverRemoving, @unchecked Sendable {
    public typealias SubjectObserverType = AsyncSubject<Element>

    private let lock = Lock.make()
    // Guarded by `lock`.
    @exclusivity(unchecked)
    private var state = SubjectState()
    private var lastElement: Element?

    /// A new subject.
    public override init() {
        super.init()
    }

    /// Whether the subject has observers.
    public var hasObservers: Bool {
        lock.withLock { !state.observers.isEmpty }
    }

    public func on(_ event: Event<Element>) {
        lock.lock()
        guard state.isOpen else {
            lock.unlock()
            return
        }
        switch event {
        case .next(let value):
            lastElement = value
            lock.unlock()
        case .error(let error):
            let snapshot = state.stop(error: error)
            lock.unlock()
            snapshot?.passTerminal(error)
        case .completed:
            let snapshot = state.stop(error: nil)
            let last = lastElement
            lock.unlock()
            snapshot?.forEachElement { observer in
                if let last { observer.receiveNext(last) }
                observer.receiveCompleted()
            }
        }
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.lock()
        if !state.isOpen, let refusal: Event<Element> = state.refusal(by: self) {
            let last = lastElement
            lock.unlock()
            if case .completed = refusal, let last { observer.on(.next(last)) }
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
    public func asObserver() -> AsyncSubject<Element> {
        self
    }
}
