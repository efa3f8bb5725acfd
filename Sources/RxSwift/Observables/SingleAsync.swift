extension ObservableType {
    /// Passes on the source's only element and its completion; fails with
    /// `RxError.moreThanOneElement` at a second element, or with `RxError.noElements`
    /// when the source completes without any.
    ///
    /// ```
    /// source: --1--2--|
    /// single()
    /// result: --1--X          (X = RxError.moreThanOneElement)
    /// ```
    public func single() -> Observable<Element> {
        PlainProducer(asObservable(), SingleAsync(predicate: nil))
    }

    /// Like `single()`, counting only the elements that satisfy `predicate`; a thrown
    /// error ends the sequence with it.
    public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        PlainProducer(asObservable(), SingleAsync(predicate: predicate))
    }
}

/// `single()`'s predicate and sink.
struct SingleAsync<Element>: PlainOperator {
    let predicate: ((Element) throws -> Bool)?

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        SingleAsyncSink(self, observer: observer).observe(source)
    }
}

final class SingleAsyncSink<Observer: ObserverType>: PlainSink<SingleAsync<Observer.Element>, Observer>, ObserverType, @unchecked Sendable {
    // Touched only from `on`, which the Rx grammar serialises.
    private var seenElement = false

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if let predicate = parameters.predicate {
                do {
                    guard try predicate(element) else { return }
                } catch {
                    forwardError(error)
                    return
                }
            }
            if seenElement {
                forwardError(RxError.moreThanOneElement)
                return
            }
            seenElement = true
            forwardEvent(event)
        case .error:
            forwardEvent(event)
        case .completed:
            if seenElement { forwardCompleted() } else { forwardError(RxError.noElements) }
        }
    }
}
