extension ObservableType {
    /// Passes on only the elements that satisfy `predicate`.
    ///
    /// ```
    /// source: --1--2--3--4--|
    /// filter {$0 % 2 == 0}
    /// result: -----2-----4--|
    /// ```
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        Filter(source: asObservable(), predicate: predicate)
    }
}

final class Filter<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let predicate: (Element) throws -> Bool

    init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool) {
        self.source = source
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = FilterSink<Element, Observer>(predicate: predicate, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class FilterSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element == Element {
    private let predicate: (Element) throws -> Bool

    init(predicate: @escaping (Element) throws -> Bool, observer: Observer) {
        self.predicate = predicate
        super.init(observer: observer)
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        T.self == Element.self
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
        if passes { forwardNext(passing: element) }
    }

    override func receiveCompleted() {
        forwardCompleted()
    }

    override func receiveError(_ error: Swift.Error) {
        forwardError(error)
    }

    @inline(__always)
    private func onNext(_ element: Element) {
        let passes: Bool
        do {
            passes = try predicate(element)
        } catch {
            forwardError(error)
            return
        }
        if passes { forwardNext(element) }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            forwardTerminal(event)
        }
    }
}
