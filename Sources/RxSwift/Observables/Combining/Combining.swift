// The machinery shared by every form of combineLatest and zip: the fixed arities
// (generated in Combining+arity.swift, CombineLatest+arity.swift and Zip+arity.swift)
// and the collection forms (CombineLatest+Collection.swift, Zip+Collection.swift).
//
// The two operators differ only in what a source keeps (`LatestStore`: its latest
// element; `ZipStore`: a queue of its elements) and in when a set of values goes out
// (`CombiningRule`). Counting, completion, locking and delivery live here once, in code
// that is not generic over the sources' element types: the typed part is a
// `CombiningValues` object per subscription, whose methods get the element types from
// their own instance. So no event looks up the generic metadata of a tuple, an
// `Optional` or an `Event` of the values (each such lookup hashes a global cache).

/// When a set of values goes out, and when the sequence completes.
enum CombiningRule {
    /// Each time a source emits, once every source has emitted; it completes when every
    /// source has, or when a source emits while all the others completed without ever
    /// emitting. No sources at all: one empty set of values, then completion.
    case combineLatest
    /// Each time every source has an element not yet zipped; it completes when every
    /// source has. No sources at all: completion.
    case zip
    /// As `zip`, and it also completes when an element arrives while every other source
    /// is done (RxSwift's collection zip does; its fixed arities do not).
    case zipCollection
}

/// What a combining operator delivers: the result of one set of values (taken from
/// the stores when it is delivered), or the end.
enum CombiningItem {
    case next
    case completed
    case error(Swift.Error)
}

/// What an element leads to: nothing yet, a set of values going out, or the end.
enum CombiningStep {
    case nothing
    case values
    case completed
}

/// The state of one combining subscription: how many elements each source holds (zip:
/// not yet zipped; combineLatest: 1 once it has a value), which sources are done, and
/// the delivery. Every transition runs under the sink's lock.
struct CombiningState {
    private let rule: CombiningRule
    let arity: Int
    private var counts: [Int]
    /// How many sources hold an element.
    private var filled = 0
    private var isDone: [Bool]
    private var doneCount = 0
    private(set) var isTerminated = false
    var delivery = FanInDelivery<CombiningItem>()

    init(rule: CombiningRule, arity: Int) {
        self.rule = rule
        self.arity = arity
        counts = [Int](repeating: 0, count: arity)
        isDone = [Bool](repeating: false, count: arity)
    }

    /// Source `index` stored an element.
    mutating func next(at index: Int) -> CombiningStep {
        if isTerminated { return .nothing }
        switch rule {
        case .combineLatest:
            if counts[index] == 0 {
                counts[index] = 1
                filled += 1
            }
            if filled == arity { return .values }
            // A source that can never be joined by the others (they are all done
            // without it having had a value) completes the sequence, as in RxSwift.
            let othersDone = doneCount - (isDone[index] ? 1 : 0)
            if othersDone == arity - 1 {
                isTerminated = true
                return .completed
            }
            return .nothing
        case .zip, .zipCollection:
            counts[index] += 1
            if counts[index] == 1 { filled += 1 }
            if filled == arity {
                for source in 0..<arity {
                    counts[source] -= 1
                    if counts[source] == 0 { filled -= 1 }
                }
                return .values
            }
            if case .zipCollection = rule, doneCount == arity - 1 {
                isTerminated = true
                return .completed
            }
            return .nothing
        }
    }

    /// Source `index` completed: the sequence completes once all sources did.
    mutating func completed(at index: Int) -> CombiningItem? {
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
    mutating func fail(_ error: Swift.Error) -> CombiningItem? {
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

/// What one source of a combining operator keeps, guarded by the sink's lock.
class CombiningStore<Element> {
    init() {}

    /// Keeps `element`, whose type the caller checked is `Element`.
    func store<T>(bitCasting element: T) {
        rxAbstractMethod()
    }

    /// The source's value for a set going out now (`queued` false), or for the oldest
    /// set queued behind a delivery (`queued` true).
    func take(queued: Bool) -> Element {
        rxAbstractMethod()
    }

    /// A set of values is queued behind the delivery in progress.
    func keepForQueuedDelivery() {}
}

/// A store for one source of `rule`'s operator: its latest element, or its queue.
func makeStore<Element>(for rule: CombiningRule, of type: Element.Type) -> CombiningStore<Element> {
    rule == .combineLatest ? LatestStore<Element>() : ZipStore<Element>()
}

/// The typed part of one combining subscription: a store per source, and the result
/// selector. Each fixed arity has a subclass (Combining+arity.swift), and the collection
/// forms share `CombiningArrayValues`.
class CombiningValues<Result> {
    /// The stores, in the sources' order; source `i` is a `CombiningStore` of its
    /// element type.
    let stores: [AnyObject]

    init(stores: [AnyObject]) {
        self.stores = stores
    }

    /// A set of values is queued behind the delivery in progress: every store keeps its
    /// part of it.
    func keepForQueuedDelivery() {
        rxAbstractMethod()
    }

    /// Called under `lock`, which it releases before the selector runs: takes one value
    /// of every store (see `CombiningStore.take`) and returns their result.
    func result(queued: Bool, unlocking lock: Lock) throws -> Result {
        rxAbstractMethod()
    }
}

/// The collection forms: every source has the same element type, and the selector
/// receives an array.
final class CombiningArrayValues<Element, Result>: CombiningValues<Result> {
    private let resultSelector: ([Element]) throws -> Result

    init(stores: [CombiningStore<Element>], resultSelector: @escaping ([Element]) throws -> Result) {
        self.resultSelector = resultSelector
        super.init(stores: stores)
    }

    override func keepForQueuedDelivery() {
        for store in stores {
            unsafeDowncast(store, to: CombiningStore<Element>.self).keepForQueuedDelivery()
        }
    }

    override func result(queued: Bool, unlocking lock: Lock) throws -> Result {
        var values: [Element] = []
        values.reserveCapacity(stores.count)
        for store in stores {
            values.append(unsafeDowncast(store, to: CombiningStore<Element>.self).take(queued: queued))
        }
        lock.unlock()
        return try resultSelector(values)
    }
}

/// A combining operator over every source of `collection`, each keeping its elements in
/// a store made by `makeStore`.
func makeCombiningCollection<Collection: Swift.Collection, Result>(
    _ collection: Collection,
    rule: CombiningRule,
    makeStore: @escaping () -> CombiningStore<Collection.Element.Element>,
    resultSelector: @escaping ([Collection.Element.Element]) throws -> Result
) -> Observable<Result> where Collection.Element: ObservableType {
    let sources: [CombiningSource] = collection.map { CombiningTypedSource($0.asObservable()) }
    let count = sources.count
    return CombiningProducer(rule: rule, sources: sources) {
        CombiningArrayValues(stores: (0..<count).map { _ in makeStore() }, resultSelector: resultSelector)
    }
}

/// One source of a combining operator with its element type erased, so that a producer
/// can hold any number of them.
class CombiningSource: @unchecked Sendable {
    func subscribe<Observer: ObserverType>(_ sink: CombiningSink<Observer>, at index: Int, store: AnyObject) -> Disposable {
        rxAbstractMethod()
    }
}

final class CombiningTypedSource<Element>: CombiningSource, @unchecked Sendable {
    private let source: Observable<Element>

    init(_ source: Observable<Element>) {
        self.source = source
    }

    override func subscribe<Observer: ObserverType>(_ sink: CombiningSink<Observer>, at index: Int, store: AnyObject) -> Disposable {
        let store = unsafeDowncast(store, to: CombiningStore<Element>.self)
        return source.subscribe(CombiningInput(sink: sink, index: index, store: store))
    }
}

final class CombiningProducer<Result>: Producer<Result>, @unchecked Sendable {
    private let rule: CombiningRule
    private let sources: [CombiningSource]
    /// The stores and selector of one subscription.
    private let makeValues: () -> CombiningValues<Result>

    init(rule: CombiningRule, sources: [CombiningSource], makeValues: @escaping () -> CombiningValues<Result>) {
        self.rule = rule
        self.sources = sources
        self.makeValues = makeValues
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Result {
        let values = makeValues()
        let sink = CombiningSink(rule: rule, arity: sources.count, values: values, observer: observer)
        sink.trackAs(rule == .combineLatest ? "combineLatest" : "zip")
        if sources.isEmpty {
            sink.finishWithoutSources(rule)
            return sink
        }
        for (index, source) in sources.enumerated() {
            sink.subscriptions[index].setDisposable(source.subscribe(sink, at: index, store: values.stores[index]))
        }
        return sink
    }
}

final class CombiningSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    typealias Result = Observer.Element

    private let lock = Lock.make()
    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per event).
    @exclusivity(unchecked)
    private var state: CombiningState
    private let values: CombiningValues<Result>
    /// One subscription per source; a source that terminates disposes its own.
    let subscriptions: [SingleAssignmentDisposable]

    init(rule: CombiningRule, arity: Int, values: CombiningValues<Result>, observer: Observer) {
        state = CombiningState(rule: rule, arity: arity)
        self.values = values
        subscriptions = (0..<arity).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer)
    }

    /// Source `index` emitted `element` (of `store`'s element type): it is stored, and a
    /// set of values that is due goes out at once, unless another delivery is in
    /// progress (then it queues behind it).
    @inline(__always)
    func next<T, Element>(_ element: T, into store: CombiningStore<Element>, at index: Int) {
        lock.lock()
        if state.isTerminated {
            lock.unlock()
            return
        }
        store.store(bitCasting: element)
        switch state.next(at: index) {
        case .nothing:
            lock.unlock()
        case .values:
            if state.delivery.claim() {
                deliverCurrentValues()
            } else {
                values.keepForQueuedDelivery()
                state.delivery.enqueue(.next)
                lock.unlock()
            }
        case .completed:
            let item = state.delivery.offer(.completed)
            lock.unlock()
            if let item { deliver(item) }
        }
    }

    /// Under the lock, which it releases, as the claimed deliverer: delivers the result
    /// of the current values, then whatever was queued behind it meanwhile.
    private func deliverCurrentValues() {
        guard deliverResult(queued: false) else { return }
        lock.lock()
        let more = state.delivery.release()
        lock.unlock()
        if more { deliverQueued() }
    }

    /// Under the lock, which it releases: delivers the result of the current values (or
    /// of the oldest queued set); `false` when the selector threw, and the error went out.
    private func deliverResult(queued: Bool) -> Bool {
        let result: Result
        do {
            result = try values.result(queued: queued, unlocking: lock)
        } catch {
            lock.withLock { state.abortDelivery() }
            forwardError(error)
            return false
        }
        forwardNext(result)
        return true
    }

    @inline(never)
    private func deliverQueued() {
        guard let next = lock.withLock({ state.delivery.next() }) else { return }
        deliver(next)
    }

    func fail(_ error: Swift.Error, at index: Int) {
        subscriptions[index].dispose()
        let item = lock.withLock { state.fail(error) }
        if let item { deliver(item) }
    }

    func completed(at index: Int) {
        subscriptions[index].dispose()
        let item = lock.withLock { state.completed(at: index) }
        if let item { deliver(item) }
    }

    /// Delivers `first`, then whatever was queued behind it meanwhile.
    private func deliver(_ first: CombiningItem) {
        deliverInOrder(first, lock: lock, next: { state.delivery.next() }) { item in
            switch item {
            case .next:
                lock.lock()
                return deliverResult(queued: true)
            case .completed:
                forwardCompleted()
                return false
            case .error(let error):
                forwardError(error)
                return false
            }
        }
    }

    /// No sources at all: combineLatest produces the result of no values, then both
    /// complete.
    func finishWithoutSources(_ rule: CombiningRule) {
        if rule == .combineLatest {
            lock.lock()
            guard deliverResult(queued: false) else { return }
        }
        forwardCompleted()
    }

    override func disposeCore() {
        for subscription in subscriptions {
            subscription.dispose()
        }
    }
}

/// The observer of one source: stores each element and reports to the sink.
final class CombiningInput<Element, Observer: ObserverType>: DirectObserver, ObserverType, @unchecked Sendable {
    private let sink: CombiningSink<Observer>
    private let index: Int
    private let store: CombiningStore<Element>

    init(sink: CombiningSink<Observer>, index: Int, store: CombiningStore<Element>) {
        self.sink = sink
        self.index = index
        self.store = store
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        T.self == Element.self
    }

    override func receiveNext<T>(_ element: T) {
        sink.next(element, into: store, at: index)
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
            sink.next(element, into: store, at: index)
        case .error(let error):
            sink.fail(error, at: index)
        case .completed:
            sink.completed(at: index)
        }
    }
}
