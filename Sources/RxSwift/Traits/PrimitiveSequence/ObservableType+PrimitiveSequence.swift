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
        Single(raw: PlainProducer(asObservable(), AsSingle(requireElement: true)))
    }

    /// The first element as a `Single`, or `nil` when the sequence completes empty.
    ///
    /// ```
    /// source: --a--b--|
    /// result: --(a|)
    /// ```
    public func first() -> Single<Element?> {
        Single(raw: PlainProducer(asObservable(), FirstElement()))
    }

    /// The sequence as a `Maybe`: its element if any, then completion.
    ///
    /// A second element fails with `RxError.moreThanOneElement` when it arrives.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: PlainProducer(asObservable(), AsSingle(requireElement: false)))
    }
}

/// `asSingle()` (`requireElement`) and `asMaybe()`: the element waits for the source's
/// completion.
struct AsSingle<Element>: PlainOperator {
    let requireElement: Bool

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        AsSingleSink(self, observer: observer).observe(source)
    }
}

/// The sink of `asSingle` (`requireElement`) and `asMaybe`: the element waits for the
/// source's completion; a second one is an error.
final class AsSingleSink<Observer: ObserverType>: PlainSink<AsSingle<Observer.Element>, Observer>, ObserverType, @unchecked Sendable {
    /// The element, waiting for the source's completion. Locked although only `on`
    /// touches it: a source sending from several threads at once still gets exactly one
    /// ending (`PrimitiveSequenceConversionTests.concurrentElements`). A `LockedPair`'s
    /// value, as its type follows `Element`.
    private let element = LockedPair((), Element?.none)

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            let isSecond = element.withLock { _, element -> Bool in
                if element != nil { return true }
                element = value
                return false
            }
            if isSecond { forwardError(RxError.moreThanOneElement) }
        case .error:
            forwardEvent(event)
        case .completed:
            let kept = element.withLock { _, element in element.take() }
            if let kept {
                forwardLast(kept)
            } else if parameters.requireElement {
                forwardError(RxError.noElements)
            } else {
                forwardCompleted()
            }
        }
    }
}

/// `first()`: takes the first element, or `nil` for an empty sequence.
struct FirstElement<SourceElement>: PlainOperator {
    typealias Element = SourceElement?

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<SourceElement>) -> Disposable where Observer.Element == Element {
        FirstElementSink(self, observer: observer).observe(source)
    }
}

final class FirstElementSink<SourceElement, Observer: ObserverType>: PlainSink<FirstElement<SourceElement>, Observer>, ObserverType, @unchecked Sendable
    where Observer.Element == SourceElement? {
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            finish(with: value)
        case .error(let error):
            forwardError(error)
        case .completed:
            finish(with: nil)
        }
    }

    private func finish(with value: Element?) {
        forwardLast(value)
    }
}
