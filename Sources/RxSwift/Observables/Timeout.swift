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
        PlainProducer(asObservable(), Timeout(dueTime: dueTime, other: Observable.error(RxError.timeout), scheduler: scheduler))
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
        PlainProducer(asObservable(), Timeout(dueTime: dueTime, other: other.asObservable(), scheduler: scheduler))
    }
}

/// `timeout`'s parameters.
struct Timeout<Element>: PlainOperator {
    let dueTime: RxTimeInterval
    let other: Observable<Element>
    let scheduler: SchedulerType

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        let sink = TimeoutSink(self, observer: observer, state: TimeoutState())
        sink.run(source: source)
        return sink
    }
}

/// The state of a `timeout` subscription: the running timer (every source event starts
/// a new one, of a newer generation) and whether the sink switched to `other`.
struct TimeoutState: TimedState {
    var timer = TimerSlot()
    var switched = false
}

final class TimeoutSink<Observer: ObserverType>: TimedSink<Timeout<Observer.Element>, Observer, TimeoutState>, ObserverType, SideEventReceiver, @unchecked Sendable {
    /// The source's subscription, then `other`'s.
    private let subscription = SerialDisposable()

    func run(source: Observable<Element>) {
        let original = SingleAssignmentDisposable()
        subscription.disposable = original
        setUpstream(subscription)
        startTimer(generation: 0)
        original.setDisposable(source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        let generation: UInt64? = update { state in
            if state.value.switched || state.isTerminated { return nil }
            state.send(event)
            return state.value.timer.advance()
        }
        if let generation, !event.isStopEvent {
            startTimer(generation: generation)
        }
    }

    private func startTimer(generation: UInt64) {
        startTimer(generation, after: parameters.dueTime, on: parameters.scheduler) { self.timerFired($0) }
    }

    private func timerFired(_ firedGeneration: UInt64) {
        let switches = update { state in
            if state.value.switched || state.isTerminated || firedGeneration != state.value.timer.generation { return false }
            state.value.switched = true
            return true
        }
        guard switches else { return }
        // Replacing the source's subscription disposes it.
        subscription.disposable = parameters.other.subscribe(SideObserver(self))
    }

    /// An event of `other`.
    func receiveSide(_ event: Event<Element>) {
        deliverSerialized(event)
    }
}
