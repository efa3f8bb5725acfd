extension ObservableType {
    /// Passes on the last `count` elements when the source completes, then completes.
    ///
    /// ```
    /// source: --1--2--3--4--|
    /// takeLast(2)
    /// result: --------------(34|)
    /// ```
    ///
    /// - parameter count: How many elements to keep; must not be negative.
    public func takeLast(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "Rivulet: takeLast(_:) needs a count of 0 or more, got \(count).")
        return TakeLast(source: asObservable(), count: count)
    }
}

final class TakeLast<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = TakeLastSink(count: count, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class TakeLastSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let count: Int
    // Touched only from `on`, which the Rx grammar serialises.
    private var kept = Queue<Element>()

    init(count: Int, observer: Observer) {
        self.count = count
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard count > 0 else { return }
            if kept.count == count { _ = kept.dequeue() }
            kept.enqueue(element)
        case .error:
            kept.removeAll()
            forwardTerminal(event)
        case .completed:
            while let element = kept.dequeue() {
                if isDisposed { return }
                forwardNext(element)
            }
            forwardTerminal(.completed)
        }
    }
}
