extension ObservableType {
    /// Collects every element; when the sequence completes, the `Single` succeeds with
    /// the array of them.
    ///
    /// ```
    /// source: --1--2--3--|
    /// result: -----------([1,2,3]|)
    /// ```
    public func toArray() -> Single<[Element]> {
        Single(raw: PlainProducer(asObservable(), ToArray()))
    }
}

/// `toArray()`: no parameters; each subscription gets a `ToArraySink`.
struct ToArray<SourceElement>: PlainOperator {
    typealias Element = [SourceElement]

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<SourceElement>) -> Disposable where Observer.Element == Element {
        ToArraySink(self, observer: observer).observe(source)
    }
}

final class ToArraySink<SourceElement, Observer: ObserverType>: PlainSink<ToArray<SourceElement>, Observer>, ObserverType, @unchecked Sendable where Observer.Element == [SourceElement] {
    /// The elements so far; only `on` touches them, and the Rx grammar serialises `on`.
    private var elements: [SourceElement] = []

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            elements.append(element)
        case .error(let error):
            forwardError(error)
        case .completed:
            let collected = elements
            elements = []
            forwardLast(collected)
        }
    }
}
