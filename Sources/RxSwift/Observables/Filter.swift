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
        Filter(source: asObservable(), predicate: predicate, step: { element, sink in
            do {
                if try predicate(element.assumingMemoryBound(to: Element.self).pointee) {
                    sink.forward(at: element)
                }
                return nil
            } catch {
                return error
            }
        }, subscribe: { producer, downstream, tail in
            let filter = unsafeDowncast(producer, to: Filter<Element>.self)
            let sink = FilterSink<Element>(predicate: filter.predicate, step: filter.elementStep.step, tail: tail, downstream: downstream)
            sink.setUpstream(filter.source.subscribe(sink, directPath: sink))
            return sink
        })
    }
}

/// `filter`'s observable. The inlinable operator gives it its step for the address
/// path (see `DirectObserver`) and the way to subscribe a sink, both built where the
/// element type is known.
@usableFromInline
final class Filter<Element>: SinkMakingProducer<Element, Element>, @unchecked Sendable {
    @usableFromInline let predicate: (Element) throws -> Bool

    @usableFromInline
    init(
        source: Observable<Element>,
        predicate: @escaping (Element) throws -> Bool,
        step: @escaping ElementStep,
        subscribe: @escaping (SinkMakingProducer<Element, Element>, consuming DirectObserver, OptionalStep) -> Disposable
    ) {
        self.predicate = predicate
        super.init(source: source, elementStep: OptionalStep(step), subscribe: subscribe)
    }
}

@usableFromInline
final class FilterSink<Element>: ElementStepSink<Element>, @unchecked Sendable {
    private let predicate: (Element) throws -> Bool

    @usableFromInline
    init(predicate: @escaping (Element) throws -> Bool, step: @escaping ElementStep, tail: OptionalStep, downstream: consuming DirectObserver) {
        self.predicate = predicate
        super.init(step: step, tail: tail, downstream: downstream)
    }

    override func receiveNext<T>(_ element: T) {
        // `T` is `Element`: forward the element where it lies, without a copy.
        let passes: Bool
        do {
            passes = try predicate(unsafeBitCast(element, to: Element.self))
        } catch {
            forwardError(error)
            return
        }
        if passes { forwardStepped(element) }
    }
}
