extension ObservableType {
    /// Collects every element; when the sequence completes, the `Single` succeeds with
    /// the array of them.
    ///
    /// ```
    /// source: --1--2--3--|
    /// result: -----------([1,2,3]|)
    /// ```
    public func toArray() -> Single<[Element]> {
        Single(raw: PlainProducer(asObservable(), ToArray()))
    }
}

/// `toArray()`: no parameters; each subscription gets a `ToArraySink`.
struct ToArray<SourceElement>: PlainOperator {
    typealias Element = [SourceElement]

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<SourceElement>) -> Disposable where Observer.Element == Element {
        ToArraySink(self, observer: observer).observe(source)
    }
}

final class ToArraySink<SourceElement, Observer: ObserverType>: PlainSink<ToArray<SourceElement>, Observer>, ObserverType, @unchecked Sendable where Observer.Element == [SourceElement] {
    /// The elements so far. Locked although only `on` touches them: a source that
    /// breaks the grammar by sending from several threads at once loses no element
    /// (`PrimitiveSequenceConversionTests.concurrentElements`). A `LockedPair`'s value,
    /// as its type follows `SourceElement`.
    private let elements = LockedPair((), [SourceElement]())

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            elements.withLock { _, elements in elements.append(element) }
        case .error(let error):
            forwardError(error)
        case .completed:
            let collected = elements.withLock { _, elements in
                defer { elements = [] }
                return elements
            }
            forwardLast(collected)
        }
    }
}
