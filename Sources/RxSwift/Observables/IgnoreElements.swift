extension ObservableType {
    /// Drops every element and passes on only the terminal event.
    ///
    /// ```
    /// source: --1--2--3--|
    /// ignoreElements()
    /// result: -----------|
    /// ```
    public func ignoreElements() -> Observable<Never> {
        IgnoreElements(source: asObservable())
    }
}

final class IgnoreElements<Element>: Producer<Never>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Never {
        let sink = IgnoreElementsSink<Element, Observer>(observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class IgnoreElementsSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
    where Observer.Element == Never {
    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            break
        case .error(let error):
            forwardTerminal(.error(error))
        case .completed:
            forwardTerminal(.completed)
        }
    }
}
