extension ObservableType {
    /// Delivers every event on `scheduler`, in order.
    ///
    /// On a `SerialDispatchQueueScheduler` each event is one dispatch; on any other
    /// scheduler a queue is drained recursively, one event per scheduled action, as in
    /// RxSwift (on a `TestScheduler`, each event lands one tick later than the previous).
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        if let serial = scheduler as? SerialDispatchQueueScheduler {
            return ObserveOnSerialQueue(source: asObservable(), scheduler: serial)
        }
        return ObserveOn(source: asObservable(), scheduler: scheduler)
    }

    /// Delivers every event on `scheduler`.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler)
    }
}

final class ObserveOn<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = ObserveOnSink(scheduler: scheduler, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class ObserveOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let scheduler: ImmediateSchedulerType
    private let lock = Lock.make()
    private var queue = Queue<Event<Element>>()
    private var running = false
    private let scheduled = SerialDisposable()

    init(scheduler: ImmediateSchedulerType, observer: Observer) {
        self.scheduler = scheduler
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        let shouldStart = lock.withLock { () -> Bool in
            queue.enqueue(event)
            if running { return false }
            running = true
            return true
        }
        if shouldStart {
            scheduled.disposable = scheduler.scheduleRecursive(()) { [weak self] _, recurse in
                self?.drainOne(recurse)
            }
        }
    }

    private func drainOne(_ recurse: (()) -> Void) {
        let event = lock.withLock { () -> Event<Element>? in
            if let event = queue.dequeue() { return event }
            running = false
            return nil
        }
        guard let event, !isDisposed else { return }
        if event.isStopEvent {
            forwardTerminal(event)
            return
        }
        forwardOn(event)
        let more = lock.withLock { () -> Bool in
            if !queue.isEmpty { return true }
            running = false
            return false
        }
        if more { recurse(()) }
    }

    override func disposeCore() {
        scheduled.dispose()
    }
}

final class ObserveOnSerialQueue<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let scheduler: SerialDispatchQueueScheduler

    init(source: Observable<Element>, scheduler: SerialDispatchQueueScheduler) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = ObserveOnSerialQueueSink(scheduler: scheduler, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

/// One dispatch per event, as in RxSwift, but the dispatched work only captures the
/// sink: the events wait in the sink's queue and each dispatch delivers the oldest, so
/// the order is the order of `on` and an event costs no allocation of its own beyond
/// the dispatch.
final class ObserveOnSerialQueueSink<Observer: ObserverType>: Sink<Observer>, ObserverType, SerialQueueDelivery, @unchecked Sendable {
    typealias Element = Observer.Element

    private let scheduler: SerialDispatchQueueScheduler
    private let lock = Lock.make()
    private var pending = Queue<Event<Element>>()

    init(scheduler: SerialDispatchQueueScheduler, observer: Observer) {
        self.scheduler = scheduler
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        lock.lock()
        pending.enqueue(event)
        lock.unlock()
        let target: any SerialQueueDelivery = self
        scheduler.dispatch { target.deliverOldest() }
    }

    func deliverOldest() {
        lock.lock()
        let event = pending.dequeue()
        lock.unlock()
        guard let event else { return }
        if event.isStopEvent {
            forwardTerminal(event)
        } else {
            forwardOn(event)
        }
    }

    override func disposeCore() {
        // The dispatches still queued find nothing to deliver.
        let dropped = lock.withLock { () -> Queue<Event<Element>> in
            defer { pending.removeAll() }
            return pending
        }
        _ = dropped
    }
}

/// The dispatched side of `ObserveOnSerialQueueSink`, without its generic parameters
/// (a dispatched closure must not capture them).
protocol SerialQueueDelivery: AnyObject, Sendable {
    /// Delivers the oldest event waiting, if any.
    func deliverOldest()
}
