import Foundation

extension ObservableType {
    /// Emits the first element, then at most one element per `dueTime`: with `latest`,
    /// the latest element received during the quiet window goes out when it ends;
    /// without it, elements that arrive too early are dropped.
    ///
    /// ```
    /// source:   123------|
    /// throttle(4 ticks)
    /// result:   1---3----|
    /// throttle(4 ticks, latest: false)
    /// result:   1--------|
    /// ```
    ///
    /// A completion that arrives while an element waits is sent right after it.
    ///
    /// - parameter dueTime: The minimum time between two emitted elements.
    /// - parameter latest: Whether the latest element of a quiet window is emitted when it ends.
    /// - parameter scheduler: The scheduler whose clock and timers are used.
    /// - returns: The throttled sequence.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Observable<Element> {
        PlainProducer(asObservable(), Throttle(dueTime: dueTime, latest: latest, scheduler: scheduler))
    }
}

/// `throttle`'s parameters.
struct Throttle<Element>: PlainOperator {
    let dueTime: RxTimeInterval
    let latest: Bool
    let scheduler: SchedulerType

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        ThrottleSink(self, observer: observer, state: ThrottleState()).observe(source)
    }
}

/// The state of a `throttle` subscription.
struct ThrottleState<Element>: TimedState {
    /// The element waiting for the end of the quiet window (only with `latest`).
    var lastUnsent: Element?
    /// When the last element was queued for delivery.
    var lastSentTime: Date?
    /// The source completed while an element was waiting.
    var completedWhileWaiting = false
    /// The timer that ends the quiet window.
    var timer = TimerSlot()
}

final class ThrottleSink<Observer: ObserverType>: TimedSink<Throttle<Observer.Element>, Observer, ThrottleState<Observer.Element>>, ObserverType, @unchecked Sendable {
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let now = parameters.scheduler.now
            let wait: (remaining: RxTimeInterval, generation: UInt64)? = update { state in
                if state.isTerminated || state.value.completedWhileWaiting { return nil }
                let remaining: RxTimeInterval
                if let lastSentTime = state.value.lastSentTime {
                    remaining = parameters.dueTime.reduceWithSpanBetween(earlierDate: lastSentTime, laterDate: now)
                } else {
                    remaining = .nanoseconds(0)
                }
                if remaining.isNowOrEarlier {
                    state.value.lastUnsent = nil
                    state.value.lastSentTime = now
                    state.send(.next(element))
                    return nil
                }
                if !parameters.latest { return nil }
                let alreadyWaiting = state.value.lastUnsent != nil
                state.value.lastUnsent = element
                if alreadyWaiting { return nil }
                return (remaining, state.value.timer.advance())
            }
            guard let wait else { return }
            startTimer(wait.generation, after: wait.remaining, on: parameters.scheduler) { _ in self.windowEnded() }
        case .error:
            update { state in
                state.value.lastUnsent = nil
                state.send(event)
            }
        case .completed:
            update { state in
                if state.value.lastUnsent != nil {
                    state.value.completedWhileWaiting = true
                    return
                }
                state.send(.completed)
            }
        }
    }

    private func windowEnded() {
        let now = parameters.scheduler.now
        update { state in
            if let element = state.value.lastUnsent {
                state.value.lastUnsent = nil
                state.value.lastSentTime = now
                state.send(.next(element))
            }
            if state.value.completedWhileWaiting {
                state.send(.completed)
            }
        }
    }
}
