extension ObservableType {
    /// Subscribes to the source again, after it fails with an `Error`, each time the
    /// trigger sequence built by `notificationHandler` sends an element.
    ///
    /// `notificationHandler` receives the sequence of the source's errors (once per
    /// subscription) and returns the trigger: its elements retry, its completion ends
    /// the result with a completion, its error ends it with that error. An error of
    /// another type than `Error` ends the result at once.
    ///
    /// ```
    /// source (cold):  -1-X
    /// trigger:           ---t      (t after each error, 3 ticks late)
    /// result:         -1-----1-...
    /// ```
    ///
    /// - parameter notificationHandler: Builds the trigger from the sequence of errors.
    /// - returns: The source's elements, over every attempt.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable) -> Observable<Element> {
        PlainProducer(asObservable(), RetryWhen<Element, TriggerObservable, Error>(notificationHandler: notificationHandler))
    }

    /// Subscribes to the source again, after it fails, each time the trigger sequence
    /// built by `notificationHandler` sends an element.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Error: Swift.Error>(_ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable) -> Observable<Element> {
        retry(when: notificationHandler)
    }

    /// Subscribes to the source again, after it fails with any error, each time the
    /// trigger sequence built by `notificationHandler` sends an element.
    ///
    /// `notificationHandler` receives the sequence of the source's errors (once per
    /// subscription) and returns the trigger: its elements retry, its completion ends
    /// the result with a completion, its error ends it with that error.
    ///
    /// - parameter notificationHandler: Builds the trigger from the sequence of errors.
    /// - returns: The source's elements, over every attempt.
    public func retry<TriggerObservable: ObservableType>(when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable) -> Observable<Element> {
        PlainProducer(asObservable(), RetryWhen<Element, TriggerObservable, Swift.Error>(notificationHandler: notificationHandler))
    }

    /// Subscribes to the source again, after it fails with any error, each time the
    /// trigger sequence built by `notificationHandler` sends an element.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(_ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable) -> Observable<Element> {
        retry(when: notificationHandler)
    }
}

/// `retry(when:)`'s parameter.
struct RetryWhen<Element, TriggerObservable: ObservableType, TriggerError>: PlainOperator {
    let notificationHandler: (Observable<TriggerError>) -> TriggerObservable

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        let sink = RetryWhenSink(self, source: source, observer: observer)
        sink.run(trigger: notificationHandler(sink.errors.asObservable()).asObservable())
        return sink
    }
}

/// The source and the trigger may send from different threads, so events go out
/// serialised (`SerializedSink`). Each retry is a move to the next source
/// (`SubscribesSourcesInTurn`).
final class RetryWhenSink<Observer: ObserverType, TriggerObservable: ObservableType, TriggerError>:
    PlainSerializedSink<RetryWhen<Observer.Element, TriggerObservable, TriggerError>, Observer, Void>, ObserverType, SubscribesSourcesInTurn,
    @unchecked Sendable {
    typealias Parameters = RetryWhen<Observer.Element, TriggerObservable, TriggerError>

    private let source: Observable<Element>
    /// The errors of the source, for the notification handler.
    let errors = PublishSubject<TriggerError>()
    /// Relays the trigger; a failed attempt listens to it for the go-ahead.
    private let notifier = PublishSubject<TriggerObservable.Element>()
    private let triggerSubscription = SingleAssignmentDisposable()
    private let sourceSubscription = SerialDisposable()
    /// The listener of the failed attempt waiting for the trigger.
    private let listenerSubscription = SerialDisposable()

    /// Never called: fills the superclass's `init(_:observer:state:)` slot (see `rxUnusedInitializer`).
    override convenience init(
        _ parameters: RetryWhen<Observer.Element, TriggerObservable, TriggerError>, observer: Observer, state: Void
    ) { rxUnusedInitializer() }

    init(_ parameters: Parameters, source: Observable<Element>, observer: Observer) {
        self.source = source
        super.init(parameters, observer: observer, state: ())
    }

    func run(trigger: Observable<TriggerObservable.Element>) {
        setUpstream(Disposables.create(triggerSubscription, sourceSubscription, listenerSubscription))
        triggerSubscription.setDisposable(trigger.subscribe(notifier))
        scheduleMoveNext()
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next, .completed:
            deliverSerialized(event)
        case .error(let error):
            guard let failure = error as? TriggerError else {
                deliverSerialized(event)
                return
            }
            if isDisposed { return }
            sourceSubscription.disposable = Disposables.create()
            listenerSubscription.disposable = notifier.subscribe(RetryTriggerListener(sink: self))
            errors.on(.next(failure))
        }
    }

    fileprivate func onTrigger(_ event: Event<TriggerObservable.Element>) {
        switch event {
        case .next:
            scheduleMoveNext()
        case .error(let error):
            deliverSerialized(.error(error))
        case .completed:
            deliverSerialized(.completed)
        }
    }

    /// Subscribes to the source again (a retry).
    func moveNext() {
        if isDisposed { return }
        listenerSubscription.disposable = Disposables.create()
        let current = SingleAssignmentDisposable()
        sourceSubscription.disposable = current
        current.setDisposable(source.subscribe(self))
    }
}

/// Listens to the trigger for one failed attempt: the first element retries (later
/// ones are ignored; the next attempt has its own listener).
private final class RetryTriggerListener<Observer: ObserverType, TriggerObservable: ObservableType, TriggerError>:
    EventObserver<TriggerObservable.Element>, @unchecked Sendable {
    private let sink: RetryWhenSink<Observer, TriggerObservable, TriggerError>
    private let retried = AtomicFlag()

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(sink: RetryWhenSink<Observer, TriggerObservable, TriggerError>) {
        self.sink = sink
    }

    override func on(_ event: Event<TriggerObservable.Element>) {
        if case .next = event, retried.testAndSet() { return }
        sink.onTrigger(event)
    }
}
