extension ObservableType {
    /// The first `count` elements, then completion.
    ///
    /// ```
    /// source: --1--2--3--4--|
    /// take(2)
    /// result: --1--(2|)
    /// ```
    public func take(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "Rivulet: take(_:) needs a count of 0 or more, got \(count).")
        if count == 0 { return Observable.empty() }
        return TakeCount(source: asObservable(), count: count)
    }
}

final class TakeCount<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = TakeCountSink(remaining: count, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class TakeCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private let lock = Lock.make()
    private var remaining: Int

    init(remaining: Int, observer: Observer) {
        self.remaining = remaining
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            let left = lock.withLock { () -> Int in
                guard remaining > 0 else { return -1 }
                remaining -= 1
                return remaining
            }
            if left < 0 { return }
            forwardOn(event)
            if left == 0 { forwardTerminal(.completed) }
        case .error, .completed:
            forwardTerminal(event)
        }
    }
}
