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
        return PlainProducer(asObservable(), ElementAt(index: index))
    }

    /// Passes on only the element at `index`, then completes.
    @available(*, deprecated, renamed: "element(at:)")
    public func elementAt(_ index: Int) -> Observable<Element> {
        element(at: index)
    }
}

/// `element(at:)`'s parameter and sink.
struct ElementAt<Element>: PlainOperator {
    let index: Int

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        ElementAtSink(self, observer: observer).observe(source)
    }
}

final class ElementAtSink<Observer: ObserverType>: PlainSink<ElementAt<Observer.Element>, Observer>, ObserverType, @unchecked Sendable {
    // Touched only from `on`, which the Rx grammar serialises.
    private var passed = 0

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if passed == parameters.index {
                forwardEvent(event)
                forwardCompleted()
            } else {
                passed += 1
            }
        case .error:
            forwardEvent(event)
        case .completed:
            forwardError(RxError.argumentOutOfRange)
        }
    }
}
