extension ObservableType {
    /// Drops every element and passes on only the terminal event.
    ///
    /// ```
    /// source: --1--2--3--|
    /// ignoreElements()
    /// result: -----------|
    /// ```
    public func ignoreElements() -> Observable<Never> {
        PlainProducer(asObservable(), IgnoreElements())
    }
}

/// `ignoreElements()`: no parameters; each subscription gets an `IgnoreElementsSink`.
struct IgnoreElements<SourceElement>: PlainOperator {
    typealias Element = Never

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<SourceElement>) -> Disposable where Observer.Element == Element {
        IgnoreElementsSink(self, observer: observer).observe(source)
    }
}

final class IgnoreElementsSink<SourceElement, Observer: ObserverType>: PlainSink<IgnoreElements<SourceElement>, Observer>, ObserverType, @unchecked Sendable
    where Observer.Element == Never {
    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next:
            break
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}
