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
    /// The element, waiting for the source's completion; only `on` touches it, and the
    /// Rx grammar serialises `on`.
    private var element: Element?

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            if element != nil {
                forwardError(RxError.moreThanOneElement)
                return
            }
            element = value
        case .error:
            forwardEvent(event)
        case .completed:
            let kept = element.take()
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
