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
        return PlainProducer(asObservable(), TakeLast(count: count))
    }
}

/// `takeLast(_:)`'s parameter and sink.
struct TakeLast<Element>: PlainOperator {
    let count: Int

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        TakeLastSink(self, observer: observer).observe(source)
    }
}

final class TakeLastSink<Observer: ObserverType>: PlainSink<TakeLast<Observer.Element>, Observer>, ObserverType, @unchecked Sendable {
    // Touched only from `on`, which the Rx grammar serialises.
    private var kept = Queue<Element>()

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard parameters.count > 0 else { return }
            if kept.count == parameters.count { _ = kept.dequeue() }
            kept.enqueue(element)
        case .error:
            kept.removeAll()
            forwardEvent(event)
        case .completed:
            while let element = kept.dequeue() {
                if isDisposed { return }
                forwardNext(element)
            }
            forwardCompleted()
        }
    }
}
