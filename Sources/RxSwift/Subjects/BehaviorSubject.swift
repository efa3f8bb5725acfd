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
    private var state = SubjectState()

    /// A subject whose current value is `value`.
    public init(value: Element) {
        element = value
        super.init()
    }

    /// Whether the subject has observers.
    public var hasObservers: Bool {
        lock.withLock { !state.observers.isEmpty }
    }

    public var isDisposed: Bool {
        lock.withLock { state.disposed }
    }

    /// The current value; throws the subject's error after an error, and
    /// `RxError.disposed` after `dispose()`.
    public func value() throws -> Element {
        lock.lock()
        defer { lock.unlock() }
        if let error = state.failure(of: self) { throw error }
        return element
    }

    public func on(_ event: Event<Element>) {
        route(event)
    }

    /// Makes `element` the current value and sends it to every observer (what
    /// `on(.next(element))` does, without building and switching on an `Event`).
    public func onNext(_ element: Element) {
        lock.lock()
        guard state.isOpen else {
            lock.unlock()
            return
        }
        self.element = element
        let delivery = state.observers.beginDelivery()
        lock.unlock()
        delivery.passNext(element)
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
        let gate = ReplayGate(observer, replaying: true)
        let (key, released) = state.observers.insert(gate)
        let current = element
        lock.unlock()
        withExtendedLifetime(released) {}
        gate.open(after: current)
        return SubjectSubscription(owner: self, key: key)
    }

    func removeObserver(_ key: BagKey) {
        lock.lock()
        let removed = state.observers.remove(key)
        lock.unlock()
        withExtendedLifetime(removed) {}
    }

    /// The observer side of the subject.
    public func asObserver() -> BehaviorSubject<Element> {
        self
    }

    public func dispose() {
        lock.lock()
        let dropped = state.dispose()
        lock.unlock()
        withExtendedLifetime(dropped) {}
    }
}
