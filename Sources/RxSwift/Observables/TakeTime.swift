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
        PlainProducer(asObservable(), TakeTime(duration: duration, scheduler: scheduler))
    }

    /// The elements sent during `duration` from the subscription, then completion.
    @available(*, deprecated, renamed: "take(for:scheduler:)")
    public func take(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        take(for: duration, scheduler: scheduler)
    }
}

/// `take(for:scheduler:)`'s parameters.
struct TakeTime<Element>: PlainOperator {
    let duration: RxTimeInterval
    let scheduler: SchedulerType

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        let sink = TakeTimeSink(self, observer: observer)
        // The timer starts before the source is subscribed to, as in RxSwift: on a
        // virtual clock it wins a tie with the first events of a cold source.
        let timer = scheduler.scheduleRelative((), dueTime: duration) { [weak sink] _ in
            sink?.deliverSerialized(.completed)
            return Disposables.create()
        }
        return sink.observe(source, alongside: timer)
    }
}

final class TakeTimeSink<Observer: ObserverType>: PlainSerializedSink<TakeTime<Observer.Element>, Observer, Void>, ObserverType, @unchecked Sendable {
    func on(_ event: Event<Element>) {
        deliverSerialized(event)
    }
}
