extension ObservableType {
    /// Drops the first `count` elements and passes on the rest.
    ///
    /// ```
    /// source: --1--2--3--4--|
    /// skip(2)
    /// result: --------3--4--|
    /// ```
    public func skip(_ count: Int) -> Observable<Element> {
        SkipCount(source: asObservable(), count: count)
    }
}

final class SkipCount<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = SkipCountSink(remaining: count, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class SkipCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    // Touched only from `on`, which the Rx grammar serialises.
    private var remaining: Int

    init(remaining: Int, observer: Observer) {
        self.remaining = remaining
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if remaining <= 0 {
                forwardOn(event)
            } else {
                remaining -= 1
            }
        case .error, .completed:
            forwardTerminal(event)
        }
    }
}
