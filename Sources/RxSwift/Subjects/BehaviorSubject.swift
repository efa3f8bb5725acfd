/// A subject that holds a current value: each new observer receives it first, then
/// every later event.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, SubjectObserverRemoving, @unchecked Sendable {
    public typealias SubjectObserverType = BehaviorSubject<Element>

    private let lock = InlineLock()
    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per event).
    @exclusivity(unchecked)
    private var element: Element
    /// Each observer behind a `ReplayGate`: a list of one concrete class, so sending an
    /// element looks up no generic metadata.
    @exclusivity(unchecked)
    private var observers = Bag<DirectObserver>(vacancy: VacantObserver.shared)
    /// `observers` as the deliveries read them, with no retain.
    @exclusivity(unchecked)
    private var deliveryList = DeliveryList()
    /// How many deliveries walk `deliveryList` now (see `DeliveryList`).
    private let deliveries = InlineAtomicInt(0)
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

    deinit {
        deliveryList.deallocate()
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
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            stop(event, error: error)
        case .completed:
            stop(event, error: nil)
        }
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
        var released: [DirectObserver]?
        let walk = deliveryList.beginDelivery(counting: deliveries, released: &released)
        lock.unlock()
        withExtendedLifetime(released) {}
        walk.passNext(element)
        _ = deliveries.add(-1)
    }

    private func stop(_ event: Event<Element>, error: Swift.Error?) {
        lock.lock()
        if disposed || stopped {
            lock.unlock()
            return
        }
        stoppedEvent = event
        stopped = true
        let snapshot = observers.elements
        observers.removeAll()
        // An observer's reaction to an element can stop the subject: the delivery of
        // that element still walks `deliveryList`.
        if deliveries.load() != 0 { deliveryList.keepAlive(snapshot) }
        lock.unlock()
        if let error {
            snapshot.forEachElement { observer in observer.receiveError(error) }
        } else {
            snapshot.forEachElement { observer in observer.receiveCompleted() }
        }
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
        let key = observers.insert(gate)
        let released = deliveryList.update(to: observers.elements, change: .appended, removed: nil, delivering: deliveries.load() != 0)
        let current = element
        lock.unlock()
        withExtendedLifetime(released) {}
        gate.open(after: current)
        return SubjectSubscription(owner: self, key: key)
    }

    func removeObserver(_ key: BagKey) {
        lock.lock()
        var change = BagChange.rearranged
        guard let removed = observers.remove(key, change: &change) else {
            lock.unlock()
            return
        }
        let released = deliveryList.update(to: observers.elements, change: change, removed: removed, delivering: deliveries.load() != 0)
        lock.unlock()
        withExtendedLifetime((removed, released)) {}
    }

    /// The observer side of the subject.
    public func asObserver() -> BehaviorSubject<Element> {
        self
    }

    public func dispose() {
        let dropped = lock.withLock { () -> Bag<DirectObserver> in
            disposed = true
            if deliveries.load() != 0 { deliveryList.keepAlive(observers.elements) }
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
