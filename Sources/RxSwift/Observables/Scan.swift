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
    @inlinable
    public func scan<A>(into seed: A, accumulator: @escaping (inout A, Element) throws -> Void) -> Observable<A> {
        makeScan(asObservable(), seed, accumulator) { element, state, sink in
            do {
                try accumulator(&state.assumingMemoryBound(to: A.self).pointee, element.assumingMemoryBound(to: Element.self).pointee)
            } catch {
                return error
            }
            sink.forward(at: state)
            return nil
        }
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
    @inlinable
    public func scan<A>(_ seed: A, accumulator: @escaping (A, Element) throws -> A) -> Observable<A> {
        makeScan(asObservable(), seed, { state, element in
            state = try accumulator(state, element)
        }, step: { element, state, sink in
            let current = state.assumingMemoryBound(to: A.self)
            do {
                current.pointee = try accumulator(current.pointee, element.assumingMemoryBound(to: Element.self).pointee)
            } catch {
                return error
            }
            sink.forward(at: state)
            return nil
        })
    }
}

/// `scan`'s step for the address path (see `DirectObserver`): updates the state at the
/// second address with the element at the first, and passes the state on.
@usableFromInline
typealias ScanStep = (UnsafeRawPointer, UnsafeMutableRawPointer, DirectObserver) -> Swift.Error?

/// `scan`'s observable, with its step for the address path.
@usableFromInline
func makeScan<Element, Accumulate>(
    _ source: Observable<Element>,
    _ seed: Accumulate,
    _ accumulator: @escaping (inout Accumulate, Element) throws -> Void,
    step: @escaping (UnsafeRawPointer, UnsafeMutableRawPointer, DirectObserver) -> Swift.Error?
) -> Observable<Accumulate> {
    Scan(source: source, seed: seed, accumulator: accumulator, step: step)
}

final class Scan<Element, Accumulate>: Producer<Accumulate>, @unchecked Sendable {
    typealias Accumulator = (inout Accumulate, Element) throws -> Void

    private let source: Observable<Element>
    private let seed: Accumulate
    private let accumulator: Accumulator
    private let step: ScanStep?

    init(source: Observable<Element>, seed: Accumulate, accumulator: @escaping Accumulator, step: ScanStep? = nil) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
        self.step = step
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Accumulate {
        let sink = ScanSink<Element, Accumulate, Observer>(seed: seed, accumulator: accumulator, step: step, observer: observer)
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

    /// Used when `byAddress`: the downstream takes addresses.
    private let step: ScanStep
    private let byAddress: Bool

    init(seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void, step: ScanStep?, observer: Observer) {
        self.state = seed
        self.accumulator = accumulator
        byAddress = step != nil && observerTakesElementAddresses(observer)
        self.step = byAddress ? step! : { _, _, _ in nil }
        super.init(observer: observer)
    }

    override var takesElementAddresses: Bool { byAddress }

    override func receive(at element: UnsafeRawPointer) {
        if skipsElements { return }
        let error = withUnsafeMutablePointer(to: &state) { step(element, $0, self) }
        if let error { forwardError(error) }
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
