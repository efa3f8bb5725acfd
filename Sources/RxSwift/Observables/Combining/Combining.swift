// combineLatest and zip: the public collection forms, the producer, and the typed part
// of a subscription. The fixed arities are generated (Combining+Arity.generated.swift,
// CombineLatest+Arity.generated.swift and Zip+Arity.generated.swift); the sink is CombiningSink.swift, its
// state machine CombiningState.swift, and what each source keeps CombiningStores.swift.
//
// The two operators differ only in what a source keeps (`LatestStore`: its latest
// element; `ZipStore`: a queue of its elements) and in when a set of values goes out
// (`CombiningRule`). Counting, completion, locking and delivery live once, in code
// that is not generic over the sources' element types: the typed part is a
// `CombiningValues` object per subscription, whose methods get the element types from
// their own instance. So no event looks up the generic metadata of a tuple, an
// `Optional` or an `Event` of the values (each such lookup hashes a global cache).

extension ObservableType {
    /// Combines the latest elements of every source in `collection` with `resultSelector`
    /// each time one of them emits, once each has emitted at least once.
    ///
    /// ```
    /// a:      --1-----2-----------|
    /// b:      -----x-----y--z--|
    /// combineLatest([a, b]) { $0.joined() }
    /// result: -----1x-2x-2y-2z----|
    /// ```
    ///
    /// It completes when every source has completed, or as soon as a source emits while
    /// all the others completed without ever emitting. An empty collection produces
    /// `resultSelector([])` and completes.
    ///
    /// - parameter collection: The sources.
    /// - parameter resultSelector: Receives the latest element of each source, in the
    ///   collection's order.
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Observable<Element> where Collection.Element: ObservableType {
        makeCombiningCollection(collection, rule: .combineLatest, resultSelector: resultSelector)
    }

    /// Combines the latest elements of every source in `collection` into an array each
    /// time one of them emits, once each has emitted at least once.
    ///
    /// ```
    /// a:      --1-----2-----|
    /// b:      -----3-----4--|
    /// combineLatest([a, b])
    /// result: -----A--B--C--|    A = [1, 3], B = [2, 3], C = [2, 4]
    /// ```
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection) -> Observable<[Element]>
        where Collection.Element: ObservableType, Collection.Element.Element == Element {
        makeCombiningCollection(collection, rule: .combineLatest) { $0 }
    }
}

extension ObservableType {
    /// Combines the elements of every source in `collection` with `resultSelector`, pairing
    /// each source's n-th element with the n-th element of the others.
    ///
    /// ```
    /// a:      --1-----2-----3--|
    /// b:      -----x-----y-----|
    /// zip([a, b]) { $0.joined() }
    /// result: -----1x----2y----|
    /// ```
    ///
    /// It completes when every source has completed, or as soon as a source emits while
    /// every other source is done. An empty collection completes at once.
    ///
    /// - parameter collection: The sources.
    /// - parameter resultSelector: Receives one element of each source, in the
    ///   collection's order.
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Observable<Element> where Collection.Element: ObservableType {
        makeCombiningCollection(collection, rule: .zipCollection, resultSelector: resultSelector)
    }

    /// Combines the elements of every source in `collection` into arrays, pairing each
    /// source's n-th element with the n-th element of the others.
    ///
    /// ```
    /// a:      --1-----2-----3--|
    /// b:      -----4-----5-----|
    /// zip([a, b])
    /// result: -----[1,4]-[2,5]-|
    /// ```
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> Observable<[Element]>
        where Collection.Element: ObservableType, Collection.Element.Element == Element {
        makeCombiningCollection(collection, rule: .zipCollection) { $0 }
    }
}

/// The typed part of one combining subscription: a store per source, and the result
/// selector. Each fixed arity has a subclass (Combining+Arity.generated.swift), and the collection
/// forms share `CombiningArrayValues`.
///
/// The deliverer of a set of values runs the selector under the sink's lock, on values
/// taken straight from the stores (as RxSwift does), and delivers the result after
/// unlocking. Between the two the result waits here; only the deliverer touches it,
/// and the delivery is serialised, so no one else is in between.
class CombiningValues<Result> {
    /// The stores, in the sources' order; source `i` is a `CombiningStore` of its
    /// element type.
    let stores: [AnyObject]
    /// The result `makeResult` made, until the deliverer takes it.
    private final let result = UnsafeMutablePointer<Result>.allocate(capacity: 1)

    init(stores: [AnyObject]) {
        self.stores = stores
    }

    deinit {
        result.deallocate()
    }

    /// A set of values is queued behind the delivery in progress: every store keeps its
    /// part of it.
    func keepForQueuedDelivery() {
        rxAbstractMethod()
    }

    /// Under the lock, by the deliverer: takes one value of every store (see
    /// `CombiningStore.take`) and makes their result with the selector, for
    /// `takeResult`. Nothing is kept when the selector throws.
    func makeResult(queued: Bool) throws {
        rxAbstractMethod()
    }

    /// For `makeResult`: keeps `value` for the deliverer.
    @inline(__always)
    final func keepResult(_ value: consuming Result) {
        result.initialize(to: value)
    }

    /// After unlocking, by the deliverer: the result `makeResult` made.
    @inline(__always)
    final func takeResult() -> Result {
        result.move()
    }
}

/// The collection forms: every source has the same element type, and the selector
/// receives an array.
final class CombiningArrayValues<Element, Result>: CombiningValues<Result> {
    private let resultSelector: ([Element]) throws -> Result

    /// Never called: fills the superclass's `init(stores:)` slot (see `rxUnusedInitializer`).
    override convenience init(stores: [AnyObject]) { rxUnusedInitializer() }

    init(stores: [CombiningStore<Element>], resultSelector: @escaping ([Element]) throws -> Result) {
        self.resultSelector = resultSelector
        super.init(stores: stores)
    }

    override func keepForQueuedDelivery() {
        for store in stores {
            unsafeDowncast(store, to: CombiningStore<Element>.self).keepForQueuedDelivery()
        }
    }

    override func makeResult(queued: Bool) throws {
        var values: [Element] = []
        values.reserveCapacity(stores.count)
        for store in stores {
            values.append(unsafeDowncast(store, to: CombiningStore<Element>.self).take(queued: queued))
        }
        keepResult(try resultSelector(values))
    }
}

/// combineLatest or zip (`rule`) over every source of `collection`: the collection
/// forms of both, for observables and the traits alike (which pass their sources as
/// they are, rather than through an overload of the `Observable` forms).
func makeCombiningCollection<Collection: Swift.Collection, Result>(
    _ collection: Collection,
    rule: CombiningRule,
    resultSelector: @escaping ([Collection.Element.Element]) throws -> Result
) -> Observable<Result> where Collection.Element: ObservableConvertibleType {
    let sources: [CombiningSource] = collection.map { CombiningTypedSource($0.asObservable()) }
    let count = sources.count
    return CombiningProducer(rule: rule, sources: sources) {
        CombiningArrayValues(
            stores: (0..<count).map { _ in makeStore(for: rule, of: Collection.Element.Element.self) },
            resultSelector: resultSelector
        )
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

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

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

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

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

