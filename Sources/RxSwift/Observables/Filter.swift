extension ObservableType {
    /// Passes on only the elements that satisfy `predicate`.
    ///
    /// ```
    /// source: --1--2--3--4--|
    /// filter {$0 % 2 == 0}
    /// result: -----2-----4--|
    /// ```
    @inlinable
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        Filter(source: asObservable(), predicate: predicate, step: filterStep(predicate), subscribe: { producer, downstream, tail in
            let filter = unsafeDowncast(producer, to: Filter<Element>.self)
            return filter.attach(FilterSink(predicate: filter.predicate, step: filter.elementStep.step, tail: tail, downstream: downstream))
        })
    }
}

/// `filter`'s one body, its step (see OperatorKit/FastPath/AddressStep.swift, and `mapStep` for
/// why it is a function of its own): an element that passes goes on where it lies,
/// without a copy.
@inlinable
func filterStep<Element>(_ predicate: @escaping (Element) throws -> Bool) -> OptionalAddressStep {
    OptionalAddressStep { element, sink in
        do {
            if try predicate(element.assumingMemoryBound(to: Element.self).pointee) {
                sink.forward(at: element)
            }
            return nil
        } catch {
            return error
        }
    }
}

/// `filter`'s observable: it keeps the predicate for the sinks' value path.
@usableFromInline
final class Filter<Element>: SpecializedProducer<Element, Element>, @unchecked Sendable {
    @usableFromInline let predicate: (Element) throws -> Bool

    /// Never called: fills the superclass's `init(source:elementStep:subscribe:)` slot (see `rxUnusedInitializer`).
    override convenience init(
        source: Observable<Element>,
        elementStep: OptionalAddressStep,
        subscribe: @escaping (SpecializedProducer<Element, Element>, consuming ObserverBase, OptionalAddressStep) -> Disposable
    ) { rxUnusedInitializer() }

    @usableFromInline
    init(
        source: Observable<Element>,
        predicate: @escaping (Element) throws -> Bool,
        step: OptionalAddressStep,
        subscribe: @escaping (SpecializedProducer<Element, Element>, consuming ObserverBase, OptionalAddressStep) -> Disposable
    ) {
        self.predicate = predicate
        super.init(source: source, elementStep: step, subscribe: subscribe)
    }
}

/// `filter`'s sink: a `StepSink` running `filter`'s step (and a fused one after it),
/// and on the value path `predicate` itself (see StepSink.swift).
@usableFromInline
final class FilterSink<Element>: StepSink<Element, Element>, @unchecked Sendable {
    private let predicate: (Element) throws -> Bool

    /// Never called: fills the superclass's `init(step:tail:downstream:)` slot (see `rxUnusedInitializer`).
    override convenience init(step: @escaping AddressStep, tail: OptionalAddressStep, downstream: consuming ObserverBase) { rxUnusedInitializer() }

    @usableFromInline
    init(predicate: @escaping (Element) throws -> Bool, step: @escaping AddressStep, tail: OptionalAddressStep, downstream: consuming ObserverBase) {
        self.predicate = predicate
        super.init(step: step, tail: tail, downstream: downstream)
    }

    override func receiveNext<T>(_ element: T) {
        // `T` is `Element`: pass the element on as it came, without a copy.
        let passes: Bool
        do {
            passes = try predicate(unsafeSameTypeCast(element, to: Element.self))
        } catch {
            forwardError(error)
            return
        }
        if passes { forwardResult(element) }
    }
}
