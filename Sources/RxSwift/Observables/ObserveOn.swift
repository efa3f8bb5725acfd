extension ObservableType {
    /// Delivers every event on `scheduler`, in order.
    ///
    /// On a `SerialDispatchQueueScheduler` the events waiting are delivered together, in
    /// order, in one turn on the queue (see "Known differences"); on the main schedulers
    /// each event is one dispatch, as in RxSwift. On any other scheduler a queue is
    /// drained recursively, one event per scheduled action, as in RxSwift (on a
    /// `TestScheduler`, each event lands one tick later than the previous).
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        PlainProducer(asObservable(), ObserveOn(scheduler: scheduler))
    }

    /// Delivers every event on `scheduler`.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler)
    }
}

/// `observe(on:)`'s scheduler; the sink depends on its kind.
struct ObserveOn<Element>: PlainOperator {
    let scheduler: ImmediateSchedulerType
    /// Held on a serial dispatch queue scheduler, so that the observable counts in
    /// `Resources.numberOfSerialDispatchQueueObservables` while it exists.
    private let serialQueueMark: SerialDispatchQueueObservableMark?

    init(scheduler: ImmediateSchedulerType) {
        self.scheduler = scheduler
        serialQueueMark = scheduler is SerialDispatchQueueScheduler ? SerialDispatchQueueObservableMark() : nil
    }

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        if let serial = scheduler as? SerialDispatchQueueScheduler {
            return ObserveOnSerialQueueSink(scheduler: serial, observer: observer).observe(source)
        }
        return ObserveOnSink(scheduler: scheduler, observer: observer).observe(source)
    }
}

/// `observe(on:)` on any scheduler but a serial dispatch queue: one scheduled action
/// per event.
final class ObserveOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let scheduler: ImmediateSchedulerType
    /// The events waiting for the drain (a `LockedPair`'s value: its type follows
    /// `Element`).
    private let delivery = LockedPair((), SerialDelivery<Event<Element>>())
    private let scheduled = SerialDisposable()

    /// Never called: fills the superclass's `init(observer:)` slot (see `rxUnusedInitializer`).
    override convenience init(observer: consuming Observer) { rxUnusedInitializer() }

    init(scheduler: ImmediateSchedulerType, observer: Observer) {
        self.scheduler = scheduler
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        if delivery.withLock({ _, delivery in delivery.enqueueStartingDrain(event) }) {
            // The drain holds the sink until it ran, as RxSwift's does: once the source
            // ended and dropped the sink, the events still waiting must arrive. Disposal
            // (which a terminal event's delivery does too) releases the action.
            scheduled.disposable = scheduler.scheduleRecursive(()) { _, recurse in
                self.drainOne(recurse)
            }
        }
    }

    private func drainOne(_ recurse: (()) -> Void) {
        guard let event = delivery.withLock({ _, delivery in delivery.next() }), !isDisposed else { return }
        if event.isStopEvent {
            forwardEvent(event)
            return
        }
        forwardEvent(event)
        if delivery.withLock({ _, delivery in delivery.release() }) { recurse(()) }
    }

    override func disposeCore() {
        scheduled.dispose()
    }
}

// What the sink knows of the terminal event. File-level constants: a static member of
// the generic sink would need its metadata looked up at every use.
private let terminalNone = 0
private let terminalCompleted = 1
private let terminalError = 2
/// The terminal event was taken for delivery; nothing follows it.
private let terminalTaken = 3

/// `observe(on:)` on a serial dispatch queue.
///
/// The events wait in the sink's queue (an `ElementRing`, raw storage sized by
/// `MemoryLayout<Element>`, and the terminal event apart: no `Event` is built, no generic metadata is looked up
/// per event). Two ways to deliver them, chosen by the scheduler:
///
/// - Batches (a plain `SerialDispatchQueueScheduler`): one dispatch is issued when the
///   queue goes from idle to busy; it takes the waiting elements out in batches under
///   the lock and delivers them outside it, in order, until the queue is empty.
/// - One dispatch per event, each delivering the oldest event waiting (the main
///   schedulers, whose "run at once when on the main thread with nothing queued"
///   decides per event, as in RxSwift).
///
/// Either way the order is the order of `on`, delivery happens on the queue one event at
/// a time, and nothing is delivered after disposal.
final class ObserveOnSerialQueueSink<Observer: ObserverType>: Sink<Observer>, ObserverType, SerialQueueDelivery, @unchecked Sendable {
    typealias Element = Observer.Element

    private let scheduler: SerialDispatchQueueScheduler
    private let inBatches: Bool
    /// The scheduler when it is a `MainScheduler` (not a test's stand-in): an element
    /// that would be delivered at once skips the queue. `scheduler` keeps it alive, so
    /// it is not retained for each event.
    private let main: Unmanaged<MainScheduler>?
    /// The downstream observer's direct path, for elements delivered at once: the
    /// observer keeps it alive.
    private let downstreamDirect: Unmanaged<ObserverBase>?
    /// One dispatch per event: how many events wait (the queue's elements plus a
    /// waiting terminal event), kept apart so that the direct path reads it without the
    /// lock.
    private let waiting = InlineAtomicInt(0)
    private let lock = Lock.make()

    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per event).
    /// The waiting elements, oldest first; room is allocated at the first one.
    @exclusivity(unchecked)
    private var queue = ElementRing<Element>()
    /// The ring of the batch delivered last, emptied: the next batch's queue.
    @exclusivity(unchecked)
    private var spare = ElementRing<Element>()
    @exclusivity(unchecked)
    private var terminal = terminalNone
    @exclusivity(unchecked)
    private var terminalFailure: Swift.Error?
    /// Batches: a drain is dispatched or running.
    @exclusivity(unchecked)
    private var draining = false
    /// Disposed: new events are dropped.
    @exclusivity(unchecked)
    private var closed = false

    /// Never called: fills the superclass's `init(observer:)` slot (see `rxUnusedInitializer`).
    override convenience init(observer: consuming Observer) { rxUnusedInitializer() }

    init(scheduler: SerialDispatchQueueScheduler, observer: Observer) {
        self.scheduler = scheduler
        self.inBatches = scheduler.deliversInBatches
        if type(of: scheduler) == MainScheduler.self, let main = scheduler as? MainScheduler {
            self.main = Unmanaged.passUnretained(main)
        } else {
            self.main = nil
        }
        self.downstreamDirect = directPath(of: observer).map { Unmanaged.passUnretained($0) }
        super.init(observer: observer)
    }

    deinit {
        queue.release()
        spare.release()
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        isSameType(T.self, Element.self)
    }

    override func receiveNext<T>(_ element: T) {
        enqueue(element)
    }

    override func receiveCompleted() {
        enqueueTerminal(terminalCompleted, nil)
    }

    override func receiveError(_ error: Swift.Error) {
        enqueueTerminal(terminalError, error)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): enqueue(element)
        case .error(let error): enqueueTerminal(terminalError, error)
        case .completed: enqueueTerminal(terminalCompleted, nil)
        }
    }

    /// Queues an element (an `Element`: `T` is the type `acceptsElements` accepted) and
    /// dispatches its delivery.
    @inline(__always)
    private func enqueue<T>(_ element: T) {
        if let main, waiting.loadRelaxed() == 0,
           main._withUnsafeGuaranteedRef({ scheduler in scheduler.beginRunningAtOnce() }) {
            // What queueing the element and dispatching its delivery would do when the
            // delivery runs at once: nothing waits (so it is the oldest), and the main
            // thread, where deliveries run, is here.
            deliverElement(element)
            main._withUnsafeGuaranteedRef { scheduler in scheduler.finishRunningAtOnce() }
            return
        }
        enqueueAndDispatch(element)
    }

    /// `forwardNext` for an element of the type `acceptsElements` accepted, through the
    /// downstream's direct path with no retain: after a terminal event or disposal the
    /// sink is disposed, and the element is dropped.
    @inline(__always)
    private func deliverElement<T>(_ element: T) {
        if isDisposed { return }
        if let downstreamDirect {
            downstreamDirect._withUnsafeGuaranteedRef { observer in observer.receiveNext(element) }
        } else {
            forwardElement(element)
        }
    }

    @inline(never)
    private func forwardElement<T>(_ element: T) {
        forwardNext(unsafeBitCast(element, to: Element.self))
    }

    @inline(never)
    private func enqueueAndDispatch<T>(_ element: T) {
        lock.lock()
        if closed || terminal != terminalNone {
            lock.unlock()
            return
        }
        queue.append(bitCasting: element)
        if !inBatches { _ = waiting.add(1) }
        let dispatches = !inBatches || !draining
        draining = true
        lock.unlock()
        if dispatches { scheduler.dispatchDelivery(self) }
    }

    private func enqueueTerminal(_ kind: Int, _ error: Swift.Error?) {
        lock.lock()
        if closed || terminal != terminalNone {
            lock.unlock()
            return
        }
        terminal = kind
        terminalFailure = error
        if !inBatches { _ = waiting.add(1) }
        let dispatches = !inBatches || !draining
        draining = true
        lock.unlock()
        if dispatches { scheduler.dispatchDelivery(self) }
    }

    /// Runs on the queue: delivers everything waiting (batches) or the oldest event.
    func deliverWaiting() {
        if inBatches {
            drain()
        } else {
            deliverOldest()
        }
    }

    private func deliverOldest() {
        lock.lock()
        if !queue.isEmpty {
            let element = queue.removeFirst()
            _ = waiting.add(-1)
            lock.unlock()
            deliverElement(element)
            return
        }
        let stop = takeTerminal()
        lock.unlock()
        deliver(stop)
    }

    /// The terminal event waiting to be delivered, if any, marked taken so that it is
    /// delivered once. Runs under `lock`, which its caller takes and releases.
    private func takeTerminal() -> Event<Never>? {
        let kind = terminal
        guard kind == terminalCompleted || kind == terminalError else { return nil }
        terminal = terminalTaken
        let error = terminalFailure
        terminalFailure = nil
        if !inBatches { _ = waiting.add(-1) }
        return error.map { .error($0) } ?? .completed
    }

    /// Delivers what `takeTerminal` took, after the lock is released.
    private func deliver(_ stop: Event<Never>?) {
        switch stop {
        case .error(let error)?: forwardError(error)
        case .completed?: forwardCompleted()
        case nil, .next?: break
        }
    }

    /// Delivers batch after batch until nothing waits. The elements of a batch are
    /// delivered outside the lock; its emptied ring becomes the next batch's queue.
    private func drain() {
        var batch = ElementRing<Element>()
        while true {
            lock.lock()
            if closed {
                draining = false
                lock.unlock()
                batch.release()
                return
            }
            if spare.room == 0 {
                spare = batch.takeAll()
            } else {
                batch.release()
            }
            if queue.isEmpty {
                if terminal == terminalCompleted || terminal == terminalError {
                    // `draining` stays set: nothing is delivered after the terminal event.
                    let stop = takeTerminal()
                    lock.unlock()
                    deliver(stop)
                    return
                }
                draining = false
                lock.unlock()
                return
            }
            batch = queue.takeAll()
            queue = spare.takeAll()
            lock.unlock()
            while !batch.isEmpty {
                deliverElement(batch.removeFirst())
            }
        }
    }

    override func disposeCore() {
        // The waiting elements are dropped outside the lock; a drain running now stops
        // after its batch, whose elements `deliverElement` drops.
        lock.lock()
        closed = true
        var dropped = queue.takeAll()
        var droppedSpare = spare.takeAll()
        terminalFailure = nil
        lock.unlock()
        dropped.release()
        droppedSpare.release()
    }
}

/// The dispatched side of `ObserveOnSerialQueueSink`, without its generic parameters
/// (the scheduler's dispatch must not depend on them).
protocol SerialQueueDelivery: AnyObject, Sendable {
    /// Runs on the queue: delivers what waits (everything, or the oldest event).
    func deliverWaiting()
}
