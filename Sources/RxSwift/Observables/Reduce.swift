extension ObservableType {
    /// Applies `accumulator` to a running state for each element and, when the source
    /// completes, passes on `mapResult` of the final state, then completes.
    ///
    /// ```
    /// source: --1--2--3--|
    /// reduce(0, accumulator: +, mapResult: { $0 * 10 })
    /// result: -----------(60|)
    /// ```
    ///
    /// - parameter seed: The initial state.
    /// - parameter accumulator: Returns the next state from the current one and an element.
    /// - parameter mapResult: Turns the final state into the single result.
    /// - returns: A sequence of one element; a thrown error ends it with that error.
    public func reduce<A, Result>(
        _ seed: A,
        accumulator: @escaping (A, Element) throws -> A,
        mapResult: @escaping (A) throws -> Result
    ) -> Observable<Result> {
        PlainProducer(asObservable(), Reduce(seed: seed, accumulator: accumulator, mapResult: mapResult))
    }

    /// Applies `accumulator` to a running state for each element and, when the source
    /// completes, passes on the final state, then completes.
    ///
    /// ```
    /// source: --1--2--3--|
    /// reduce(0, accumulator: +)
    /// result: -----------(6|)
    /// ```
    public func reduce<A>(_ seed: A, accumulator: @escaping (A, Element) throws -> A) -> Observable<A> {
        PlainProducer(asObservable(), Reduce(seed: seed, accumulator: accumulator, mapResult: { $0 }))
    }
}

/// `reduce`'s seed, closures and sink.
struct Reduce<SourceElement, Accumulate, Result>: PlainOperator {
    typealias Element = Result

    let seed: Accumulate
    let accumulator: (Accumulate, SourceElement) throws -> Accumulate
    let mapResult: (Accumulate) throws -> Result

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<SourceElement>) -> Disposable where Observer.Element == Element {
        ReduceSink(self, observer: observer).observe(source)
    }
}

final class ReduceSink<SourceElement, Accumulate, Observer: ObserverType>: PlainSink<Reduce<SourceElement, Accumulate, Observer.Element>, Observer>, ObserverType, @unchecked Sendable {
    typealias Result = Observer.Element

    // Touched only from `on`, which the Rx grammar serialises.
    private var state: Accumulate

    override init(_ parameters: Reduce<SourceElement, Accumulate, Result>, observer: Observer) {
        state = parameters.seed
        super.init(parameters, observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            do {
                state = try parameters.accumulator(state, element)
            } catch {
                forwardError(error)
            }
        case .error(let error):
            forwardError(error)
        case .completed:
            let result: Result
            do {
                result = try parameters.mapResult(state)
            } catch {
                forwardError(error)
                return
            }
            forwardNext(result)
            forwardCompleted()
        }
    }
}
