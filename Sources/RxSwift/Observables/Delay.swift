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
struct DelayState<Element> {
    /// Events not yet due, oldest first, with their due dates.
    var waiting = Queue<(due: Date, event: Event<Element>)>()
    /// Whether a drain is scheduled or running.
    var draining = false
    var timerGeneration: UInt64 = 0
}

/// Events wait in a queue with their due dates; one timer at a time drains the queue:
/// it sends every event that is due and, if more wait, sets itself for the next one.
final class DelaySink<Observer: ObserverType>: PlainSerializedSink<Delay<Observer.Element>, Observer, DelayState<Observer.Element>>, ObserverType, @unchecked Sendable {
    private let sourceSubscription = SingleAssignmentDisposable()
    private let timer = TimerSlot()

    func run(source: Observable<Element>) {
        setUpstream(Disposables.create(sourceSubscription, timer))
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
            let dueTime = parameters.dueTime
            let due = parameters.scheduler.now.adding(dueTime)
            let generation: UInt64? = update { state in
                if state.isTerminated { return nil }
                state.value.waiting.enqueue((due, event))
                if state.value.draining { return nil }
                state.value.draining = true
                state.value.timerGeneration &+= 1
                return state.value.timerGeneration
            }
            if let generation {
                schedule(after: dueTime, generation: generation)
            }
        }
    }

    private func schedule(after interval: RxTimeInterval, generation: UInt64) {
        timer.start(generation, after: interval, on: parameters.scheduler) { [weak self] _ in self?.drain() }
    }

    private func drain() {
        let now = parameters.scheduler.now
        let next: (interval: RxTimeInterval, generation: UInt64)? = update { state in
            var next: (interval: RxTimeInterval, generation: UInt64)?
            while let head = state.value.waiting.peek() {
                // Due when what is left rounds to no time at all (whole nanoseconds), so
                // floating-point noise in dates never costs an extra timer.
                let remaining = RxTimeInterval.fromSeconds(head.due.timeIntervalSince(now))
                if !remaining.isNowOrEarlier {
                    if !state.isTerminated {
                        state.value.timerGeneration &+= 1
                        next = (remaining, state.value.timerGeneration)
                    }
                    break
                }
                _ = state.value.waiting.dequeue()
                state.send(head.event)
            }
            if next == nil {
                state.value.waiting.removeAll()
                state.value.draining = false
            }
            return next
        }
        if let next {
            schedule(after: next.interval, generation: next.generation)
        }
    }

    override func disposeCore() {
        timer.dispose()
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
