extension ObservableType {
    /// Subscribes to (and disposes) the source on `scheduler`.
    ///
    /// The source is subscribed as it is, not through `asObservable()`: a subject or a
    /// testable observable sees the subscription's disposal only when it runs on
    /// `scheduler`, also after a terminal event (in virtual time, one tick later), as in
    /// RxSwift.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        SubscribeOn(source: self, scheduler: scheduler)
    }

    /// Subscribes to the source on `scheduler`.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        subscribe(on: scheduler)
    }
}

final class SubscribeOn<Source: ObservableType>: Producer<Source.Element>, @unchecked Sendable {
    typealias Element = Source.Element

    private let source: Source
    private let scheduler: ImmediateSchedulerType

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(source: Source, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = PassThroughSink(observer: observer)
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
