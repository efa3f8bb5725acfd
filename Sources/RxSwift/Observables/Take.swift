extension ObservableType {
    /// The first `count` elements, then completion.
    ///
    /// ```
    /// source: --1--2--3--4--|
    /// take(2)
    /// result: --1--(2|)
    /// ```
    public func take(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "Rivulet: take(_:) needs a count of 0 or more, got \(count).")
        if count == 0 { return Observable.empty() }
        return PlainProducer(asObservable(), TakeCount(count: count))
    }
}

/// `take(_:)`'s parameter and sink.
struct TakeCount<Element>: PlainOperator {
    let count: Int

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        TakeCountSink(self, observer: observer).observe(source)
    }
}

final class TakeCountSink<Observer: ObserverType>: PlainSink<TakeCount<Observer.Element>, Observer>, ObserverType, @unchecked Sendable {
    /// How many elements went through. Locked although only `on` touches it, so that a
    /// source sending from several threads at once still passes at most `count`.
    private let taken = LockedState(0)

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            let count = parameters.count
            let taking = taken.withLock { taken -> Int? in
                guard taken < count else { return nil }
                taken += 1
                return taken
            }
            guard let taking else { return }
            forwardEvent(event)
            if taking == count { forwardCompleted() }
        case .error, .completed:
            forwardEvent(event)
        }
    }
}
