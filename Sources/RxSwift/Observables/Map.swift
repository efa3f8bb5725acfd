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
        makeMap(asObservable(), transform) { element, sink in
            do {
                var result = try transform(element.assumingMemoryBound(to: Element.self).pointee)
                withUnsafeMutablePointer(to: &result) { sink.forward(at: $0) }
                return nil
            } catch {
                return error
            }
        }
    }
}

/// `map`'s observable, with its step for the address path (see `DirectObserver`).
@usableFromInline
func makeMap<Source, Result>(
    _ source: Observable<Source>,
    _ transform: @escaping (Source) throws -> Result,
    step: @escaping (UnsafeRawPointer, DirectObserver) -> Swift.Error?
) -> Observable<Result> {
    Map(source: source, transform: transform, step: step)
}

final class Map<Source, Result>: Producer<Result>, @unchecked Sendable {
    private let source: Observable<Source>
    private let transform: (Source) throws -> Result
    private let step: ElementStep?

    init(source: Observable<Source>, transform: @escaping (Source) throws -> Result, step: ElementStep? = nil) {
        self.source = source
        self.transform = transform
        self.step = step
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Result {
        let sink = MapSink<Source, Result, Observer>(transform: transform, step: step, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class MapSink<Source, Result, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element == Result {
    private let transform: (Source) throws -> Result
    /// Used when `byAddress`: the downstream takes addresses.
    private let step: ElementStep
    private let byAddress: Bool

    init(transform: @escaping (Source) throws -> Result, step: ElementStep?, observer: Observer) {
        self.transform = transform
        byAddress = step != nil && observerTakesElementAddresses(observer)
        // Not optional: a stored optional closure is copied (retained) before each call.
        self.step = byAddress ? step! : { _, _ in nil }
        super.init(observer: observer)
    }

    override var takesElementAddresses: Bool { byAddress }

    override func receive(at element: UnsafeRawPointer) {
        if skipsElements { return }
        if let error = step(element, self) { forwardError(error) }
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        T.self == Source.self
    }

    override func receiveNext<T>(_ element: T) {
        do {
            forwardNext(try transform(unsafeBitCast(element, to: Source.self)))
        } catch {
            forwardError(error)
        }
    }

    override func receiveCompleted() {
        forwardCompleted()
    }

    override func receiveError(_ error: Swift.Error) {
        forwardError(error)
    }

    @inline(__always)
    private func onNext(_ element: Source) {
        let mapped: Result
        do {
            mapped = try transform(element)
        } catch {
            forwardError(error)
            return
        }
        forwardNext(mapped)
    }

    func on(_ event: Event<Source>) {
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
