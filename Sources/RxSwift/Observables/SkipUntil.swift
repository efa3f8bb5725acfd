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
        let sink = SkipUntilSink(self, observer: observer)
        let sourceSubscription = source.subscribe(sink)
        sink.triggerSubscription.setDisposable(other.subscribe(SideObserver(sink)))
        sink.setUpstream(Disposables.create(sourceSubscription, sink.triggerSubscription))
        return sink
    }
}

/// Skips the source's elements until `other` sends one; observes `other` too.
final class SkipUntilSink<Other, Observer: ObserverType>: PlainSerializedSink<SkipUntil<Observer.Element, Other>, Observer, Void>, ObserverType, SideEventReceiver,
    @unchecked Sendable {
    private let open = AtomicFlag()
    let triggerSubscription = SingleAssignmentDisposable()

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if open.isSet() { deliverSerialized(event) }
        case .error:
            deliverSerialized(event)
        case .completed:
            if open.isSet() {
                deliverSerialized(event)
            } else {
                dispose()
            }
        }
    }

    /// An event of `other`: its first element opens the gate; its end stops watching.
    func receiveSide(_ event: Event<Other>) {
        switch event {
        case .next:
            open.set()
            triggerSubscription.dispose()
        case .error(let error):
            deliverSerialized(.error(error))
        case .completed:
            triggerSubscription.dispose()
        }
    }
}
