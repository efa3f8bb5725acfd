extension ObservableType {
    /// Drops elements while `predicate` holds, then passes on every element from the
    /// first one for which it does not; a thrown error ends the sequence with it.
    ///
    /// ```
    /// source: --1--2--5--1--|
    /// skip(while: { $0 < 3 })
    /// result: --------5--1--|
    /// ```
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        SkipWhile(source: asObservable(), predicate: predicate)
    }

    /// Drops elements while `predicate` holds, then passes on the rest.
    @available(*, deprecated, renamed: "skip(while:)")
    public func skipWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        skip(while: predicate)
    }
}

final class SkipWhile<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let predicate: (Element) throws -> Bool

    init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool) {
        self.source = source
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = SkipWhileSink(predicate: predicate, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class SkipWhileSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let predicate: (Element) throws -> Bool
    // Touched only from `on`, which the Rx grammar serialises.
    private var passing = false

    init(predicate: @escaping (Element) throws -> Bool, observer: Observer) {
        self.predicate = predicate
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if !passing {
                do {
                    passing = try !predicate(element)
                } catch {
                    forwardTerminal(.error(error))
                    return
                }
                if !passing { return }
            }
            forwardOn(event)
        case .error, .completed:
            forwardTerminal(event)
        }
    }
}
