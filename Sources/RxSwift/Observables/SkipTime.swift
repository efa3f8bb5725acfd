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
        PlainProducer(asObservable(), SkipTime(duration: duration, scheduler: scheduler))
    }
}

/// `skip(_:scheduler:)`'s parameters.
struct SkipTime<Element>: PlainOperator {
    let duration: RxTimeInterval
    let scheduler: SchedulerType

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        let sink = SkipTimeSink(self, observer: observer)
        let timer = scheduler.scheduleRelative(sink, dueTime: duration) { sink in
            sink.open()
            return Disposables.create()
        }
        return sink.observe(source, alongside: timer)
    }
}

/// Only the source sends events (the timer just opens the gate), so the source's
/// own serialisation is all the delivery needs.
final class SkipTimeSink<Observer: ObserverType>: PlainSink<SkipTime<Observer.Element>, Observer>, ObserverType, @unchecked Sendable {    /// Set once `duration` has passed.
    private let gate = AtomicFlag()

    func open() {
        gate.set()
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if gate.isSet() { forwardEvent(event) }
        case .error, .completed:
            forwardEvent(event)
        }
    }
}
