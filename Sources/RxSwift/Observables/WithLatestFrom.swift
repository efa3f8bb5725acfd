extension ObservableType {
    /// Combines each element of `self` with the latest element of `second` using
    /// `resultSelector`; elements of `self` that arrive before `second` emitted are dropped.
    ///
    /// ```
    /// self:   ----1-----2--3--|
    /// second: --a----b--------
    /// withLatestFrom(second) { "\($0)\($1)" }
    /// result: ----1a----2b-3b-|
    /// ```
    ///
    /// `second` is subscribed first. The sequence completes with `self`; an error of either
    /// source, or thrown by `resultSelector`, ends it. `second` completing changes nothing.
    public func withLatestFrom<Source: ObservableConvertibleType, ResultType>(
        _ second: Source,
        resultSelector: @escaping (Element, Source.Element) throws -> ResultType
    ) -> Observable<ResultType> {
        PlainProducer(asObservable(), WithLatestFrom(second: second.asObservable(), resultSelector: resultSelector))
    }

    /// The latest element of `second` each time `self` emits; elements of `self` that
    /// arrive before `second` emitted are dropped.
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
        PlainProducer(asObservable(), WithLatestFrom(second: second.asObservable(), resultSelector: { $1 }))
    }
}

/// The state of one withLatestFrom subscription. Every transition runs under the sink's
/// lock and returns the event to deliver after unlocking (or `nil`).
struct WithLatestFromState<First, Second> {
    var latest: Second?
    private(set) var isTerminated = false
    var delivery = SerialDelivery<Event<(First, Second)>>()

    mutating func first(_ element: First) -> Event<(First, Second)>? {
        if isTerminated { return nil }
        guard let latest else { return nil }
        return delivery.offer(.next((element, latest)))
    }

    mutating func terminate(_ event: Event<(First, Second)>) -> Event<(First, Second)>? {
        if isTerminated { return nil }
        isTerminated = true
        return delivery.offer(event)
    }

    mutating func abortDelivery() {
        isTerminated = true
        delivery.close()
    }
}

/// `withLatestFrom`'s parameters.
struct WithLatestFrom<First, Second, Result>: PlainOperator {
    typealias Element = Result

    let second: Observable<Second>
    let resultSelector: (First, Second) throws -> Result

    func subscribe<Observer: ObserverType>(_ observer: Observer, to first: Observable<First>) -> Disposable where Observer.Element == Result {
        let sink = WithLatestFromSink<First, Second, Observer>(self, observer: observer)
        sink.setUpstream(Disposables.create(sink.firstSubscription, sink.secondSubscription))
        sink.secondSubscription.setDisposable(second.subscribe(SideObserver(sink)))
        sink.firstSubscription.setDisposable(first.subscribe(sink))
        return sink
    }
}

final class WithLatestFromSink<First, Second, Observer: ObserverType>: PlainSink<WithLatestFrom<First, Second, Observer.Element>, Observer>, ObserverType, SideEventReceiver, @unchecked Sendable {
    typealias Result = Observer.Element

    private let state = LockedState(WithLatestFromState<First, Second>())
    let firstSubscription = SingleAssignmentDisposable()
    let secondSubscription = SingleAssignmentDisposable()

    func on(_ event: Event<First>) {
        let outgoing: Event<(First, Second)>?
        switch event {
        case .next(let element):
            outgoing = state.withLock { $0.first(element) }
        case .error(let error):
            outgoing = state.withLock { $0.terminate(.error(error)) }
        case .completed:
            outgoing = state.withLock { $0.terminate(.completed) }
        }
        if let outgoing { deliver(outgoing) }
    }

    /// An event of `second`: an element becomes the latest, an error ends the result,
    /// a completion changes nothing.
    func receiveSide(_ event: Event<Second>) {
        switch event {
        case .next(let element):
            state.withLock { $0.latest = element }
        case .error(let error):
            let outgoing = state.withLock { $0.terminate(.error(error)) }
            if let outgoing { deliver(outgoing) }
        case .completed:
            secondSubscription.dispose()
        }
    }

    /// Delivers `first`, then whatever was queued behind it meanwhile.
    private func deliver(_ first: Event<(First, Second)>) {
        deliverInOrder(first, next: { state.withLock { $0.delivery.next() } }) { event in
            switch event {
            case .next(let (element, latest)):
                let result: Result
                do {
                    result = try parameters.resultSelector(element, latest)
                } catch {
                    state.withLock { $0.abortDelivery() }
                    forwardError(error)
                    return false
                }
                forwardNext(result)
                return true
            case .error(let error):
                forwardError(error)
                return false
            case .completed:
                forwardCompleted()
                return false
            }
        }
    }
}
