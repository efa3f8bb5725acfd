extension ObservableType {
    /// Fails with `RxError.timeout` if the first element does not arrive within
    /// `dueTime` of the subscription, or an element does not follow the previous one
    /// within `dueTime`.
    ///
    /// ```
    /// source:   -1-2------3-|
    /// timeout(4 ticks)
    /// result:   -1-2---X
    /// ```
    ///
    /// - parameter dueTime: The longest wait allowed before the first element and between elements.
    /// - parameter scheduler: The scheduler that runs the timers.
    /// - returns: The source's events, or an `RxError.timeout` error once a wait is too long.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Timeout(source: asObservable(), dueTime: dueTime, other: Observable.error(RxError.timeout), scheduler: scheduler)
    }

    /// Switches to `other` if the first element does not arrive within `dueTime` of
    /// the subscription, or an element does not follow the previous one within `dueTime`.
    ///
    /// ```
    /// source:   -1-2------3-|
    /// other:    a-b|   (cold: its times count from its subscription)
    /// timeout(4 ticks, other: other)
    /// result:   -1-2---a-b|
    /// ```
    ///
    /// - parameter dueTime: The longest wait allowed before the first element and between elements.
    /// - parameter other: The sequence to continue with when a wait is too long.
    /// - parameter scheduler: The scheduler that runs the timers.
    /// - returns: The source's events until a timeout, then `other`'s events.
    public func timeout<Source: ObservableConvertibleType>(_ dueTime: RxTimeInterval, other: Source, scheduler: SchedulerType) -> Observable<Element> where Element == Source.Element {
        Timeout(source: asObservable(), dueTime: dueTime, other: other.asObservable(), scheduler: scheduler)
    }
}

final class Timeout<Element>: Producer<Element>, @unchecked Sendable {
    fileprivate let source: Observable<Element>
    fileprivate let dueTime: RxTimeInterval
    fileprivate let other: Observable<Element>
    fileprivate let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, other: Observable<Element>, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.other = other
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = TimeoutSink(parent: self, observer: observer)
        sink.run(source: source)
        return sink
    }
}

/// The state of a `timeout` subscription: the generation of the running timer (every
/// source event starts a new one) and whether the sink switched to `other`.
struct TimeoutState {
    var generation: UInt64 = 0
    var switched = false
}

final class TimeoutSink<Observer: ObserverType>: SerializedSink<Observer, TimeoutState>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let dueTime: RxTimeInterval
    private let other: Observable<Element>
    private let scheduler: SchedulerType
    /// The source's subscription, then `other`'s.
    private let subscription = SerialDisposable()
    private let timer = TimerSlot()

    init(parent: Timeout<Element>, observer: Observer) {
        dueTime = parent.dueTime
        other = parent.other
        scheduler = parent.scheduler
        super.init(observer: observer, state: TimeoutState())
    }

    func run(source: Observable<Element>) {
        let original = SingleAssignmentDisposable()
        subscription.disposable = original
        setUpstream(Disposables.create(subscription, timer))
        startTimer(generation: 0)
        original.setDisposable(source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        let generation: UInt64? = update { state in
            if state.value.switched || state.isTerminated { return nil }
            state.value.generation &+= 1
            state.send(event)
            return state.value.generation
        }
        if let generation, !event.isStopEvent {
            startTimer(generation: generation)
        }
    }

    private func startTimer(generation: UInt64) {
        timer.set(scheduler.scheduleRelative(generation, dueTime: dueTime) { [weak self] generation in
            self?.timerFired(generation)
            return Disposables.create()
        }, generation: generation)
    }

    private func timerFired(_ firedGeneration: UInt64) {
        let switches = update { state in
            if state.value.switched || state.isTerminated || firedGeneration != state.value.generation { return false }
            state.value.switched = true
            return true
        }
        guard switches else { return }
        // Replacing the source's subscription disposes it.
        subscription.disposable = other.subscribe(TimeoutOtherObserver(sink: self))
    }

    fileprivate func onOther(_ event: Event<Element>) {
        deliverSerialized(event)
    }
}

private final class TimeoutOtherObserver<Observer: ObserverType>: ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private let sink: TimeoutSink<Observer>

    init(sink: TimeoutSink<Observer>) {
        self.sink = sink
    }

    func on(_ event: Event<Element>) {
        sink.onOther(event)
    }
}
