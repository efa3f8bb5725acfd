extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Subscribes to `second` once this completable completes; an error skips it.
    ///
    /// ```
    /// self:   ----|
    /// second:     ----(a|)
    /// result: --------(a|)
    /// ```
    public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
        Single(raw: PlainProducer(primitiveSequence.asObservable(), AndThen(second: second.asObservable())))
    }

    /// Subscribes to `second` once this completable completes; an error skips it.
    public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: PlainProducer(primitiveSequence.asObservable(), AndThen(second: second.asObservable())))
    }

    /// Subscribes to `second` once this completable completes; an error skips it.
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: PlainProducer(primitiveSequence.asObservable(), AndThen(second: second.asObservable())))
    }

    /// Subscribes to `second` once this completable completes; an error skips it.
    public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
        PlainProducer(primitiveSequence.asObservable(), AndThen(second: second))
    }
}

/// `andThen`'s second sequence: the completable is the source.
struct AndThen<Element>: PlainOperator {
    typealias SourceElement = Swift.Never

    let second: Observable<Element>

    func subscribe<Observer: ObserverType>(_ observer: Observer, to completable: Observable<Swift.Never>) -> Disposable where Observer.Element == Element {
        let sink = AndThenSink(self, observer: observer)
        sink.setUpstream(sink.subscription)
        // The completable's subscription sits in the serial disposable before it starts,
        // so a synchronous completion replaces (and disposes) it rather than the reverse.
        let first = SingleAssignmentDisposable()
        sink.subscription.disposable = first
        first.setDisposable(completable.subscribe(sink))
        return sink
    }
}

/// Observes the completable, then, once it completed, the second sequence through a
/// `SideObserver`: the two never overlap.
final class AndThenSink<Observer: ObserverType>: PlainSink<AndThen<Observer.Element>, Observer>, ObserverType, SideEventReceiver, @unchecked Sendable {
    /// The completable's subscription first, then the second sequence's.
    let subscription = SerialDisposable()

    func on(_ event: Event<Swift.Never>) {
        switch event {
        case .error(let error):
            forwardError(error)
        case .completed:
            if isDisposed { return }
            subscription.disposable = parameters.second.subscribe(SideObserver(self))
        }
    }

    /// An event of the second sequence.
    func receiveSide(_ event: Event<Observer.Element>) {
        forwardEvent(event)
    }
}
