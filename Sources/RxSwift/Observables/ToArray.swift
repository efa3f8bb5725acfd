extension ObservableType {
    /// Collects every element; when the sequence completes, the `Single` succeeds with
    /// the array of them.
    ///
    /// ```
    /// source: --1--2--3--|
    /// result: -----------([1,2,3]|)
    /// ```
    public func toArray() -> Single<[Element]> {
        Single(raw: ToArray(source: asObservable()))
    }
}

final class ToArray<SourceElement>: Producer<[SourceElement]>, @unchecked Sendable {
    private let source: Observable<SourceElement>

    init(source: Observable<SourceElement>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == [SourceElement] {
        let sink = ToArraySink<SourceElement, Observer>(observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class ToArraySink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == [SourceElement] {
    private let lock = Lock.make()
    private var elements: [SourceElement] = []

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            lock.withLock { elements.append(element) }
        case .error(let error):
            forwardTerminal(.error(error))
        case .completed:
            let collected = lock.withLock { () -> [SourceElement] in
                defer { elements = [] }
                return elements
            }
            guard markStopped() else { return }
            forwardNext(collected)
            forwardOn(.completed)
            dispose()
        }
    }
}
