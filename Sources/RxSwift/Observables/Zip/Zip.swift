// The machinery shared by every form of zip: the fixed arities (generated in
// Zip+arity.swift) and the collection forms (Zip+Collection.swift).
//
// A form decides how the queued elements are stored (`Buffers`: a tuple of queues for
// the fixed arities, an array of queues for collections), how a source enqueues
// (`store`), how one element of each queue is taken (`take`, giving `Values`) and how
// those become a result. Counting, completion rules, locking and delivery live here.

/// The state of one zip subscription: the queued elements of every source (typed, in
/// `buffers`), how many each one holds, which sources are done, and the delivery.
///
/// Every transition runs under the sink's lock and returns the event to deliver after
/// unlocking (or `nil`).
struct ZipState<Buffers, Values> {
    private let take: (inout Buffers) -> Values
    /// The number of sources.
    let arity: Int
    private var counts: [Int]
    private var nonEmpty = 0
    private var isDone: [Bool]
    private var doneCount = 0
    /// The collection form also completes when an element arrives and every other
    /// source is done (RxSwift's collection zip does; its fixed arities do not).
    private let completesWhenOthersDone: Bool
    private(set) var isTerminated = false
    var delivery = FanInDelivery<Event<Values>>()
    /// The elements each source produced that were not zipped yet. Last, so that the
    /// fields before it sit at fixed offsets (reaching them needs no metadata).
    var buffers: Buffers

    init(arity: Int, buffers: Buffers, take: @escaping (inout Buffers) -> Values, completesWhenOthersDone: Bool) {
        self.arity = arity
        self.buffers = buffers
        self.take = take
        self.completesWhenOthersDone = completesWhenOthersDone
        counts = [Int](repeating: 0, count: arity)
        isDone = [Bool](repeating: false, count: arity)
    }

    /// Source `index` enqueued an element: when every queue holds one, the front of
    /// each goes out together.
    mutating func next(at index: Int) -> ZipStep {
        if isTerminated { return .nothing }
        counts[index] += 1
        if counts[index] == 1 { nonEmpty += 1 }
        if nonEmpty == arity {
            for source in 0..<arity {
                counts[source] -= 1
                if counts[source] == 0 { nonEmpty -= 1 }
            }
            return .zipped
        }
        if completesWhenOthersDone && doneCount == arity - 1 {
            isTerminated = true
            return .completed
        }
        return .nothing
    }

    /// After `next` returned `.zipped`: takes the front element of every queue.
    mutating func takeValues() -> Values {
        take(&buffers)
    }

    /// Source `index` completed: the sequence completes once all sources did.
    mutating func completed(at index: Int) -> Event<Values>? {
        if isTerminated || isDone[index] { return nil }
        isDone[index] = true
        doneCount += 1
        if doneCount == arity {
            isTerminated = true
            return delivery.offer(.completed)
        }
        return nil
    }

    /// A source failed: the error goes out and nothing follows.
    mutating func fail(_ error: Swift.Error) -> Event<Values>? {
        if isTerminated { return nil }
        isTerminated = true
        return delivery.offer(.error(error))
    }

    /// The result selector threw while delivering: nothing is accepted or delivered any more.
    mutating func abortDelivery() {
        isTerminated = true
        delivery.close()
    }
}

/// What an enqueued element leads to: nothing yet, one element of each source going
/// out together (take them with `takeValues`), or the end.
enum ZipStep {
    case nothing
    case zipped
    case completed
}

/// One source of a zip with its element type erased; `store` enqueues an element into
/// the source's queue in `Buffers`.
class ZipSource<Buffers, Values>: @unchecked Sendable {
    func subscribe<Observer: ObserverType>(_ sink: ZipSink<Buffers, Values, Observer>, at index: Int) -> Disposable {
        rxAbstractMethod()
    }
}

final class ZipTypedSource<Element, Buffers, Values>: ZipSource<Buffers, Values>, @unchecked Sendable {
    private let source: Observable<Element>
    private let store: (inout Buffers, Element) -> Void

    init(_ source: Observable<Element>, store: @escaping (inout Buffers, Element) -> Void) {
        self.source = source
        self.store = store
    }

    override func subscribe<Observer: ObserverType>(_ sink: ZipSink<Buffers, Values, Observer>, at index: Int) -> Disposable {
        source.subscribe(ZipInput(sink: sink, index: index, store: store))
    }
}

final class ZipProducer<Buffers, Values, Result>: Producer<Result>, @unchecked Sendable {
    private let sources: [ZipSource<Buffers, Values>]
    private let buffers: Buffers
    private let take: (inout Buffers) -> Values
    private let completesWhenOthersDone: Bool
    private let resultSelector: (Values) throws -> Result

    init(
        sources: [ZipSource<Buffers, Values>],
        buffers: Buffers,
        take: @escaping (inout Buffers) -> Values,
        completesWhenOthersDone: Bool,
        resultSelector: @escaping (Values) throws -> Result
    ) {
        self.sources = sources
        self.buffers = buffers
        self.take = take
        self.completesWhenOthersDone = completesWhenOthersDone
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Result {
        let state = ZipState(arity: sources.count, buffers: buffers, take: take, completesWhenOthersDone: completesWhenOthersDone)
        let sink = ZipSink(state: state, resultSelector: resultSelector, observer: observer)
        if sources.isEmpty {
            // Nothing to zip: the sequence completes at once.
            sink.forwardTerminal(.completed)
            return sink
        }
        for (index, source) in sources.enumerated() {
            sink.subscriptions[index].setDisposable(source.subscribe(sink, at: index))
        }
        return sink
    }
}

final class ZipSink<Buffers, Values, Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    typealias Result = Observer.Element

    private let lock = Lock.make()
    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per event).
    @exclusivity(unchecked)
    private var state: ZipState<Buffers, Values>
    private let resultSelector: (Values) throws -> Result
    /// One subscription per source; a source that terminates disposes its own.
    let subscriptions: [SingleAssignmentDisposable]

    init(state: ZipState<Buffers, Values>, resultSelector: @escaping (Values) throws -> Result, observer: Observer) {
        self.state = state
        self.resultSelector = resultSelector
        subscriptions = (0..<state.arity).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer)
    }

    @inline(__always)
    func next<Element>(_ element: Element, at index: Int, store: (inout Buffers, Element) -> Void) {
        lock.lock()
        if state.isTerminated {
            lock.unlock()
            return
        }
        store(&state.buffers, element)
        switch state.next(at: index) {
        case .nothing:
            lock.unlock()
        case .zipped:
            let values = state.takeValues()
            guard state.delivery.claim() else {
                state.delivery.enqueue(.next(values))
                lock.unlock()
                return
            }
            lock.unlock()
            deliverClaimed(values)
        case .completed:
            let event = state.delivery.offer(.completed)
            lock.unlock()
            if let event { deliver(event) }
        }
    }

    /// Delivers the result of `values` as the claimed deliverer (no `Event` built), then
    /// whatever was queued behind it meanwhile.
    private func deliverClaimed(_ values: Values) {
        let result: Result
        do {
            result = try resultSelector(values)
        } catch {
            lock.withLock { state.abortDelivery() }
            forwardTerminal(.error(error))
            return
        }
        forwardNext(result)
        lock.lock()
        let more = state.delivery.release()
        lock.unlock()
        if more { deliverQueued() }
    }

    @inline(never)
    private func deliverQueued() {
        guard let next = lock.withLock({ state.delivery.next() }) else { return }
        deliver(next)
    }

    func fail(_ error: Swift.Error, at index: Int) {
        subscriptions[index].dispose()
        let event = lock.withLock { state.fail(error) }
        if let event { deliver(event) }
    }

    func completed(at index: Int) {
        subscriptions[index].dispose()
        let event = lock.withLock { state.completed(at: index) }
        if let event { deliver(event) }
    }

    /// Delivers `first`, then whatever was queued behind it meanwhile.
    private func deliver(_ first: Event<Values>) {
        deliverInOrder(first, lock: lock, next: { state.delivery.next() }) { event in
            switch event {
            case .next(let values):
                let result: Result
                do {
                    result = try resultSelector(values)
                } catch {
                    lock.withLock { state.abortDelivery() }
                    forwardTerminal(.error(error))
                    return false
                }
                forwardNext(result)
                return true
            case .error(let error):
                forwardTerminal(.error(error))
                return false
            case .completed:
                forwardTerminal(.completed)
                return false
            }
        }
    }

    override func disposeCore() {
        for subscription in subscriptions {
            subscription.dispose()
        }
    }
}

/// The observer of one source: enqueues each element and reports to the sink.
final class ZipInput<Element, Buffers, Values, Observer: ObserverType>: DirectObserver, ObserverType, @unchecked Sendable {
    private let sink: ZipSink<Buffers, Values, Observer>
    private let index: Int
    private let store: (inout Buffers, Element) -> Void

    init(sink: ZipSink<Buffers, Values, Observer>, index: Int, store: @escaping (inout Buffers, Element) -> Void) {
        self.sink = sink
        self.index = index
        self.store = store
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        T.self == Element.self
    }

    override func receiveNext<T>(_ element: T) {
        sink.next(unsafeBitCast(element, to: Element.self), at: index, store: store)
    }

    override func receiveCompleted() {
        sink.completed(at: index)
    }

    override func receiveError(_ error: Swift.Error) {
        sink.fail(error, at: index)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            sink.next(element, at: index, store: store)
        case .error(let error):
            sink.fail(error, at: index)
        case .completed:
            sink.completed(at: index)
        }
    }
}
