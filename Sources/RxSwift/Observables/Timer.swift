extension ObservableType where Element: RxAbstractInteger {
    /// Emits 0, 1, 2, ... every `period` on `scheduler`, starting one period after subscription.
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Timer(dueTime: period, period: period, scheduler: scheduler)
    }

    /// Emits 0 after `dueTime`; then, with a `period`, 1, 2, ... every period (otherwise completes).
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType) -> Observable<Element> {
        Timer(dueTime: dueTime, period: period, scheduler: scheduler)
    }
}

final class Timer<Element: RxAbstractInteger>: Producer<Element>, @unchecked Sendable {
    private let dueTime: RxTimeInterval
    private let period: RxTimeInterval?
    private let scheduler: SchedulerType

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(dueTime: RxTimeInterval, period: RxTimeInterval?, scheduler: SchedulerType) {
        self.dueTime = dueTime
        self.period = period
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = SequenceSink(observer: observer)
        sink.trackAs(period == nil ? "timer" : "interval")
        if let period {
            sink.setUpstream(scheduler.schedulePeriodic(Element.zero, startAfter: dueTime, period: period) { state in
                sink.forwardNext(state)
                return state &+ 1
            })
        } else {
            sink.setUpstream(scheduler.scheduleRelative((), dueTime: dueTime) { _ in
                sink.forwardNext(0)
                sink.forwardCompleted()
                return Disposables.create()
            })
        }
        return sink
    }
}
