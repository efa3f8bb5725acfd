extension ObservableType {
    /// Sends `default` before completing when the source completes without elements.
    ///
    /// ```
    /// source: -----|
    /// ifEmpty(default: 7)
    /// result: -----(7|)
    /// ```
    public func ifEmpty(default: Element) -> Observable<Element> {
        PlainProducer(asObservable(), DefaultIfEmpty(defaultElement: `default`))
    }

    /// Continues with `other` when the source completes without elements.
    ///
    /// ```
    /// source: -----|
    /// other:       --7--8--|
    /// ifEmpty(switchTo: other)
    /// result: -------7--8--|
    /// ```
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        PlainProducer(asObservable(), SwitchIfEmpty(other: other))
    }
}

/// `ifEmpty(default:)`'s parameter and sink.
struct DefaultIfEmpty<Element>: PlainOperator {
    let defaultElement: Element

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        DefaultIfEmptySink(self, observer: observer).observe(source)
    }
}

final class DefaultIfEmptySink<Observer: ObserverType>: PlainSink<DefaultIfEmpty<Observer.Element>, Observer>, ObserverType, @unchecked Sendable {
    // Touched only from `on`, which the Rx grammar serialises.
    private var isEmpty = true

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            isEmpty = false
            forwardEvent(event)
        case .error:
            forwardEvent(event)
        case .completed:
            if isEmpty { forwardNext(parameters.defaultElement) }
            forwardCompleted()
        }
    }
}

/// `ifEmpty(switchTo:)`'s parameter and sink.
struct SwitchIfEmpty<Element>: PlainOperator {
    let other: Observable<Element>

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        let sink = SwitchIfEmptySink(self, observer: observer)
        sink.sourceSubscription.setDisposable(source.subscribe(sink))
        sink.setUpstream(Disposables.create(sink.sourceSubscription, sink.otherSubscription))
        return sink
    }
}

/// Observes the source, then (after an empty completion) `other`: the two never
/// overlap, since `other` is subscribed only once the source has completed.
final class SwitchIfEmptySink<Observer: ObserverType>: PlainSink<SwitchIfEmpty<Observer.Element>, Observer>, ObserverType, @unchecked Sendable {
    let sourceSubscription = SingleAssignmentDisposable()
    let otherSubscription = SingleAssignmentDisposable()
    // Written before `other` is subscribed; read by the events that follow.
    private var switched = false
    private var isEmpty = true

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            isEmpty = false
            forwardEvent(event)
        case .error:
            forwardEvent(event)
        case .completed:
            if switched || !isEmpty {
                forwardEvent(event)
                return
            }
            switched = true
            sourceSubscription.dispose()
            otherSubscription.setDisposable(parameters.other.subscribe(self))
        }
    }
}
