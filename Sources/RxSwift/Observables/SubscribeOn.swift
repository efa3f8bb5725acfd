extension ObservableType {
    /// Subscribes to (and disposes) the source on `scheduler`.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        SubscribeOn(source: asObservable(), scheduler: scheduler)
    }

    /// Subscribes to the source on `scheduler`.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        subscribe(on: scheduler)
    }
}

final class SubscribeOn<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = ForwardSink(observer: observer)
        let subscription = SingleAssignmentDisposable()
        let scheduled = SerialDisposable()
        scheduled.disposable = subscription
        let source = self.source
        let scheduler = self.scheduler
        subscription.setDisposable(scheduler.schedule(()) { _ in
            scheduled.disposable = ScheduledDisposable(scheduler: scheduler, disposable: source.subscribe(sink))
            return Disposables.create()
        })
        sink.setUpstream(scheduled)
        return sink
    }
}
