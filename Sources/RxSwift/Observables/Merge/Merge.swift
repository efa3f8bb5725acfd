// merge, flatMap, flatMapFirst, concatMap, merge(maxConcurrent:) and concat() on an
// observable of observables: one sink (MergeSink.swift), one state machine
// (MergeState.swift), three policies for when an inner sequence is subscribed.
// flatMapLatest and switchLatest, the flattening that keeps only the newest inner
// sequence, are Switch.swift.

extension ObservableType {
    /// Projects each element to an observable sequence and merges the elements of all of
    /// them, in the order they arrive.
    ///
    /// ```
    /// source: --1-----2-----------|
    /// flatMap { x in --x--x| (cold) }
    /// result: ----1--1--2--2------|
    /// ```
    ///
    /// It completes once the source and every projected sequence have completed; any
    /// error, or an error thrown by `selector`, ends it.
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
        -> Observable<Source.Element> {
        MergeProducer(source: asObservable(), selector: selector, policy: .unlimited)
    }

    /// Projects an element to an observable sequence only while no projected sequence is
    /// running, and passes on that sequence's elements; elements that arrive meanwhile are
    /// dropped (and `selector` is not called for them).
    ///
    /// ```
    /// source: --1--2-----3--|
    /// flatMapFirst { x in x-----x| (cold) }
    /// result: --1-----1--3-----3|
    /// ```
    public func flatMapFirst<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
        -> Observable<Source.Element> {
        MergeProducer(source: asObservable(), selector: selector, policy: .firstOnly)
    }

    /// Projects each element to an observable sequence and concatenates them: each
    /// projected sequence is subscribed once the previous one completed.
    ///
    /// `selector` runs when the element arrives, even when its sequence has to wait.
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
        -> Observable<Source.Element> {
        MergeProducer(source: asObservable(), selector: selector, policy: .limited(1))
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Merges the elements of every inner observable sequence, in the order they arrive.
    ///
    /// It completes once the outer sequence and every inner one have completed.
    public func merge() -> Observable<Element.Element> {
        MergeProducer(source: asObservable(), selector: { $0 }, policy: .unlimited)
    }

    /// Merges the elements of the inner observable sequences, subscribed to at most
    /// `maxConcurrent` at a time; the others wait, in order, for a running one to complete.
    ///
    /// - parameter maxConcurrent: The largest number of inner sequences subscribed at
    ///   once; at least 1.
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        precondition(maxConcurrent > 0, "Rivulet: merge(maxConcurrent:) needs at least 1, got \(maxConcurrent).")
        return MergeProducer(source: asObservable(), selector: { $0 }, policy: .limited(maxConcurrent))
    }

    /// Concatenates the inner observable sequences: each one is subscribed once the
    /// previous one completed successfully.
    public func concat() -> Observable<Element.Element> {
        merge(maxConcurrent: 1)
    }
}

extension ObservableType {
    /// Merges the elements of every sequence in `sources`, in the order they arrive.
    ///
    /// ```
    /// a:      --1-----3--|
    /// b:      ----2-----4---|
    /// merge(a, b)
    /// result: --1-2---3-4---|
    /// ```
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Observable<Element>
        where Collection.Element == Observable<Element> {
        MergeArrayProducer(sources: Array(sources))
    }

    /// Merges the elements of every sequence in `sources`, in the order they arrive.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        MergeArrayProducer(sources: sources)
    }

    /// Merges the elements of every sequence in `sources`, in the order they arrive.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        MergeArrayProducer(sources: sources)
    }
}

final class MergeProducer<SourceElement, Inner: ObservableConvertibleType>: Producer<Inner.Element>, @unchecked Sendable {
    private let source: Observable<SourceElement>
    private let selector: (SourceElement) throws -> Inner
    private let policy: MergePolicy

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(source: Observable<SourceElement>, selector: @escaping (SourceElement) throws -> Inner, policy: MergePolicy) {
        self.source = source
        self.selector = selector
        self.policy = policy
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Inner.Element {
        let sink = MergeSink(selector: selector, policy: policy, observer: observer)
        sink.setUpstream(sink.group)
        if sink.group.insert(sink.outerSubscription) != nil {
            sink.outerSubscription.setDisposable(source.subscribe(sink))
        }
        return sink
    }
}

/// `merge(a, b, ...)`: every source is an inner sequence from the start; there is no
/// outer sequence (it counts as completed once all are subscribed).
final class MergeArrayProducer<Element>: Producer<Element>, @unchecked Sendable {
    private let sources: [Observable<Element>]

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(sources: [Observable<Element>]) {
        self.sources = sources
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = MergeSink<Observable<Element>, Observable<Element>, Observer>(
            selector: { $0 }, policy: .unlimited, observer: observer)
        sink.setUpstream(sink.group)
        sink.run(sources: sources)
        return sink
    }
}
