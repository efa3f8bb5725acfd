extension ObservableType {
    /// Transforms each element with `transform` and passes on the non-`nil` results;
    /// a thrown error ends the sequence with it.
    ///
    /// ```
    /// source: --"1"--"x"--"3"--|
    /// compactMap { Int($0) }
    /// result: --1---------3----|
    /// ```
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        CompactMap(source: asObservable(), transform: transform)
    }
}

/// `compactMap`'s observable: each subscription gets a `CompactMapSink`.
final class CompactMap<Source, Result>: Producer<Result>, @unchecked Sendable {
    private let source: Observable<Source>
    private let transform: (Source) throws -> Result?

    init(source: Observable<Source>, transform: @escaping (Source) throws -> Result?) {
        self.source = source
        self.transform = transform
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Result {
        let sink = CompactMapSink<Source, Observer>(transform: transform, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

/// `compactMap`'s sink: passes on the non-`nil` results of `transform`.
final class CompactMapSink<Source, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Result = Observer.Element
    private let transform: (Source) throws -> Result?

    init(transform: @escaping (Source) throws -> Result?, observer: Observer) {
        self.transform = transform
        super.init(observer: observer)
    }

    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            do {
                if let result = try transform(element) { forwardNext(result) }
            } catch {
                forwardError(error)
            }
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}
