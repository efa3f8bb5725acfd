extension ObservableType {
    /// Samples the source at each tick of `sampler`: the latest element received since
    /// the previous tick goes out, or `defaultValue` (if given) when none arrived.
    ///
    /// ```
    /// source:   -1-2-3-----4--|
    /// sampler:  ----x---x----x--x|
    /// result:   ----2---3----4--|
    /// ```
    ///
    /// The result completes at the first sampler tick (or sampler completion) after
    /// the source completed; an error of either sequence ends it at once.
    ///
    /// - parameter sampler: The sequence whose elements (and completion) are the sampling ticks.
    /// - parameter defaultValue: The element sent at a tick when the source sent nothing new.
    /// - returns: The sampled sequence.
    public func sample<Source: ObservableType>(_ sampler: Source, defaultValue: Element? = nil) -> Observable<Element> {
        PlainProducer(asObservable(), Sample(sampler: sampler.asObservable(), defaultValue: defaultValue))
    }
}

/// `sample`'s parameters.
struct Sample<Element, SampleType>: PlainOperator {
    let sampler: Observable<SampleType>
    let defaultValue: Element?

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        let sink = SampleSink<Observer, SampleType>(self, observer: observer, state: SampleState())
        sink.run(source: source)
        return sink
    }
}

/// The state of a `sample` subscription: the element received since the last tick,
/// and whether the source completed.
struct SampleState<Element> {
    var latest: Element?
    var sourceDone = false
}

final class SampleSink<Observer: ObserverType, SampleType>: PlainSerializedSink<Sample<Observer.Element, SampleType>, Observer, SampleState<Observer.Element>>, ObserverType, SideEventReceiver, @unchecked Sendable {
    private let sourceSubscription = SingleAssignmentDisposable()
    private let samplerSubscription = SingleAssignmentDisposable()

    func run(source: Observable<Element>) {
        setUpstream(Disposables.create(sourceSubscription, samplerSubscription))
        sourceSubscription.setDisposable(source.subscribe(self))
        samplerSubscription.setDisposable(parameters.sampler.subscribe(SideObserver(self)))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            update { $0.value.latest = element }
        case .error:
            deliverSerialized(event)
        case .completed:
            update { $0.value.sourceDone = true }
            sourceSubscription.dispose()
        }
    }

    /// A tick of the sampler.
    func receiveSide(_ event: Event<SampleType>) {
        let defaultValue = parameters.defaultValue
        update { state in
            switch event {
            case .next, .completed:
                if let element = state.value.latest ?? defaultValue {
                    state.value.latest = nil
                    state.send(.next(element))
                }
                if state.value.sourceDone {
                    state.send(.completed)
                }
            case .error(let error):
                state.send(.error(error))
            }
        }
    }
}
