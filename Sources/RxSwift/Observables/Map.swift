extension ObservableType {
    /// Transforms each element with `transform`; a thrown error ends the sequence with it.
    ///
    /// ```
    /// source: --1--2--3--|
    /// map {$0 * 10}
    /// result: --10-20-30-|
    /// ```
    @inlinable
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        Map(source: asObservable(), transform: transform, step: mapStep(transform), subscribe: { producer, downstream, tail in
            let map = unsafeDowncast(producer, to: Map<Element, Result>.self)
            return map.attach(MapSink(transform: map.transform, step: map.elementStep.step, tail: tail, downstream: downstream))
        })
    }
}

/// `map`'s one body, its step (see OperatorKit/FastPath/AddressStep.swift). Generic over its
/// own parameters rather than inside `ObservableType`: where it is not specialised, the
/// element type is then at hand, not looked up as `Self.Element` for every element.
@inlinable
func mapStep<Source, Result>(_ transform: @escaping (Source) throws -> Result) -> OptionalAddressStep {
    OptionalAddressStep { element, sink in
        do {
            var result = try transform(element.assumingMemoryBound(to: Source.self).pointee)
            withUnsafeMutablePointer(to: &result) { sink.forward(at: $0) }
            return nil
        } catch {
            return error
        }
    }
}

/// `map`'s observable: it keeps the closure for the sinks' value path.
@usableFromInline
final class Map<Source, Result>: SpecializedProducer<Source, Result>, @unchecked Sendable {
    @usableFromInline let transform: (Source) throws -> Result

    /// Never called: fills the superclass's `init(source:elementStep:subscribe:)` slot (see `rxUnusedInitializer`).
    override convenience init(
        source: Observable<Source>,
        elementStep: OptionalAddressStep,
        subscribe: @escaping (SpecializedProducer<Source, Result>, consuming ObserverBase, OptionalAddressStep) -> Disposable
    ) { rxUnusedInitializer() }

    @usableFromInline
    init(
        source: Observable<Source>,
        transform: @escaping (Source) throws -> Result,
        step: OptionalAddressStep,
        subscribe: @escaping (SpecializedProducer<Source, Result>, consuming ObserverBase, OptionalAddressStep) -> Disposable
    ) {
        self.transform = transform
        super.init(source: source, elementStep: step, subscribe: subscribe)
    }
}

/// `map`'s sink: a `StepSink` running `map`'s step (and a fused one after it), and on
/// the value path `transform` itself (see StepSink.swift).
@usableFromInline
final class MapSink<Source, Result>: StepSink<Source, Result>, @unchecked Sendable {
    private let transform: (Source) throws -> Result

    /// Never called: fills the superclass's `init(step:tail:downstream:)` slot (see `rxUnusedInitializer`).
    override convenience init(step: @escaping AddressStep, tail: OptionalAddressStep, downstream: consuming ObserverBase) { rxUnusedInitializer() }

    @usableFromInline
    init(transform: @escaping (Source) throws -> Result, step: @escaping AddressStep, tail: OptionalAddressStep, downstream: consuming ObserverBase) {
        self.transform = transform
        super.init(step: step, tail: tail, downstream: downstream)
    }

    override func receiveNext<T>(_ element: T) {
        let result: Result
        do {
            result = try transform(unsafeSameTypeCast(element, to: Source.self))
        } catch {
            forwardError(error)
            return
        }
        forwardResult(result)
    }
}
