/// A subject that replays up to `bufferSize` recent elements (or all of them) to each
/// new observer, then passes every later event on.
///
/// The replay runs outside the subject's lock; events that arrive meanwhile are
/// delivered after it, in order (`ReplayGate`).
public final class ReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, SubjectObserverRemoving, FanOutSubject, @unchecked Sendable {
    public typealias SubjectObserverType = ReplaySubject<Element>

    private let lock = Lock.make()
    /// The most elements kept; `Int.max` when unbounded.
    private let bufferSize: Int
    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per event).
    /// The latest elements, oldest first.
    @exclusivity(unchecked)
    private var buffer = ElementRing<Element>()
    @exclusivity(unchecked)
    private var state = SubjectState()

    private init(bufferSize: Int) {
        self.bufferSize = bufferSize
        super.init()
    }

    deinit {
        buffer.release()
    }

    /// A subject that replays the last `bufferSize` elements.
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        precondition(bufferSize >= 0, "Rivulet: ReplaySubject.create(bufferSize:) needs a size of 0 or more, got \(bufferSize).")
        return ReplaySubject(bufferSize: bufferSize)
    }

    /// A subject that replays every element.
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: Int.max)
    }

    /// Whether the subject has observers.
    public var hasObservers: Bool {
        lock.withLock { !state.observers.isEmpty }
    }

    public var isDisposed: Bool {
        lock.withLock { state.disposed }
    }

    public func on(_ event: Event<Element>) {
        route(event)
    }

    /// Buffers `element` and sends it to every observer (what `on(.next(element))`
    /// does, without building and switching on an `Event`).
    public func onNext(_ element: Element) {
        lock.lock()
        guard state.isOpen else {
            lock.unlock()
            return
        }
        if bufferSize > 0 { buffer.append(bitCasting: element, keepingAtMost: bufferSize) }
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
            // After a terminal event the buffer is replayed before it; after `dispose()`
            // the buffer is empty.
            let replayed = buffer.copiedElements()
            lock.unlock()
            for element in replayed { observer.on(.next(element)) }
            observer.on(refusal)
            return Disposables.create()
        }
        if buffer.isEmpty {
            let (key, released) = state.join(observer)
            lock.unlock()
            withExtendedLifetime(released) {}
            return SubjectSubscription(owner: self, key: key)
        }
        let gate = ReplayGate(observer, replaying: true)
        let (key, released) = state.observers.insert(gate)
        let replayed = buffer.copiedElements()
        lock.unlock()
        withExtendedLifetime(released) {}
        gate.open(after: replayed)
        return SubjectSubscription(owner: self, key: key)
    }

    func removeObserver(_ key: BagKey) {
        lock.lock()
        let removed = state.observers.remove(key)
        lock.unlock()
        withExtendedLifetime(removed) {}
    }

    /// The observer side of the subject.
    public func asObserver() -> ReplaySubject<Element> {
        self
    }

    public func dispose() {
        lock.lock()
        let dropped = state.dispose()
        var droppedElements = buffer.takeAll()
        lock.unlock()
        withExtendedLifetime(dropped) {}
        droppedElements.release()
    }
}
