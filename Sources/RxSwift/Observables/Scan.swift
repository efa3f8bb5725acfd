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
        Scan(source: asObservable(), seed: seed, step: scanStep(updatingInPlace: accumulator), subscribe: Self.subscribeScanSink)
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
        Scan(source: asObservable(), seed: seed, step: scanStep(replacing: accumulator), subscribe: Self.subscribeScanSink)
    }

    /// Subscribes a sink of `scan` to its source. Inlinable, so that the sink's type
    /// comes from the caller's cache.
    @inlinable
    static func subscribeScanSink<A>(_ producer: SpecializedProducer<Element, A>, _ downstream: consuming ObserverBase, _: OptionalAddressStep) -> Disposable {
        let scan = unsafeDowncast(producer, to: Scan<Element, A>.self)
        return scan.attach(ScanSink<Element, A>(seed: scan.seed, step: scan.step, downstream: downstream))
    }
}

/// `scan`'s step, its one body (see OperatorKit/FastPath/AddressStep.swift): updates the state
/// at the second address with the element at the first, and passes the state on.
@usableFromInline
typealias ScanStep = (UnsafeRawPointer, UnsafeMutableRawPointer, ObserverBase) -> Swift.Error?

/// The one body of `scan(into:accumulator:)`, its step (see `mapStep` for why it is a
/// function of its own).
@inlinable
func scanStep<Element, A>(updatingInPlace accumulator: @escaping (inout A, Element) throws -> Void) -> ScanStep {
    { element, state, sink in
        do {
            try accumulator(&state.assumingMemoryBound(to: A.self).pointee, element.assumingMemoryBound(to: Element.self).pointee)
        } catch {
            return error
        }
        sink.forward(at: state)
        return nil
    }
}

/// The one body of `scan(_:accumulator:)`, its step.
@inlinable
func scanStep<Element, A>(replacing accumulator: @escaping (A, Element) throws -> A) -> ScanStep {
    { element, state, sink in
        let current = state.assumingMemoryBound(to: A.self)
        do {
            current.pointee = try accumulator(current.pointee, element.assumingMemoryBound(to: Element.self).pointee)
        } catch {
            return error
        }
        sink.forward(at: state)
        return nil
    }
}

/// `scan`'s observable: it keeps the seed and the step for each subscription's sink.
@usableFromInline
final class Scan<Element, Accumulate>: SpecializedProducer<Element, Accumulate>, @unchecked Sendable {
    @usableFromInline let seed: Accumulate
    @usableFromInline let step: ScanStep

    /// Never called: fills the superclass's `init(source:elementStep:subscribe:)` slot (see `rxUnusedInitializer`).
    override convenience init(
        source: Observable<Element>,
        elementStep: OptionalAddressStep,
        subscribe: @escaping (SpecializedProducer<Element, Accumulate>, consuming ObserverBase, OptionalAddressStep) -> Disposable
    ) { rxUnusedInitializer() }

    @usableFromInline
    init(
        source: Observable<Element>,
        seed: Accumulate,
        step: @escaping ScanStep,
        subscribe: @escaping (SpecializedProducer<Element, Accumulate>, consuming ObserverBase, OptionalAddressStep) -> Disposable
    ) {
        self.seed = seed
        self.step = step
        super.init(source: source, elementStep: .none, subscribe: subscribe)
    }
}

/// `scan`'s sink: it holds the state and runs the step on it.
@usableFromInline
final class ScanSink<Element, Accumulate>: SpecializedSink<Element, Accumulate>, @unchecked Sendable {
    // Touched only from `receive(at:)`, which the Rx grammar serialises.
    @exclusivity(unchecked)
    private var state: Accumulate
    private let step: ScanStep

    /// Never called: fills the superclass's `init(downstream:)` slot (see `rxUnusedInitializer`).
    override convenience init(downstream: consuming ObserverBase) { rxUnusedInitializer() }

    @usableFromInline
    init(seed: Accumulate, step: @escaping ScanStep, downstream: consuming ObserverBase) {
        self.state = seed
        self.step = step
        super.init(downstream: downstream)
    }

    override func receive(at element: UnsafeRawPointer) {
        if isDisposed { return }
        let error = withUnsafeMutablePointer(to: &state) { step(element, $0, self) }
        if let error { forwardError(error) }
    }
}
