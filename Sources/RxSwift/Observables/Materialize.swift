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
        PlainProducer(asObservable(), Materialize())
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
        PlainProducer(asObservable(), Dematerialize())
    }
}

/// `materialize()`: no parameters; each subscription gets a `MaterializeSink`.
struct Materialize<SourceElement>: PlainOperator {
    typealias Element = Event<SourceElement>

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<SourceElement>) -> Disposable where Observer.Element == Element {
        MaterializeSink(self, observer: observer).observe(source)
    }
}

final class MaterializeSink<SourceElement, Observer: ObserverType>: PlainSink<Materialize<SourceElement>, Observer>, ObserverType, @unchecked Sendable
    where Observer.Element == Event<SourceElement> {
    func on(_ event: Event<SourceElement>) {
        forwardNext(event)
        if event.isStopEvent {
            forwardCompleted()
        }
    }
}

/// `dematerialize()`: no parameters; each subscription gets a `DematerializeSink`.
struct Dematerialize<Source: EventConvertible>: PlainOperator {
    typealias Element = Source.Element

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Source>) -> Disposable where Observer.Element == Element {
        DematerializeSink(self, observer: observer).observe(source)
    }
}

final class DematerializeSink<Source: EventConvertible, Observer: ObserverType>: PlainSink<Dematerialize<Source>, Observer>, ObserverType, @unchecked Sendable
    where Observer.Element == Source.Element {
    func on(_ event: Event<Source>) {
        switch event {
        case .next(let wrapped):
            let inner = wrapped.event
            forwardEvent(inner)
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}
