extension ObservableType {
    /// The elements sent during `duration` from the subscription, then completion.
    ///
    /// ```
    /// source:   -1-2-3-4-|
    /// take(for: 4 ticks)
    /// result:   -1-2|
    /// ```
    ///
    /// - parameter duration: How long elements are taken, from the subscription.
    /// - parameter scheduler: The scheduler that runs the timer.
    /// - returns: The elements of the source during `duration`.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TakeTime(source: asObservable(), duration: duration, scheduler: scheduler)
    }

    /// The elements sent during `duration` from the subscription, then completion.
    @available(*, deprecated, renamed: "take(for:scheduler:)")
    public func take(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        take(for: duration, scheduler: scheduler)
    }
}

final class TakeTime<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let duration: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.duration = duration
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = TakeTimeSink(observer: observer)
        let sourceSubscription = SingleAssignmentDisposable()
        // The timer starts before the source is subscribed to, as in RxSwift: on a
        // virtual clock it wins a tie with the first events of a cold source.
        let timer = scheduler.scheduleRelative((), dueTime: duration) { [weak sink] _ in
            sink?.deliverSerialized(.completed)
            return Disposables.create()
        }
        sink.setUpstream(Disposables.create(timer, sourceSubscription))
        sourceSubscription.setDisposable(source.subscribe(sink))
        return sink
    }
}

final class TakeTimeSink<Observer: ObserverType>: SerializedSink<Observer, Void>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    func on(_ event: Event<Element>) {
        deliverSerialized(event)
    }
}
