/// A subject that emits only the last element, and only when it completes.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, LockedSubject, @unchecked Sendable {
    public typealias SubjectObserverType = AsyncSubject<Element>

    /// The value is the last element received.
    let lockedState = LockedPair<SubjectState, Element?>(nil)

    /// A new subject.
    public override init() {
        super.init()
    }

    /// Whether the subject has observers.
    public var hasObservers: Bool { hasObserversNow }

    public func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            lockedState.withLock { state, lastElement in
                if state.isOpen { lastElement = value }
            }
        case .error(let error):
            stop(error: error)
        case .completed:
            let (observers, last) = lockedState.withLock { state, lastElement in (state.stop(error: nil), lastElement) }
            lockedState.afterUnlocking {
                observers?.forEachElement { observer in
                    if let last { observer.receiveNext(last) }
                    observer.receiveCompleted()
                }
            }
        }
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        admit(
            backlog: { lastElement in lastElement },
            refuse: { last, refusal in
                if case .completed = refusal, let last { observer.on(.next(last)) }
                observer.on(refusal)
            },
            join: { state, _ in (state.join(observer), ()) },
            open: { _ in }
        )
    }

    /// The observer side of the subject.
    public func asObserver() -> AsyncSubject<Element> {
        self
    }
}
