extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Subscribes to `second` once this completable completes; an error skips it.
    ///
    /// ```
    /// self:   ----|
    /// second:     ----(a|)
    /// result: --------(a|)
    /// ```
    public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
        Single(raw: AndThen(completable: primitiveSequence.asObservable(), second: second.asObservable()))
    }

    /// Subscribes to `second` once this completable completes; an error skips it.
    public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: AndThen(completable: primitiveSequence.asObservable(), second: second.asObservable()))
    }

    /// Subscribes to `second` once this completable completes; an error skips it.
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: AndThen(completable: primitiveSequence.asObservable(), second: second.asObservable()))
    }

    /// Subscribes to `second` once this completable completes; an error skips it.
    public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
        AndThen(completable: primitiveSequence.asObservable(), second: second)
    }
}

/// Runs a completable, then, once it completed, the second sequence.
final class AndThen<Element>: Producer<Element>, @unchecked Sendable {
    private let completable: Observable<Swift.Never>
    private let second: Observable<Element>

    init(completable: Observable<Swift.Never>, second: Observable<Element>) {
        self.completable = completable
        self.second = second
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = AndThenSink(second: second, observer: observer)
        sink.setUpstream(sink.subscription)
        // The completable's subscription sits in the serial disposable before it starts,
        // so a synchronous completion replaces (and disposes) it rather than the reverse.
        let first = SingleAssignmentDisposable()
        sink.subscription.disposable = first
        first.setDisposable(completable.subscribe(AndThenFirstObserver(sink: sink)))
        return sink
    }
}

/// Receives the completable's events on behalf of the sink.
struct AndThenFirstObserver<Observer: ObserverType>: ObserverType {
    let sink: AndThenSink<Observer>

    func on(_ event: Event<Swift.Never>) {
        switch event {
        case .error(let error):
            sink.forwardError(error)
        case .completed:
            sink.startSecond()
        }
    }
}

final class AndThenSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    /// The completable's subscription first, then the second sequence's.
    let subscription = SerialDisposable()
    private let second: Observable<Element>

    init(second: Observable<Element>, observer: Observer) {
        self.second = second
        super.init(observer: observer)
    }

    func startSecond() {
        if isDisposed { return }
        subscription.disposable = second.subscribe(self)
    }

    func on(_ event: Event<Element>) {
        forwardEvent(event)
    }
}
