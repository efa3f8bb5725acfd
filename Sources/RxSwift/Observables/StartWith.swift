extension ObservableType {
    /// Sends `elements` first, synchronously on subscription, then the source's events.
    ///
    /// ```
    /// source:       ----1--2--|
    /// startWith(7, 8)
    /// result: (78)----1--2--|
    /// ```
    public func startWith(_ elements: Element...) -> Observable<Element> {
        PlainProducer(asObservable(), StartWith(elements: elements))
    }
}

/// `startWith`'s elements.
struct StartWith<Element>: PlainOperator {
    let elements: [Element]

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        let sink = PassThroughSink(observer: observer)
        for element in elements {
            sink.forwardNext(element)
        }
        return sink.observe(source)
    }
}
