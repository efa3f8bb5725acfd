final class MergeSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable where Inner.Element == Observer.Element {
    typealias Element = SourceElement
    typealias Output = Observer.Element

    private let selector: (SourceElement) throws -> Inner
    private let policy: MergePolicy
    private let lock = Lock.make()
    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per event).
    @exclusivity(unchecked)
    private var state = MergeState<Inner, Output>()
    /// The outer subscription and every running inner one.
    let group = CompositeDisposable()
    let outerSubscription = SingleAssignmentDisposable()

    /// Never called: fills the superclass's `init(observer:)` slot (see `rxUnusedInitializer`).
    override convenience init(observer: consuming Observer) { rxUnusedInitializer() }

    init(selector: @escaping (SourceElement) throws -> Inner, policy: MergePolicy, observer: Observer) {
        self.selector = selector
        self.policy = policy
        super.init(observer: observer)
    }

    deinit {
        state.releaseQueuedElements()
    }

    // MARK: outer sequence

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        isSameType(T.self, SourceElement.self)
    }

    override func receiveNext<T>(_ element: T) {
        outerNext(unsafeSameTypeCast(element, to: SourceElement.self))
    }

    override func receiveCompleted() {
        outerCompleted()
    }

    override func receiveError(_ error: Swift.Error) {
        fail(error)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            outerNext(element)
        case .error(let error):
            fail(error)
        case .completed:
            outerCompleted()
        }
    }

    private func outerNext(_ element: SourceElement) {
            switch policy {
            case .unlimited:
                let inner: Inner
                do {
                    inner = try selector(element)
                } catch {
                    fail(error)
                    return
                }
                guard lock.withLock({ state.admit() }) else { return }
                subscribeInner(inner)
            case .firstOnly:
                guard lock.withLock({ state.admitIfIdle() }) else { return }
                let inner: Inner
                do {
                    inner = try selector(element)
                } catch {
                    fail(error)
                    return
                }
                subscribeInner(inner)
            case .limited(let limit):
                let inner: Inner
                do {
                    inner = try selector(element)
                } catch {
                    fail(error)
                    return
                }
                lock.withLock { state.enqueue(inner) }
                pump(limit: limit)
            }
    }

    private func outerCompleted() {
        outerSubscription.dispose()
        let event = lock.withLock { state.outerDone() }
        if let event { deliver(event) }
    }

    /// Static merge: all sources are inner sequences, then the (absent) outer one is done.
    func run(sources: [Inner]) {
        let admitted = lock.withLock { () -> Bool in
            for _ in sources where !state.admit() { return false }
            return true
        }
        if admitted {
            for source in sources {
                subscribeInner(source)
            }
        }
        let event = lock.withLock { state.outerDone() }
        if let event { deliver(event) }
    }

    // MARK: inner sequences

    private func subscribeInner(_ inner: Inner) {
        let subscription = SingleAssignmentDisposable()
        guard let key = group.insert(subscription) else { return }
        subscription.setDisposable(inner.asObservable().subscribe(MergeInnerObserver(sink: self, key: key)))
    }

    /// Subscribes waiting sequences while slots are free; only one thread does it at a time.
    private func pump(limit: Int) {
        guard var inner = lock.withLock({ state.startPumping(limit: limit) }) else { return }
        while true {
            subscribeInner(inner)
            switch lock.withLock({ state.continuePumping(limit: limit) }) {
            case .subscribe(let next):
                inner = next
            case .stop(let event):
                if let event { deliver(event) }
                return
            }
        }
    }

    /// An inner element, of type `Output` (`T` is that type, as the inner observer
    /// checked): delivered at once, with no `Event` built, unless another delivery is in
    /// progress (then it queues behind it, and that delivery's thread delivers it).
    @inline(__always)
    func innerNext<T>(_ element: T) {
        let delivers = lock.withLock { () -> Bool in
            if state.isTerminated { return false }
            if state.delivery.claim() { return true }
            queueBehindDelivery(element)
            return false
        }
        guard delivers else { return }
        forwardAcceptedNext(element)
        if lock.withLock({ state.delivery.release() }) { deliverQueued() }
    }

    /// Under the lock: queues `element` behind the delivery in progress. Out of line,
    /// so that the element path without contention stays as short as it was.
    @inline(never)
    private func queueBehindDelivery<T>(_ element: T) {
        state.queueElement(element)
    }

    /// Delivers what was queued behind a delivery that has just ended (which stays busy
    /// for this caller): the queued elements a batch at a time, each batch taken under
    /// the lock in one step and delivered outside it, until none is left; then a queued
    /// terminal event, if any. Out of line: the batch is a value of a generic type.
    @inline(never)
    private func deliverQueued() {
        var batch = ElementRing<Output>()
        defer { batch.release() }
        while true {
            switch lock.withLock({ state.afterDelivery(swappingWith: &batch) }) {
            case .elements:
                while !batch.isEmpty {
                    forwardAcceptedNext(batch.removeFirst())
                }
            case .terminal:
                if let next = lock.withLock({ state.delivery.next() }) { deliver(next) }
                return
            case .idle:
                return
            }
        }
    }

    func innerCompleted(_ key: CompositeDisposable.DisposeKey) {
        group.remove(for: key)
        if lock.withLock({ state.innerCompletedEnds() }) {
            deliverCompletion()
            return
        }
        if case .limited(let limit) = policy {
            pump(limit: limit)
        }
    }

    /// Delivers the completion once the last sequence ended. Out of line, so that the
    /// `Event` it builds costs its metadata lookup here only, not on every inner
    /// completion. Nothing can be offered between the two locked steps: the merge is
    /// terminated by the first, so later elements and errors are dropped.
    @inline(never)
    private func deliverCompletion() {
        if let event = lock.withLock({ state.offerCompletion() }) { deliver(event) }
    }

    func fail(_ error: Swift.Error) {
        let event = lock.withLock { state.fail(error) }
        if let event { deliver(event) }
    }

    /// Delivers `first`, then whatever was queued behind it meanwhile.
    private func deliver(_ first: Event<Output>) {
        deliverInOrder(first, next: { lock.withLock { state.delivery.next() } }, step: { forwardInOrder($0) })
    }
}

final class MergeInnerObserver<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: ObserverBase, ObserverType,
    @unchecked Sendable where Inner.Element == Observer.Element {
    private let sink: MergeSink<SourceElement, Inner, Observer>
    private let key: CompositeDisposable.DisposeKey

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(sink: MergeSink<SourceElement, Inner, Observer>, key: CompositeDisposable.DisposeKey) {
        self.sink = sink
        self.key = key
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        isSameType(T.self, Observer.Element.self)
    }

    override func receiveNext<T>(_ element: T) {
        sink.innerNext(element)
    }

    override func receiveCompleted() {
        sink.innerCompleted(key)
    }

    override func receiveError(_ error: Swift.Error) {
        sink.fail(error)
    }

    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next(let element):
            sink.innerNext(element)
        case .error(let error):
            sink.fail(error)
        case .completed:
            sink.innerCompleted(key)
        }
    }
}
