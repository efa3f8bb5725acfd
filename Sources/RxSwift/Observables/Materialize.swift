extension ObservableType {
    /// Turns every event of the source into an element; after the source's terminal
    /// event (passed on as an element), the result completes.
    ///
    /// ```
    /// source: --1--2--X
    /// materialize()
    /// result: --next(1)--next(2)--(error(X)|)
    /// ```
    public func materialize() -> Observable<Event<Element>> {
        Materialize(source: asObservable())
    }
}

extension ObservableType where Element: EventConvertible {
    /// Turns elements that are events back into events: the inverse of `materialize`.
    ///
    /// ```
    /// source: --next(1)--next(2)--error(X)--
    /// dematerialize()
    /// result: --1--------2--------X
    /// ```
    public func dematerialize() -> Observable<Element.Element> {
        Dematerialize(source: asObservable())
    }
}

final class Materialize<Element>: Producer<Event<Element>>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Event<Element> {
        let sink = MaterializeSink<Element, Observer>(observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class MaterializeSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
    where Observer.Element == Event<Element> {
    func on(_ event: Event<Element>) {
        forwardNext(event)
        if event.isStopEvent {
            forwardTerminal(.completed)
        }
    }
}

final class Dematerialize<Source: EventConvertible>: Producer<Source.Element>, @unchecked Sendable {
    private let source: Observable<Source>

    init(source: Observable<Source>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Source.Element {
        let sink = DematerializeSink<Source, Observer>(observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class DematerializeSink<Source: EventConvertible, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
    where Observer.Element == Source.Element {
    func on(_ event: Event<Source>) {
        switch event {
        case .next(let wrapped):
            let inner = wrapped.event
            if inner.isStopEvent {
                forwardTerminal(inner)
            } else {
                forwardOn(inner)
            }
        case .error(let error):
            forwardTerminal(.error(error))
        case .completed:
            forwardTerminal(.completed)
        }
    }
}
