/// A subject that holds a current value: each new observer receives it first, then
/// every later event.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, SubjectObserverRemoving, FanOutSubject, @unchecked Sendable {
    public typealias SubjectObserverType = BehaviorSubject<Element>

    private let lock = InlineLock()
    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per event).
    @exclusivity(unchecked)
    private var element: Element
    /// Each observer behind a `ReplayGate`.
    @exclusivity(unchecked)
    private var observers = FanOut()
    private var stoppedEvent: Event<Element>?
    /// `stoppedEvent != nil`, kept apart: testing the optional event costs a generic
    /// metadata lookup on every event.
    @exclusivity(unchecked)
    private var stopped = false
    @exclusivity(unchecked)
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
        route(event)
    }

    /// Makes `element` the current value and sends it to every observer (what
    /// `on(.next(element))` does, without building and switching on an `Event`).
    public func onNext(_ element: Element) {
        lock.lock()
        if disposed || stopped {
            lock.unlock()
            return
        }
        self.element = element
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
        let gate = ReplayGate(observer, replaying: true)
        let (key, released) = observers.insert(gate)
        let current = element
        lock.unlock()
        withExtendedLifetime(released) {}
        gate.open(after: current)
        return SubjectSubscription(owner: self, key: key)
    }

    func removeObserver(_ key: BagKey) {
        lock.lock()
        let removed = observers.remove(key)
        lock.unlock()
        withExtendedLifetime(removed) {}
    }

    /// The observer side of the subject.
    public func asObserver() -> BehaviorSubject<Element> {
        self
    }

    public func dispose() {
        let dropped = lock.withLock { () -> ContiguousArray<DirectObserver> in
            disposed = true
            stoppedEvent = nil
            stopped = false
            return observers.removeAll()
        }
        _ = dropped
    }
}
