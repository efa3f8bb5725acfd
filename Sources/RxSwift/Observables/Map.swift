extension ObservableType {
    /// Transforms each element with `transform`; a thrown error ends the sequence with it.
    ///
    /// ```
    /// source: --1--2--3--|
    /// map {$0 * 10}
    /// result: --10-20-30-|
    /// ```
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        Map(source: asObservable(), transform: transform)
    }
}

final class Map<Source, Result>: Producer<Result>, @unchecked Sendable {
    private let source: Observable<Source>
    private let transform: (Source) throws -> Result

    init(source: Observable<Source>, transform: @escaping (Source) throws -> Result) {
        self.source = source
        self.transform = transform
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Result {
        let sink = MapSink<Source, Result, Observer>(transform: transform, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class MapSink<Source, Result, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element == Result {
    private let transform: (Source) throws -> Result

    init(transform: @escaping (Source) throws -> Result, observer: Observer) {
        self.transform = transform
        super.init(observer: observer)
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
