extension ObservableType {
    /// Continues a sequence that fails with the sequence `handler` returns for the error.
    ///
    /// ```
    /// source:   -1-2-X
    /// handler:       -8-9|   (subscribed when the error arrives)
    /// result:   -1-2--8-9|
    /// ```
    ///
    /// - parameter handler: Returns the sequence to continue with; an error it throws ends the result with that error.
    /// - returns: The source's elements, then, after an error, those of the handler's sequence.
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        PlainProducer(asObservable(), Catch(handler: handler))
    }

    /// Continues a sequence that fails with the sequence `handler` returns for the error.
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        `catch`(handler)
    }

    /// Ends a sequence that fails with `element` and a completion instead of the error.
    ///
    /// ```
    /// source:   -1-2-X
    /// catchAndReturn(0)
    /// result:   -1-2-(0|)
    /// ```
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        PlainProducer(asObservable(), Catch(handler: { _ in Observable.just(element) }))
    }

    /// Ends a sequence that fails with `element` and a completion instead of the error.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Observable<Element> {
        catchAndReturn(element)
    }
}

extension ObservableType {
    /// Subscribes to the sequences one after another, moving on each time one fails,
    /// until one completes; fails with the last error if all of them fail.
    ///
    /// ```
    /// first:    -1-X
    /// second:      -2-X
    /// third:          -3|
    /// result:   -1--2--3|
    /// ```
    ///
    /// - parameter sequence: The sequences to try, in order.
    /// - returns: The elements of every attempt, ending like the first attempt that completes.
    public static func `catch`<Sequence: Swift.Sequence>(sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        SourcesProducer(CatchSequence(sources: sequence))
    }

    /// Subscribes to the sequences one after another, moving on each time one fails.
    @available(*, deprecated, renamed: "catch(sequence:)")
    public static func catchError<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        `catch`(sequence: sequence)
    }
}

extension ObservableType {
    /// Subscribes to the source again each time it fails, until it completes.
    ///
    /// **This can repeat forever.**
    ///
    /// ```
    /// source (cold):  -1-X
    /// retry()
    /// result:         -1--1--1-...
    /// ```
    public func retry() -> Observable<Element> {
        SourcesProducer(CatchSequence(sources: Swift.repeatElement(asObservable(), count: Int.max)))
    }

    /// Subscribes to the source up to `maxAttemptCount` times in all, each time it
    /// fails, until it completes; fails with the last error once the attempts run out.
    ///
    /// To retry once after a failure, use `retry(2)`.
    ///
    /// - parameter maxAttemptCount: How many subscriptions are made at most (0: the result completes at once).
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        precondition(maxAttemptCount >= 0, "Rivulet: retry(_:) needs an attempt count of 0 or more, got \(maxAttemptCount).")
        return SourcesProducer(CatchSequence(sources: Swift.repeatElement(asObservable(), count: maxAttemptCount)))
    }
}

// MARK: - catch with a handler

/// `catch(_:)`'s parameter.
struct Catch<Element>: PlainOperator {
    let handler: (Swift.Error) throws -> Observable<Element>

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        let sink = CatchSink(self, observer: observer)
        sink.run(source: source)
        return sink
    }
}

/// Only one sequence sends events at a time (the source, then the handler's), so
/// their own serialisation is all the delivery needs.
final class CatchSink<Observer: ObserverType>: PlainSink<Catch<Observer.Element>, Observer>, ObserverType, SideEventReceiver, @unchecked Sendable {
    /// The source's subscription, then the handler sequence's.
    private let subscription = SerialDisposable()

    func run(source: Observable<Element>) {
        let first = SingleAssignmentDisposable()
        subscription.disposable = first
        setUpstream(subscription)
        first.setDisposable(source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardEvent(event)
        case .completed:
            forwardEvent(event)
        case .error(let error):
            if isDisposed { return }
            let fallback: Observable<Element>
            do {
                fallback = try parameters.handler(error)
            } catch {
                forwardError(error)
                return
            }
            subscription.disposable = fallback.subscribe(SideObserver(self))
        }
    }

    /// An event of the handler's sequence.
    func receiveSide(_ event: Event<Element>) {
        forwardEvent(event)
    }
}

// MARK: - catch over a sequence of sources (and retry)

/// `catch(sequence:)`'s and `retry`'s sequences, iterated afresh for each subscription.
struct CatchSequence<Sources: Sequence, Element>: SourcesOperator where Sources.Element == Observable<Element> {
    let sources: Sources

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = CatchSequenceSink(self, observer: observer)
        sink.run()
        return sink
    }
}

/// Moves to the next source after each failure (`SubscribesSourcesInTurn`): a source
/// that fails while being subscribed to is followed once that subscription returns.
final class CatchSequenceSink<Sources: Sequence, Observer: ObserverType>: PlainSink<CatchSequence<Sources, Observer.Element>, Observer>, ObserverType,
    SubscribesSourcesInTurn, @unchecked Sendable where Sources.Element == Observable<Observer.Element> {
    private let subscription = SerialDisposable()

    /// The remaining sources. Touched only by `moveNext`, and moves run one at a time:
    /// each follows the failure of the source the one before subscribed, so it runs
    /// after that one took what it needed. `next()` may run user code (a lazy sequence's
    /// closure), so it runs here, on the move, with no lock held.
    private var sources: Sources.Iterator
    /// The last source's error, for when no source is left.
    private let lastError = LockedState<Swift.Error?>(nil)

    override init(_ parameters: CatchSequence<Sources, Element>, observer: Observer) {
        sources = parameters.sources.makeIterator()
        super.init(parameters, observer: observer)
    }

    func run() {
        setUpstream(subscription)
        scheduleMoveNext()
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardEvent(event)
        case .completed:
            forwardEvent(event)
        case .error(let error):
            lastError.withLock { $0 = error }
            scheduleMoveNext()
        }
    }

    func moveNext() {
        if isDisposed { return }
        let next = sources.next()
        let error = lastError.withLock { $0 }
        guard let next else {
            if let error { forwardError(error) } else { forwardCompleted() }
            return
        }
        let current = SingleAssignmentDisposable()
        subscription.disposable = current
        current.setDisposable(next.subscribe(self))
    }
}
