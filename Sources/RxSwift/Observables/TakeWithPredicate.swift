/// Whether `take(while:behavior:)` and `take(until:behavior:)` also pass on the
/// element that ends the sequence.
public enum TakeBehavior: Sendable {
    /// Pass on the element that ends the sequence, then complete.
    case inclusive
    /// Complete without passing on the element that ends the sequence.
    case exclusive
}

extension ObservableType {
    /// Passes on the source's elements until `other` emits an element, then completes;
    /// an error from `other` ends the sequence with it, and its completion is ignored.
    ///
    /// ```
    /// source: --1--2--3--4--|
    /// other:  -----------x--
    /// take(until: other)
    /// result: --1--2--3--|
    /// ```
    public func take<Source: ObservableType>(until other: Source) -> Observable<Element> {
        PlainProducer(asObservable(), TakeUntil(other: other.asObservable()))
    }

    /// Passes on elements until one satisfies `predicate`, then completes; with
    /// `.inclusive`, that element is passed on first. A thrown error ends the sequence
    /// with it.
    ///
    /// ```
    /// source: --1--2--3--4--|
    /// take(until: { $0 == 3 })
    /// result: --1--2--|
    /// ```
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        PlainProducer(asObservable(), TakeUntilPredicate(behavior: behavior, predicate: predicate))
    }

    /// Passes on elements while they satisfy `predicate`, and completes at the first
    /// one that does not; with `.inclusive`, that element is passed on first. A thrown
    /// error ends the sequence with it.
    ///
    /// ```
    /// source: --1--2--3--4--|
    /// take(while: { $0 < 3 })
    /// result: --1--2--|
    /// ```
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        PlainProducer(asObservable(), TakeUntilPredicate(behavior: behavior) { try !predicate($0) })
    }

    /// Passes on the source's elements until `other` emits an element.
    @available(*, deprecated, renamed: "take(until:)")
    public func takeUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        take(until: other)
    }

    /// Passes on elements until one satisfies `predicate`.
    @available(*, deprecated, renamed: "take(until:behavior:)")
    public func takeUntil(_ behavior: TakeBehavior, predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(until: predicate, behavior: behavior)
    }

    /// Passes on elements while they satisfy `predicate`.
    @available(*, deprecated, renamed: "take(while:)")
    public func takeWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(while: predicate)
    }
}

// MARK: take(until: predicate)

/// `take(until:behavior:)` and `take(while:behavior:)`: the predicate and sink.
struct TakeUntilPredicate<Element>: PlainOperator {
    let behavior: TakeBehavior
    let predicate: (Element) throws -> Bool

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        TakeUntilPredicateSink(self, observer: observer).observe(source)
    }
}

final class TakeUntilPredicateSink<Observer: ObserverType>: PlainSink<TakeUntilPredicate<Observer.Element>, Observer>, ObserverType, @unchecked Sendable {
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if isStopped { return }
            let stop: Bool
            do {
                stop = try parameters.predicate(element)
            } catch {
                forwardError(error)
                return
            }
            if !stop {
                forwardEvent(event)
                return
            }
            if parameters.behavior == .inclusive { forwardEvent(event) }
            forwardCompleted()
        case .error, .completed:
            forwardEvent(event)
        }
    }
}

// MARK: take(until: other)

/// `take(until:)`'s trigger and sinks.
struct TakeUntil<Element, Other>: PlainOperator {
    let other: Observable<Other>

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        let sink = TakeUntilSink(self, observer: observer)
        // As in RxSwift, the trigger is subscribed first: one that fires during its
        // own subscription ends the sequence before the source starts.
        sink.triggerSubscription.setDisposable(other.subscribe(SideObserver(sink)))
        let sourceSubscription = source.subscribe(sink)
        sink.setUpstream(Disposables.create(sourceSubscription, sink.triggerSubscription))
        return sink
    }
}

/// Passes the source on until `other` sends an element; observes `other` too.
final class TakeUntilSink<Other, Observer: ObserverType>: PlainSerializedSink<TakeUntil<Observer.Element, Other>, Observer, Void>, ObserverType, SideEventReceiver,
    @unchecked Sendable {
    let triggerSubscription = SingleAssignmentDisposable()

    func on(_ event: Event<Element>) {
        deliverSerialized(event)
    }

    /// An event of `other`: an element completes the sequence; its completion only
    /// stops watching.
    func receiveSide(_ event: Event<Other>) {
        switch event {
        case .next:
            deliverSerialized(.completed)
        case .error(let error):
            deliverSerialized(.error(error))
        case .completed:
            triggerSubscription.dispose()
        }
    }
}

