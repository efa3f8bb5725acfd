extension ObservableType {
    /// Emits an element only once `dueTime` has passed without another element; on
    /// completion the pending element (if any) is sent at once, then the completion.
    ///
    /// ```
    /// source:   -1-2-----3--4-5------|
    /// debounce(3 ticks)
    /// result:   ------2----------5---|
    /// ```
    ///
    /// - parameter dueTime: How long the source must stay quiet before its latest element goes out.
    /// - parameter scheduler: The scheduler that runs the timers.
    /// - returns: The debounced sequence.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Debounce(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

final class Debounce<Element>: Producer<Element>, @unchecked Sendable {
    fileprivate let source: Observable<Element>
    fileprivate let dueTime: RxTimeInterval
    fileprivate let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = DebounceSink(parent: self, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class DebounceSink<Observer: ObserverType>: OutboxSink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let timer = TimerSlot()

    // State, guarded by `lock`: the generation of the latest element and the element
    // waiting for its quiet period.
    private var generation: UInt64 = 0
    private var pending: Element?

    init(parent: Debounce<Element>, observer: Observer) {
        dueTime = parent.dueTime
        scheduler = parent.scheduler
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            lock.lock()
            if isTerminatedLocked {
                lock.unlock()
                return
            }
            generation &+= 1
            let current = generation
            pending = element
            lock.unlock()
            timer.set(scheduler.scheduleRelative(current, dueTime: dueTime) { [weak self] generation in
                self?.timerFired(generation)
                return Disposables.create()
            }, generation: current)
        case .error:
            lock.lock()
            pending = nil
            enqueueLocked(event)
            unlockAndDeliver()
        case .completed:
            lock.lock()
            if let element = pending {
                pending = nil
                enqueueLocked(.next(element))
            }
            enqueueLocked(.completed)
            unlockAndDeliver()
        }
    }

    private func timerFired(_ firedGeneration: UInt64) {
        lock.lock()
        if firedGeneration == generation, let element = pending {
            pending = nil
            enqueueLocked(.next(element))
        }
        unlockAndDeliver()
    }

    override func disposeCore() {
        timer.dispose()
    }
}
