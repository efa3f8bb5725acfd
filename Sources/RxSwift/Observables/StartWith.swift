extension ObservableType {
    /// Sends `elements` first, synchronously on subscription, then the source's events.
    ///
    /// ```
    /// source:       ----1--2--|
    /// startWith(7, 8)
    /// result: (78)----1--2--|
    /// ```
    public func startWith(_ elements: Element...) -> Observable<Element> {
        StartWith(source: asObservable(), elements: elements)
    }
}

final class StartWith<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let elements: [Element]

    init(source: Observable<Element>, elements: [Element]) {
        self.source = source
        self.elements = elements
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = ForwardSink(observer: observer)
        for element in elements {
            sink.forwardNext(element)
        }
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}
