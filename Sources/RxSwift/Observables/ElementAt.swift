extension ObservableType {
    /// Passes on only the element at `index` (counting from 0), then completes; fails
    /// with `RxError.argumentOutOfRange` when the source completes before reaching it.
    ///
    /// ```
    /// source: --a--b--c--|
    /// element(at: 1)
    /// result: -----(b|)
    /// ```
    ///
    /// - parameter index: The index of the element to pass on; must not be negative.
    public func element(at index: Int) -> Observable<Element> {
        precondition(index >= 0, "Rivulet: element(at:) needs an index of 0 or more, got \(index).")
        return ElementAt(source: asObservable(), index: index)
    }

    /// Passes on only the element at `index`, then completes.
    @available(*, deprecated, renamed: "element(at:)")
    public func elementAt(_ index: Int) -> Observable<Element> {
        element(at: index)
    }
}

final class ElementAt<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let index: Int

    init(source: Observable<Element>, index: Int) {
        self.source = source
        self.index = index
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = ElementAtSink(remaining: index, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class ElementAtSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
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
            if remaining == 0 {
                forwardOn(event)
                forwardTerminal(.completed)
            } else {
                remaining -= 1
            }
        case .error:
            forwardTerminal(event)
        case .completed:
            forwardTerminal(.error(RxError.argumentOutOfRange))
        }
    }
}
