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
        Scan(source: asObservable(), seed: seed, accumulator: accumulator, step: { element, state, sink in
            do {
                try accumulator(&state.assumingMemoryBound(to: A.self).pointee, element.assumingMemoryBound(to: Element.self).pointee)
            } catch {
                return error
            }
            sink.forward(at: state)
            return nil
        }, subscribe: Self.subscribeScanSink)
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
        Scan(source: asObservable(), seed: seed, accumulator: { state, element in
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
        }, subscribe: Self.subscribeScanSink)
    }

    /// Subscribes a sink of `scan` to its source. Inlinable, so that the sink's type
    /// comes from the caller's cache.
    @inlinable
    static func subscribeScanSink<A>(_ producer: SinkMakingProducer<Element, A>, _ downstream: consuming DirectObserver, _: OptionalStep) -> Disposable {
        let scan = unsafeDowncast(producer, to: Scan<Element, A>.self)
        let sink = ScanSink<Element, A>(seed: scan.seed, accumulator: scan.accumulator, step: scan.step, downstream: downstream)
        sink.setUpstream(scan.source.subscribe(sink, directPath: sink))
        return sink
    }
}

/// `scan`'s step for the address path (see `DirectObserver`): updates the state at the
/// second address with the element at the first, and passes the state on.
@usableFromInline
typealias ScanStep = (UnsafeRawPointer, UnsafeMutableRawPointer, DirectObserver) -> Swift.Error?

/// `scan`'s observable. The inlinable operator gives it its step for the address path
/// and the way to subscribe a sink, both built where the element types are known.
@usableFromInline
final class Scan<Element, Accumulate>: SinkMakingProducer<Element, Accumulate>, @unchecked Sendable {
    @usableFromInline typealias Accumulator = (inout Accumulate, Element) throws -> Void

    @usableFromInline let seed: Accumulate
    @usableFromInline let accumulator: Accumulator
    @usableFromInline let step: ScanStep

    @usableFromInline
    init(
        source: Observable<Element>,
        seed: Accumulate,
        accumulator: @escaping Accumulator,
        step: @escaping ScanStep,
        subscribe: @escaping (SinkMakingProducer<Element, Accumulate>, consuming DirectObserver, OptionalStep) -> Disposable
    ) {
        self.seed = seed
        self.accumulator = accumulator
        self.step = step
        super.init(source: source, elementStep: .none, subscribe: subscribe)
    }
}

@usableFromInline
final class ScanSink<Element, Accumulate>: DirectSinkOf<Element>, @unchecked Sendable {
    private let accumulator: (inout Accumulate, Element) throws -> Void
    // Touched only from `receiveNext` / `receive(at:)`, which the Rx grammar serialises.
    @exclusivity(unchecked)
    private var state: Accumulate

    /// Run only when the downstream takes addresses.
    private let step: ScanStep

    @usableFromInline
    init(seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void, step: @escaping ScanStep, downstream: consuming DirectObserver) {
        self.state = seed
        self.accumulator = accumulator
        self.step = step
        super.init(downstream: downstream)
    }

    override func receive(at element: UnsafeRawPointer) {
        if skipsElements { return }
        let error = withUnsafeMutablePointer(to: &state) { step(element, $0, self) }
        if let error { forwardError(error) }
    }

    override func receiveNext<T>(_ element: T) {
        do {
            try accumulator(&state, unsafeBitCast(element, to: Element.self))
        } catch {
            forwardError(error)
            return
        }
        forwardNext(direct: state)
    }
}
