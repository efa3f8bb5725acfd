extension ObservableType {
    /// Passes on the source's only element and its completion; fails with
    /// `RxError.moreThanOneElement` at a second element, or with `RxError.noElements`
    /// when the source completes without any.
    ///
    /// ```
    /// source: --1--2--|
    /// single()
    /// result: --1--X          (X = RxError.moreThanOneElement)
    /// ```
    public func single() -> Observable<Element> {
        SingleAsync(source: asObservable(), predicate: nil)
    }

    /// Like `single()`, counting only the elements that satisfy `predicate`; a thrown
    /// error ends the sequence with it.
    public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        SingleAsync(source: asObservable(), predicate: predicate)
    }
}

final class SingleAsync<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let predicate: ((Element) throws -> Bool)?

    init(source: Observable<Element>, predicate: ((Element) throws -> Bool)?) {
        self.source = source
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = SingleAsyncSink(predicate: predicate, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class SingleAsyncSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let predicate: ((Element) throws -> Bool)?
    // Touched only from `on`, which the Rx grammar serialises.
    private var seenElement = false

    init(predicate: ((Element) throws -> Bool)?, observer: Observer) {
        self.predicate = predicate
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if let predicate {
                do {
                    guard try predicate(element) else { return }
                } catch {
                    forwardTerminal(.error(error))
                    return
                }
            }
            if seenElement {
                forwardTerminal(.error(RxError.moreThanOneElement))
                return
            }
            seenElement = true
            forwardOn(event)
        case .error:
            forwardTerminal(event)
        case .completed:
            forwardTerminal(seenElement ? .completed : .error(RxError.noElements))
        }
    }
}
