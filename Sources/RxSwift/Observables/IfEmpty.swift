extension ObservableType {
    /// Sends `default` before completing when the source completes without elements.
    ///
    /// ```
    /// source: -----|
    /// ifEmpty(default: 7)
    /// result: -----(7|)
    /// ```
    public func ifEmpty(default: Element) -> Observable<Element> {
        DefaultIfEmpty(source: asObservable(), defaultElement: `default`)
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
        SwitchIfEmpty(source: asObservable(), other: other)
    }
}

final class DefaultIfEmpty<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let defaultElement: Element

    init(source: Observable<Element>, defaultElement: Element) {
        self.source = source
        self.defaultElement = defaultElement
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = DefaultIfEmptySink(defaultElement: defaultElement, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class DefaultIfEmptySink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let defaultElement: Element
    // Touched only from `on`, which the Rx grammar serialises.
    private var isEmpty = true

    init(defaultElement: Element, observer: Observer) {
        self.defaultElement = defaultElement
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            isEmpty = false
            forwardOn(event)
        case .error:
            forwardTerminal(event)
        case .completed:
            if isEmpty { forwardNext(defaultElement) }
            forwardTerminal(.completed)
        }
    }
}

final class SwitchIfEmpty<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let other: Observable<Element>

    init(source: Observable<Element>, other: Observable<Element>) {
        self.source = source
        self.other = other
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = SwitchIfEmptySink(other: other, observer: observer)
        sink.sourceSubscription.setDisposable(source.subscribe(sink))
        sink.setUpstream(Disposables.create(sink.sourceSubscription, sink.otherSubscription))
        return sink
    }
}

/// Observes the source, then (after an empty completion) `other`: the two never
/// overlap, since `other` is subscribed only once the source has completed.
final class SwitchIfEmptySink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    let sourceSubscription = SingleAssignmentDisposable()
    let otherSubscription = SingleAssignmentDisposable()
    private let other: Observable<Element>
    // Written before `other` is subscribed; read by the events that follow.
    private var switched = false
    private var isEmpty = true

    init(other: Observable<Element>, observer: Observer) {
        self.other = other
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            isEmpty = false
            forwardOn(event)
        case .error:
            forwardTerminal(event)
        case .completed:
            if switched || !isEmpty {
                forwardTerminal(event)
                return
            }
            switched = true
            sourceSubscription.dispose()
            otherSubscription.setDisposable(other.subscribe(self))
        }
    }
}
