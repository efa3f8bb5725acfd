extension ObservableType {
    /// Skips the elements sent during `duration` from the subscription; passes on the
    /// rest, and the terminal event whenever it comes.
    ///
    /// ```
    /// source:   -1-2-3-4-|
    /// skip(4 ticks)
    /// result:   -----3-4-|
    /// ```
    ///
    /// - parameter duration: How long elements are skipped, from the subscription.
    /// - parameter scheduler: The scheduler that runs the timer.
    /// - returns: The elements of the source after `duration`.
    public func skip(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        SkipTime(source: asObservable(), duration: duration, scheduler: scheduler)
    }
}

final class SkipTime<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let duration: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.duration = duration
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = SkipTimeSink(observer: observer)
        let sourceSubscription = SingleAssignmentDisposable()
        let gate = sink.gate
        let timer = scheduler.scheduleRelative((), dueTime: duration) { _ in
            _ = gate.testAndSet()
            return Disposables.create()
        }
        sink.setUpstream(Disposables.create(timer, sourceSubscription))
        sourceSubscription.setDisposable(source.subscribe(sink))
        return sink
    }
}

/// Only the source sends events (the timer just opens the gate), so the source's
/// own serialisation is all the delivery needs.
final class SkipTimeSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    /// Set once `duration` has passed.
    let gate = AtomicFlag()

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if gate.isSet { forwardOn(event) }
        case .error, .completed:
            forwardTerminal(event)
        }
    }
}
