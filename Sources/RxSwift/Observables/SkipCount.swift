extension ObservableType {
    /// Drops the first `count` elements and passes on the rest.
    ///
    /// ```
    /// source: --1--2--3--4--|
    /// skip(2)
    /// result: --------3--4--|
    /// ```
    public func skip(_ count: Int) -> Observable<Element> {
        PlainProducer(asObservable(), SkipCount(count: count))
    }
}

/// `skip(_:)`'s parameter and sink.
struct SkipCount<Element>: PlainOperator {
    let count: Int

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        SkipCountSink(self, observer: observer).observe(source)
    }
}

final class SkipCountSink<Observer: ObserverType>: PlainSink<SkipCount<Observer.Element>, Observer>, ObserverType, @unchecked Sendable {
    // Touched only from `on`, which the Rx grammar serialises.
    private var skipped = 0

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if skipped >= parameters.count {
                forwardEvent(event)
            } else {
                skipped += 1
            }
        case .error, .completed:
            forwardEvent(event)
        }
    }
}
