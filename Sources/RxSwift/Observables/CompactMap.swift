extension ObservableType {
    /// Transforms each element with `transform` and passes on the non-`nil` results;
    /// a thrown error ends the sequence with it.
    ///
    /// ```
    /// source: --"1"--"x"--"3"--|
    /// compactMap { Int($0) }
    /// result: --1---------3----|
    /// ```
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        PlainProducer(asObservable(), CompactMap(transform: transform))
    }
}

/// `compactMap`'s parameter; each subscription gets a `CompactMapSink`.
struct CompactMap<SourceElement, Element>: PlainOperator {
    let transform: (SourceElement) throws -> Element?

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<SourceElement>) -> Disposable where Observer.Element == Element {
        CompactMapSink(self, observer: observer).observe(source)
    }
}

/// `compactMap`'s sink: passes on the non-`nil` results of the operator's `transform`.
final class CompactMapSink<Source, Observer: ObserverType>: PlainSink<CompactMap<Source, Observer.Element>, Observer>, ObserverType, @unchecked Sendable {
    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            do {
                if let result = try parameters.transform(element) { forwardNext(result) }
            } catch {
                forwardError(error)
            }
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}
