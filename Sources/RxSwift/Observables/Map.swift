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
        Map(source: asObservable(), transform: transform, step: { element, sink in
            do {
                var result = try transform(element.assumingMemoryBound(to: Element.self).pointee)
                withUnsafeMutablePointer(to: &result) { sink.forward(at: $0) }
                return nil
            } catch {
                return error
            }
        }, subscribe: { producer, downstream, tail in
            let map = unsafeDowncast(producer, to: Map<Element, Result>.self)
            let sink = MapSink<Element, Result>(transform: map.transform, step: map.elementStep.step, tail: tail, downstream: downstream)
            sink.setUpstream(map.source.subscribe(sink, directPath: sink))
            return sink
        })
    }
}

/// `map`'s observable. The inlinable operator gives it its step for the address path
/// (see `DirectObserver`) and the way to subscribe a sink, both built where the element
/// types are known.
@usableFromInline
final class Map<Source, Result>: SinkMakingProducer<Source, Result>, @unchecked Sendable {
    @usableFromInline let transform: (Source) throws -> Result

    @usableFromInline
    init(
        source: Observable<Source>,
        transform: @escaping (Source) throws -> Result,
        step: @escaping ElementStep,
        subscribe: @escaping (SinkMakingProducer<Source, Result>, consuming DirectObserver, OptionalStep) -> Disposable
    ) {
        self.transform = transform
        super.init(source: source, elementStep: OptionalStep(step), subscribe: subscribe)
    }
}

@usableFromInline
final class MapSink<Source, Result>: ElementStepSink<Source>, @unchecked Sendable {
    private let transform: (Source) throws -> Result

    @usableFromInline
    init(transform: @escaping (Source) throws -> Result, step: @escaping ElementStep, tail: OptionalStep, downstream: consuming DirectObserver) {
        self.transform = transform
        super.init(step: step, tail: tail, downstream: downstream)
    }

    override func receiveNext<T>(_ element: T) {
        let mapped: Result
        do {
            mapped = try transform(unsafeBitCast(element, to: Source.self))
        } catch {
            forwardError(error)
            return
        }
        forwardStepped(mapped)
    }
}
