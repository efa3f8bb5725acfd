extension ObservableType {
    /// Drops the source's elements until `other` emits an element, then passes on the
    /// rest; an error from `other` ends the sequence with it.
    ///
    /// As in RxSwift, a source that completes before `other` has emitted ends the
    /// subscription without passing the completion on.
    ///
    /// ```
    /// source: --1--2--3--4--|
    /// other:  -------x------
    /// skip(until: other)
    /// result: --------3--4--|
    /// ```
    public func skip<Source: ObservableType>(until other: Source) -> Observable<Element> {
        PlainProducer(asObservable(), SkipUntil(other: other.asObservable()))
    }

    /// Drops the source's elements until `other` emits an element.
    @available(*, deprecated, renamed: "skip(until:)")
    public func skipUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        skip(until: other)
    }
}

/// `skip(until:)`'s trigger and sinks.
struct SkipUntil<Element, Other>: PlainOperator {
    let other: Observable<Other>

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        let sink = SkipUntilSink(observer: observer)
        let trigger = SkipUntilTrigger<Other, Observer>(sink: sink)
        let sourceSubscription = source.subscribe(sink)
        trigger.subscription.setDisposable(other.subscribe(trigger))
        sink.setUpstream(Disposables.create(sourceSubscription, trigger.subscription))
        return sink
    }
}

final class SkipUntilSink<Observer: ObserverType>: SerializedSink<Observer, Void>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    let open = AtomicFlag()

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if open.isSet { deliverSerialized(event) }
        case .error:
            deliverSerialized(event)
        case .completed:
            if open.isSet {
                deliverSerialized(event)
            } else {
                dispose()
            }
        }
    }
}

/// Observes the `other` sequence of `skip(until:)`.
final class SkipUntilTrigger<Other, Observer: ObserverType>: ObserverType, @unchecked Sendable {
    let subscription = SingleAssignmentDisposable()
    private let sink: SkipUntilSink<Observer>

    init(sink: SkipUntilSink<Observer>) {
        self.sink = sink
    }

    func on(_ event: Event<Other>) {
        switch event {
        case .next:
            _ = sink.open.testAndSet()
            subscription.dispose()
        case .error(let error):
            sink.deliverSerialized(.error(error))
        case .completed:
            subscription.dispose()
        }
    }
}
