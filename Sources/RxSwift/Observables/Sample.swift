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
        Sample(source: asObservable(), sampler: sampler.asObservable(), defaultValue: defaultValue)
    }
}

final class Sample<Element, SampleType>: Producer<Element>, @unchecked Sendable {
    fileprivate let source: Observable<Element>
    fileprivate let sampler: Observable<SampleType>
    fileprivate let defaultValue: Element?

    init(source: Observable<Element>, sampler: Observable<SampleType>, defaultValue: Element?) {
        self.source = source
        self.sampler = sampler
        self.defaultValue = defaultValue
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = SampleSink<Observer, SampleType>(defaultValue: defaultValue, observer: observer)
        sink.run(source: source, sampler: sampler)
        return sink
    }
}

/// The state of a `sample` subscription: the element received since the last tick,
/// and whether the source completed.
struct SampleState<Element> {
    var latest: Element?
    var sourceDone = false
}

final class SampleSink<Observer: ObserverType, SampleType>: SerializedSink<Observer, SampleState<Observer.Element>>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let defaultValue: Element?
    private let sourceSubscription = SingleAssignmentDisposable()
    private let samplerSubscription = SingleAssignmentDisposable()

    init(defaultValue: Element?, observer: Observer) {
        self.defaultValue = defaultValue
        super.init(observer: observer, state: SampleState())
    }

    func run(source: Observable<Element>, sampler: Observable<SampleType>) {
        setUpstream(Disposables.create(sourceSubscription, samplerSubscription))
        sourceSubscription.setDisposable(source.subscribe(self))
        samplerSubscription.setDisposable(sampler.subscribe(SamplerObserver(sink: self)))
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

    fileprivate func tick(_ event: Event<SampleType>) {
        let defaultValue = self.defaultValue
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

private final class SamplerObserver<Observer: ObserverType, SampleType>: ObserverType, @unchecked Sendable {
    typealias Element = SampleType
    private let sink: SampleSink<Observer, SampleType>

    init(sink: SampleSink<Observer, SampleType>) {
        self.sink = sink
    }

    func on(_ event: Event<SampleType>) {
        sink.tick(event)
    }
}
