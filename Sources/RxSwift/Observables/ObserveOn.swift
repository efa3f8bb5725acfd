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

final class ObserveOnSerialQueueSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let scheduler: SerialDispatchQueueScheduler
    private let pending = CompositeDisposable()

    init(scheduler: SerialDispatchQueueScheduler, observer: Observer) {
        self.scheduler = scheduler
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        _ = scheduler.scheduleInternal((self, event)) { pair in
            let (sink, event) = pair
            if event.isStopEvent {
                sink.forwardTerminal(event)
            } else {
                sink.forwardOn(event)
            }
            return Disposables.create()
        }
    }

    override func disposeCore() {
        pending.dispose()
    }
}
