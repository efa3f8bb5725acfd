extension ObservableType {
    /// Delivers every event on `scheduler`, in order.
    ///
    /// On a `SerialDispatchQueueScheduler`, a `ConcurrentDispatchQueueScheduler` or an
    /// `OperationQueueScheduler` the events waiting are delivered together, in order, in
    /// one turn on the queue (see "Known differences"); on the main schedulers each
    /// event is one dispatch, as in RxSwift. On any other scheduler a queue is drained
    /// recursively, one event per scheduled action, as in RxSwift (on a `TestScheduler`,
    /// each event lands one tick later than the previous).
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
        if let concurrent = scheduler as? ConcurrentDispatchQueueScheduler {
            return ObserveOnSerialQueueSink(scheduler: concurrent, observer: observer).observe(source)
        }
        if let operations = scheduler as? OperationQueueScheduler {
            return ObserveOnSerialQueueSink(scheduler: operations, observer: observer).observe(source)
        }
        return ObserveOnSink(scheduler: scheduler, observer: observer).observe(source)
    }
}

/// `observe(on:)` on any scheduler but a dispatch queue's or an operation queue's: one
/// scheduled action per event.
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

/// `observe(on:)` on a dispatch queue or an operation queue: a serial one, or one that
/// runs work in parallel, where the sink issues its next dispatch only once the last
/// one's turn ended, so that its deliveries take turns as on a serial queue.
///
/// The events wait in the sink's `SerialQueueWaiting`, under its one lock: the elements
/// in an `ElementRing` (raw storage sized by `MemoryLayout<Element>`: no `Event` is
/// built, no generic metadata is looked up per event), the terminal event apart. Two
/// ways to deliver them, chosen by the scheduler:
///
/// - Batches (a plain `SerialDispatchQueueScheduler`): one dispatch is issued when the
///   queue goes from idle to busy; it takes the waiting elements out in batches under
///   the lock and delivers them outside it, in order, until the queue is empty.
/// - One dispatch per event, each delivering the oldest event waiting (the main
///   schedulers, whose "run at once when on the main thread with nothing queued"
///   decides per event, as in RxSwift: `MainScheduler.runDeliveryAtOnce`).
///
/// Either way the order is the order of `on`, delivery happens on the queue one event at
/// a time, and nothing is delivered after disposal.
final class ObserveOnSerialQueueSink<Observer: ObserverType>: Sink<Observer>, ObserverType, SerialQueueDelivery, @unchecked Sendable {
    typealias Element = Observer.Element

    private let scheduler: any QueueDeliveryDispatching
    private let inBatches: Bool
    /// The scheduler when it is a `MainScheduler` (not a test's stand-in): an element
    /// that would be delivered at once skips the queue. `scheduler` keeps it alive, so
    /// it is not retained for each event.
    private let main: Unmanaged<MainScheduler>?
    /// What waits, and the lock that guards it; the rings' storage is freed with it.
    private let waiting = LockedPair((), SerialQueueWaiting<Element>()) { _, waiting in waiting.release() }

    /// Never called: fills the superclass's `init(observer:)` slot (see `rxUnusedInitializer`).
    override convenience init(observer: consuming Observer) { rxUnusedInitializer() }

    init(scheduler: any QueueDeliveryDispatching, observer: Observer) {
        self.scheduler = scheduler
        self.inBatches = scheduler.deliversInBatches
        if type(of: scheduler) == MainScheduler.self, let main = scheduler as? MainScheduler {
            self.main = Unmanaged.passUnretained(main)
        } else {
            self.main = nil
        }
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): enqueue(element)
        case .error(let error): enqueueTerminal(.error(error))
        case .completed: enqueueTerminal(.completed)
        }
    }

    // The direct path: the same three ways in, with no `Event` built.
    override func acceptsElements<T>(of type: T.Type) -> Bool {
        isSameType(T.self, Element.self)
    }

    override func receiveNext<T>(_ element: T) {
        enqueue(element)
    }

    override func receiveCompleted() {
        enqueueTerminal(.completed)
    }

    override func receiveError(_ error: Swift.Error) {
        enqueueTerminal(.error(error))
    }

    /// Queues an element (an `Element`: `T` is the type `acceptsElements` accepted) and
    /// dispatches its delivery, or delivers it at once where the main scheduler would
    /// run its delivery at once. Nothing of this sink can be waiting then: the
    /// deliveries of the elements before it were dispatched before their `on` returned,
    /// and the main scheduler runs nothing at once while its queue holds work.
    @inline(__always)
    private func enqueue<T>(_ element: T) {
        if let main, main._withUnsafeGuaranteedRef({ scheduler in scheduler.runDeliveryAtOnce { forwardAcceptedNext(element) } }) {
            return
        }
        enqueueAndDispatch(element)
    }

    @inline(never)
    private func enqueueAndDispatch<T>(_ element: T) {
        // Local functions rather than closures on the per-element paths (here, in
        // `deliverOldest` and in `drain`), so that the transition is inlined into the
        // sink's method: called out of line, it looked up the generic state's metadata on
        // every call (callgrind, row 7: twice the instructions).
        let inBatches = inBatches
        @inline(__always)
        func accept(_: inout Void, _ waiting: inout SerialQueueWaiting<Element>) -> Bool {
            waiting.accept(element, inBatches: inBatches)
        }
        if waiting.withLock(accept) {
            scheduler.dispatchDelivery(self)
        }
    }

    private func enqueueTerminal(_ stop: Event<Never>) {
        let inBatches = inBatches
        if waiting.withLock({ _, waiting in waiting.accept(stop, inBatches: inBatches) }) {
            scheduler.dispatchDelivery(self)
        }
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
        @inline(__always)
        func takeOldest(_: inout Void, _ waiting: inout SerialQueueWaiting<Element>) -> SerialQueueWaiting<Element>.Oldest {
            waiting.takeOldest()
        }
        switch waiting.withLock(takeOldest) {
        case .element(let element): forwardAcceptedNext(element)
        case .terminal(let stop): deliver(stop)
        case .nothing: break
        }
    }

    /// Delivers a terminal event that `SerialQueueWaiting` handed out.
    private func deliver(_ stop: Event<Never>) {
        switch stop {
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }

    /// Delivers batch after batch until nothing waits. The elements of a batch are
    /// delivered outside the lock; its emptied ring becomes the next batch's queue.
    private func drain() {
        var batch = ElementRing<Element>()
        var emptied = ElementRing<Element>()
        @inline(__always)
        func nextBatch(_: inout Void, _ waiting: inout SerialQueueWaiting<Element>) -> DrainStep {
            waiting.nextBatch(&batch, emptied: &emptied)
        }
        while true {
            let step = waiting.withLock(nextBatch)
            emptied.release()
            switch step {
            case .batch:
                while !batch.isEmpty {
                    forwardAcceptedNext(batch.removeFirst())
                }
            case .terminal(let stop):
                deliver(stop)
                return
            case .done:
                return
            }
        }
    }

    override func disposeCore() {
        // The waiting elements are dropped outside the lock; a drain running now stops
        // after its batch, whose elements `forwardAcceptedNext` drops.
        var (dropped, droppedSpare) = waiting.withLock { _, waiting in waiting.close() }
        dropped.release()
        droppedSpare.release()
    }
}

/// What waits in an `ObserveOnSerialQueueSink`, reached only under its lock: every
/// method is one transition, and returns what the sink does next, after unlocking.
struct SerialQueueWaiting<Element> {
    /// The waiting elements, oldest first; room is allocated at the first one.
    private var queue = ElementRing<Element>()
    /// The ring of the batch delivered last, emptied: the next batch's queue.
    private var spare = ElementRing<Element>()
    private var terminal = WaitingTerminal.none
    /// Batches: a drain is dispatched or running.
    private var draining = false

    /// One dispatch per event: what the sink delivers next, outside the lock.
    enum Oldest {
        case element(Element)
        case terminal(Event<Never>)
        case nothing
    }

    /// Queues `element` (of the type `Element`, checked by the sink); returns whether
    /// the sink dispatches a delivery: for each event, or when a batch drain must start.
    @inline(__always)
    mutating func accept<T>(_ element: T, inBatches: Bool) -> Bool {
        guard case .none = terminal else { return false }
        queue.append(bitCasting: element)
        return startsDelivery(inBatches)
    }

    /// Queues the terminal event; returns whether the sink dispatches a delivery.
    mutating func accept(_ stop: Event<Never>, inBatches: Bool) -> Bool {
        guard case .none = terminal else { return false }
        terminal = .waiting(stop)
        return startsDelivery(inBatches)
    }

    @inline(__always)
    private mutating func startsDelivery(_ inBatches: Bool) -> Bool {
        if !inBatches { return true }
        if draining { return false }
        draining = true
        return true
    }

    /// One dispatch per event: the oldest event waiting.
    mutating func takeOldest() -> Oldest {
        if !queue.isEmpty { return .element(queue.removeFirst()) }
        guard let stop = takeTerminal() else { return .nothing }
        return .terminal(stop)
    }

    /// Batches: hands the waiting elements to the drain in `batch`, which comes back
    /// delivered and empty; its room becomes the next queue, or goes to `emptied`, for
    /// the drain to free after unlocking.
    @inline(__always)
    mutating func nextBatch(_ batch: inout ElementRing<Element>, emptied: inout ElementRing<Element>) -> DrainStep {
        if spare.room == 0 { spare = batch.takeAll() } else { emptied = batch.takeAll() }
        if queue.isEmpty {
            // Nothing is accepted after the terminal event, so no drain follows this one.
            if let stop = takeTerminal() { return .terminal(stop) }
            draining = false
            return .done
        }
        batch = queue.takeAll()
        queue = spare.takeAll()
        return .batch
    }

    /// The terminal event waiting to be delivered, marked taken so that it is
    /// delivered once.
    @inline(__always)
    private mutating func takeTerminal() -> Event<Never>? {
        guard case .waiting(let stop) = terminal else { return nil }
        terminal = .taken
        return stop
    }

    /// Disposal: nothing more is accepted or delivered; returns the waiting elements,
    /// for the sink to drop after unlocking.
    mutating func close() -> (ElementRing<Element>, ElementRing<Element>) {
        terminal = .taken
        return (queue.takeAll(), spare.takeAll())
    }

    /// Frees the rings' storage (the sink is gone).
    mutating func release() {
        queue.release()
        spare.release()
    }
}

/// A batch drain's next step (`SerialQueueWaiting.nextBatch`). Like `WaitingTerminal`,
/// not nested in the generic state: a type of its own needs no metadata looked up.
enum DrainStep {
    /// The drain's ring holds the next batch.
    case batch
    case terminal(Event<Never>)
    /// Nothing waits: the drain ends.
    case done
}

/// The terminal event of an `ObserveOnSerialQueueSink`. Not nested in the generic
/// state: a type of its own needs no metadata looked up at each use.
enum WaitingTerminal {
    case none
    case waiting(Event<Never>)
    /// Taken for delivery, or the sink was disposed: nothing follows.
    case taken
}

/// A dispatch queue's scheduler as `observe(on:)` hands it its deliveries: one
/// `deliverWaiting` a dispatch, and whether a turn may deliver every event waiting.
protocol QueueDeliveryDispatching: AnyObject, Sendable {
    /// Runs `target.deliverWaiting()` on the queue.
    func dispatchDelivery(_ target: any SerialQueueDelivery)
    /// Whether one turn may deliver every event waiting (else one event a turn).
    var deliversInBatches: Bool { get }
}

extension SerialDispatchQueueScheduler: QueueDeliveryDispatching {}

extension ConcurrentDispatchQueueScheduler: QueueDeliveryDispatching {
    func dispatchDelivery(_ target: any SerialQueueDelivery) {
        configuration.async { target.deliverWaiting() }
    }

    var deliversInBatches: Bool { true }
}

/// The dispatched side of `ObserveOnSerialQueueSink`, without its generic parameters
/// (the scheduler's dispatch must not depend on them).
protocol SerialQueueDelivery: AnyObject, Sendable {
    /// Runs on the queue: delivers what waits (everything, or the oldest event).
    func deliverWaiting()
}
