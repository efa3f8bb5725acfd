extension ObservableType {
    /// Drops elements while `predicate` holds, then passes on every element from the
    /// first one for which it does not; a thrown error ends the sequence with it.
    ///
    /// ```
    /// source: --1--2--5--1--|
    /// skip(while: { $0 < 3 })
    /// result: --------5--1--|
    /// ```
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        PlainProducer(asObservable(), SkipWhile(predicate: predicate))
    }

    /// Drops elements while `predicate` holds, then passes on the rest.
    @available(*, deprecated, renamed: "skip(while:)")
    public func skipWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        skip(while: predicate)
    }
}

/// `skip(while:)`'s predicate and sink.
struct SkipWhile<Element>: PlainOperator {
    let predicate: (Element) throws -> Bool

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        SkipWhileSink(self, observer: observer).observe(source)
    }
}

final class SkipWhileSink<Observer: ObserverType>: PlainSink<SkipWhile<Observer.Element>, Observer>, ObserverType, @unchecked Sendable {
    // Touched only from `on`, which the Rx grammar serialises.
    private var passing = false

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if !passing {
                do {
                    passing = try !parameters.predicate(element)
                } catch {
                    forwardError(error)
                    return
                }
                if !passing { return }
            }
            forwardEvent(event)
        case .error, .completed:
            forwardEvent(event)
        }
    }
}
