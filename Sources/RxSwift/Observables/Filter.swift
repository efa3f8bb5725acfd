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
        makeFilter(asObservable(), predicate) { element, sink in
            do {
                if try predicate(element.assumingMemoryBound(to: Element.self).pointee) {
                    sink.forward(at: element)
                }
                return nil
            } catch {
                return error
            }
        }
    }
}

/// `filter`'s observable, with its step for the address path (see `DirectObserver`).
@usableFromInline
func makeFilter<Element>(
    _ source: Observable<Element>,
    _ predicate: @escaping (Element) throws -> Bool,
    step: @escaping (UnsafeRawPointer, DirectObserver) -> Swift.Error?
) -> Observable<Element> {
    Filter(source: source, predicate: predicate, step: step)
}

final class Filter<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let predicate: (Element) throws -> Bool
    private let step: ElementStep?

    init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool, step: ElementStep? = nil) {
        self.source = source
        self.predicate = predicate
        self.step = step
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = FilterSink<Element, Observer>(predicate: predicate, step: step, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class FilterSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element == Element {
    private let predicate: (Element) throws -> Bool

    /// Used when `byAddress`: the downstream takes addresses.
    private let step: ElementStep
    private let byAddress: Bool

    init(predicate: @escaping (Element) throws -> Bool, step: ElementStep?, observer: Observer) {
        self.predicate = predicate
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
