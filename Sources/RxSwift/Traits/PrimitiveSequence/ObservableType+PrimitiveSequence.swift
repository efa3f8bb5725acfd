extension ObservableType {
    /// The sequence as a `Single`: its only element, or an error.
    ///
    /// An empty sequence fails with `RxError.noElements`; a second element fails with
    /// `RxError.moreThanOneElement` when it arrives.
    ///
    /// ```
    /// source: --a---|
    /// result: ------(a|)
    /// ```
    public func asSingle() -> Single<Element> {
        Single(raw: AsSingle(source: asObservable()))
    }

    /// The first element as a `Single`, or `nil` when the sequence completes empty.
    ///
    /// ```
    /// source: --a--b--|
    /// result: --(a|)
    /// ```
    public func first() -> Single<Element?> {
        Single(raw: FirstElement(source: asObservable()))
    }

    /// The sequence as a `Maybe`: its element if any, then completion.
    ///
    /// A second element fails with `RxError.moreThanOneElement` when it arrives.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: AsMaybe(source: asObservable()))
    }
}

/// Keeps the only element until completion.
final class AsSingle<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = AsSingleSink(requireElement: true, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

/// Keeps the element, if any, until completion.
final class AsMaybe<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = AsSingleSink(requireElement: false, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

/// The sink of `asSingle` (`requireElement`) and `asMaybe`: the element waits for the
/// source's completion; a second one is an error.
final class AsSingleSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let requireElement: Bool
    private let lock = Lock.make()
    private var element: Element?

    init(requireElement: Bool, observer: Observer) {
        self.requireElement = requireElement
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            let isSecond = lock.withLock { () -> Bool in
                if element != nil { return true }
                element = value
                return false
            }
            if isSecond { forwardTerminal(.error(RxError.moreThanOneElement)) }
        case .error:
            forwardTerminal(event)
        case .completed:
            let kept = lock.withLock { () -> Element? in
                defer { element = nil }
                return element
            }
            if let kept {
                guard markStopped() else { return }
                forwardNext(kept)
                forwardOn(.completed)
                dispose()
            } else if requireElement {
                forwardTerminal(.error(RxError.noElements))
            } else {
                forwardTerminal(.completed)
            }
        }
    }
}

/// Takes the first element, or `nil` for an empty sequence.
final class FirstElement<Element>: Producer<Element?>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element? {
        let sink = FirstElementSink<Element, Observer>(observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

final class FirstElementSink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == Element? {
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            finish(with: value)
        case .error(let error):
            forwardTerminal(.error(error))
        case .completed:
            finish(with: nil)
        }
    }

    private func finish(with value: Element?) {
        guard markStopped() else { return }
        forwardNext(value)
        forwardOn(.completed)
        dispose()
    }
}
