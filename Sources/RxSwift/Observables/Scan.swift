extension ObservableType {
    /// Applies `accumulator` to a running state for each element and passes on each
    /// intermediate state; `seed` is the initial state, updated in place.
    ///
    /// ```
    /// source: --1--2--3--|
    /// scan(into: 0) { $0 += $1 }
    /// result: --1--3--6--|
    /// ```
    ///
    /// - parameter seed: The initial state.
    /// - parameter accumulator: Updates the state with an element; a thrown error ends
    ///   the sequence with it.
    public func scan<A>(into seed: A, accumulator: @escaping (inout A, Element) throws -> Void) -> Observable<A> {
        Scan(source: asObservable(), seed: seed, accumulator: accumulator)
    }

    /// Applies `accumulator` to a running state for each element and passes on each
    /// intermediate state.
    ///
    /// ```
    /// source: --1--2--3--|
    /// scan(0, +)
    /// result: --1--3--6--|
    /// ```
    ///
    /// - parameter seed: The initial state.
    /// - parameter accumulator: Returns the next state from the current one and an
    ///   element; a thrown error ends the sequence with it.
    public func scan<A>(_ seed: A, accumulator: @escaping (A, Element) throws -> A) -> Observable<A> {
        Scan(source: asObservable(), seed: seed) { state, element in
            state = try accumulator(state, element)
        }
    }
}

final class Scan<Element, Accumulate>: Producer<Accumulate>, @unchecked Sendable {
    typealias Accumulator = (inout Accumulate, Element) throws -> Void

    private let source: Observable<Element>
    private let seed: Accumulate
    private let accumulator: Accumulator

    init(source: Observable<Element>, seed: Accumulate, accumulator: @escaping Accumulator) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Accumulate {
        let sink = ScanSink<Element, Accumulate, Observer>(seed: seed, accumulator: accumulator, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class ScanSink<Element, Accumulate, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element == Accumulate {

    private let accumulator: (inout Accumulate, Element) throws -> Void
    // Touched only from `on`, which the Rx grammar serialises.
    @exclusivity(unchecked)
    private var state: Accumulate

    init(seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void, observer: Observer) {
        self.state = seed
        self.accumulator = accumulator
        super.init(observer: observer)
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        T.self == Element.self
    }

    override func receiveNext<T>(_ element: T) {
        onNext(unsafeBitCast(element, to: Element.self))
    }

    override func receiveCompleted() {
        forwardCompleted()
    }

    override func receiveError(_ error: Swift.Error) {
        forwardError(error)
    }

    @inline(__always)
    private func onNext(_ element: Element) {
        do {
            try accumulator(&state, element)
        } catch {
            forwardError(error)
            return
        }
        forwardNext(state)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}
