// The machinery shared by every form of combineLatest: the fixed arities (generated in
// CombineLatest+arity.swift) and the collection forms (CombineLatest+Collection.swift).
//
// A form only decides how the latest values are stored (`Values`: a tuple of optionals
// for the fixed arities, an array for collections), how each source writes its slot
// (`store`) and how a complete set of values becomes a result (`resultSelector`). Events,
// completion rules, locking and delivery live here once.

/// The state of one combineLatest subscription: the latest value of every source, which
/// sources have produced a value, which are done, and the delivery downstream.
///
/// Every transition runs under the sink's lock and returns the event to deliver after
/// unlocking (or `nil`).
struct CombineLatestState<Values> {
    private let arity: Int
    private var hasValue: [Bool]
    private var valueCount = 0
    private var isDone: [Bool]
    private var doneCount = 0
    private(set) var isTerminated = false
    var delivery = FanInDelivery<Event<Values>>()
    /// The latest value of each source; the typed inputs write their own slot. Last, so
    /// that the fields before it sit at fixed offsets (reaching them needs no metadata).
    var values: Values

    init(arity: Int, values: Values) {
        self.arity = arity
        self.values = values
        hasValue = [Bool](repeating: false, count: arity)
        isDone = [Bool](repeating: false, count: arity)
    }

    /// Source `index` stored a value: once every source has one, the current values go
    /// out; a source that can never be joined by the others (they are all done without
    /// it having had a value) completes the sequence, as in RxSwift.
    mutating func next(at index: Int) -> CombineLatestStep {
        if isTerminated { return .nothing }
        if !hasValue[index] {
            hasValue[index] = true
            valueCount += 1
        }
        if valueCount == arity {
            return .values
        }
        let othersDone = doneCount - (isDone[index] ? 1 : 0)
        if othersDone == arity - 1 {
            isTerminated = true
            return .completed
        }
        return .nothing
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

/// What a stored value leads to: nothing yet, the current values going out, or the end.
enum CombineLatestStep {
    case nothing
    case values
    case completed
}

/// One source of a combineLatest with its element type erased, so that a producer can
/// hold any number of them; `store` writes an element into the source's slot of `Values`.
class CombineLatestSource<Values>: @unchecked Sendable {
    func subscribe<Observer: ObserverType>(_ sink: CombineLatestSink<Values, Observer>, at index: Int) -> Disposable {
        rxAbstractMethod()
    }
}

final class CombineLatestTypedSource<Element, Values>: CombineLatestSource<Values>, @unchecked Sendable {
    private let source: Observable<Element>
    private let store: (inout Values, Element) -> Void

    init(_ source: Observable<Element>, store: @escaping (inout Values, Element) -> Void) {
        self.source = source
        self.store = store
    }

    override func subscribe<Observer: ObserverType>(_ sink: CombineLatestSink<Values, Observer>, at index: Int) -> Disposable {
        source.subscribe(CombineLatestInput(sink: sink, index: index, store: store))
    }
}

final class CombineLatestProducer<Values, Result>: Producer<Result>, @unchecked Sendable {
    private let sources: [CombineLatestSource<Values>]
    private let initialValues: Values
    private let resultSelector: (Values) throws -> Result

    init(sources: [CombineLatestSource<Values>], initialValues: Values, resultSelector: @escaping (Values) throws -> Result) {
        self.sources = sources
        self.initialValues = initialValues
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Result {
        let sink = CombineLatestSink(
            arity: sources.count, values: initialValues, resultSelector: resultSelector, observer: observer)
        if sources.isEmpty {
            // An empty collection combines into one empty set of values, then completes.
            sink.deliverLone(initialValues)
            return sink
        }
        for (index, source) in sources.enumerated() {
            sink.subscriptions[index].setDisposable(source.subscribe(sink, at: index))
        }
        return sink
    }
}

final class CombineLatestSink<Values, Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    typealias Result = Observer.Element

    private let lock = Lock.make()
    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per event).
    @exclusivity(unchecked)
    private var state: CombineLatestState<Values>
    private let resultSelector: (Values) throws -> Result
    /// One subscription per source; a source that completes disposes its own.
    let subscriptions: [SingleAssignmentDisposable]

    init(arity: Int, values: Values, resultSelector: @escaping (Values) throws -> Result, observer: Observer) {
        state = CombineLatestState(arity: arity, values: values)
        self.resultSelector = resultSelector
        subscriptions = (0..<arity).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer)
    }

    /// Stores `element` in its slot; the resulting values are delivered at once, with no
    /// `Event` built, unless another delivery is in progress (then they queue behind it).
    @inline(__always)
    func next<Element>(_ element: Element, at index: Int, store: (inout Values, Element) -> Void) {
        lock.lock()
        if !state.isTerminated {
            store(&state.values, element)
        }
        switch state.next(at: index) {
        case .nothing:
            lock.unlock()
        case .values:
            guard state.delivery.claim() else {
                state.delivery.enqueue(.next(state.values))
                lock.unlock()
                return
            }
            let values = state.values
            lock.unlock()
            deliverClaimed(values)
        case .completed:
            let event = state.delivery.offer(.completed)
            lock.unlock()
            if let event { deliver(event) }
        }
    }

    /// Delivers the result of `values` as the claimed deliverer, then whatever was
    /// queued behind it meanwhile.
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

    /// The combination of no sources at all: one result, then completion.
    func deliverLone(_ values: Values) {
        do {
            forwardNext(try resultSelector(values))
        } catch {
            forwardTerminal(.error(error))
            return
        }
        forwardTerminal(.completed)
    }

    override func disposeCore() {
        for subscription in subscriptions {
            subscription.dispose()
        }
    }
}

/// The observer of one source: stores each element in its slot and reports to the sink.
final class CombineLatestInput<Element, Values, Observer: ObserverType>: DirectObserver, ObserverType, @unchecked Sendable {
    private let sink: CombineLatestSink<Values, Observer>
    private let index: Int
    private let store: (inout Values, Element) -> Void

    init(sink: CombineLatestSink<Values, Observer>, index: Int, store: @escaping (inout Values, Element) -> Void) {
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
