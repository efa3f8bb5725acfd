import Foundation

extension ObservableType {
    /// Shifts every element and the completion `dueTime` later; an error is sent at
    /// once, dropping the elements still waiting.
    ///
    /// ```
    /// source:   -1--2-3-|
    /// delay(2 ticks)
    /// result:   ---1--2-3-|
    /// ```
    ///
    /// As in RxSwift, each scheduler turn sends one event, then schedules the next turn
    /// for what is left of that event's delay (nothing, if it is already due). Events
    /// that fall due together therefore leave in consecutive turns: on a `TestScheduler`
    /// that simulates the processing delay, one tick apart (`Single.just(1)` delayed by
    /// 2 ticks from 200 succeeds at 202 and completes at 203).
    ///
    /// - parameter dueTime: How much later each event is sent.
    /// - parameter scheduler: The scheduler whose clock and timers are used.
    /// - returns: The delayed sequence.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        PlainProducer(asObservable(), Delay(dueTime: dueTime, scheduler: scheduler))
    }

    /// Subscribes to the source only `dueTime` after the subscription.
    ///
    /// ```
    /// source (cold): -1-2|
    /// delaySubscription(3 ticks)
    /// result:        ----1-2|
    /// ```
    ///
    /// - parameter dueTime: How long to wait before subscribing.
    /// - parameter scheduler: The scheduler that runs the timer.
    /// - returns: The sequence, subscribed to late.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        PlainProducer(asObservable(), DelaySubscription(dueTime: dueTime, scheduler: scheduler))
    }
}

// MARK: - delay

/// `delay`'s parameters.
struct Delay<Element>: PlainOperator {
    let dueTime: RxTimeInterval
    let scheduler: SchedulerType

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        let sink = DelaySink(self, observer: observer, state: DelayState())
        sink.run(source: source)
        return sink
    }
}

/// The state of a `delay` subscription.
struct DelayState<Element>: TimedState {
    /// Events not sent yet, oldest first, each with the time it arrived.
    var waiting = Queue<(arrived: Date, event: Event<Element>)>()
    /// Whether a turn is scheduled or running; a new event schedules one only when not.
    var turnPending = false
    /// The timer of the next turn.
    var timer = TimerSlot()

    /// Marks a turn as pending and returns the generation of its timer.
    mutating func startTurn() -> UInt64 {
        turnPending = true
        return timer.advance()
    }
}

/// Events wait in a queue with the time they arrived. The first one schedules a turn
/// `dueTime` later; each turn sends the oldest event and, if more wait, schedules the
/// next turn for what is left of the next event's delay.
final class DelaySink<Observer: ObserverType>: TimedSink<Delay<Observer.Element>, Observer, DelayState<Observer.Element>>, ObserverType, @unchecked Sendable {
    private let sourceSubscription = SingleAssignmentDisposable()

    func run(source: Observable<Element>) {
        setUpstream(sourceSubscription)
        sourceSubscription.setDisposable(source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        if event.isStopEvent {
            sourceSubscription.dispose()
        }
        switch event {
        case .error:
            update { state in
                state.value.waiting.removeAll()
                state.send(event)
            }
        case .next, .completed:
            let now = parameters.scheduler.now
            let generation: UInt64? = update { state in
                if state.isTerminated { return nil }
                state.value.waiting.enqueue((now, event))
                if state.value.turnPending { return nil }
                return state.value.startTurn()
            }
            if let generation {
                schedule(after: parameters.dueTime, generation: generation)
            }
        }
    }

    private func schedule(after interval: RxTimeInterval, generation: UInt64) {
        startTimer(generation, after: interval, on: parameters.scheduler) { _ in self.turn() }
    }

    /// Sends the oldest waiting event; once it is delivered, schedules the turn of the
    /// next one, if any.
    private func turn() {
        let next: (arrived: Date, generation: UInt64)? = update { state in
            state.value.turnPending = false
            guard let oldest = state.value.waiting.dequeue() else { return nil }
            state.send(oldest.event)
            guard !state.isTerminated, let following = state.value.waiting.peek() else {
                state.value.waiting.removeAll()
                return nil
            }
            return (following.arrived, state.value.startTurn())
        }
        guard let next else { return }
        // Measured after the delivery, as RxSwift does, in the unit of `dueTime`.
        let left = parameters.dueTime.reduceWithSpanBetween(earlierDate: next.arrived, laterDate: parameters.scheduler.now)
        schedule(after: left, generation: next.generation)
    }
}

// MARK: - delaySubscription

/// `delaySubscription`'s parameters.
struct DelaySubscription<Element>: PlainOperator {
    let dueTime: RxTimeInterval
    let scheduler: SchedulerType

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        let sink = PassThroughSink(observer: observer)
        // The scheduled action's result (the subscription) is owned by the scheduled
        // item: disposing the item disposes the subscription.
        sink.setUpstream(scheduler.scheduleRelative((), dueTime: dueTime) { _ in
            source.subscribe(sink)
        })
        return sink
    }
}
