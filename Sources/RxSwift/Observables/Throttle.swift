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
        Throttle(source: asObservable(), dueTime: dueTime, latest: latest, scheduler: scheduler)
    }
}

final class Throttle<Element>: Producer<Element>, @unchecked Sendable {
    fileprivate let source: Observable<Element>
    fileprivate let dueTime: RxTimeInterval
    fileprivate let latest: Bool
    fileprivate let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = ThrottleSink(parent: self, observer: observer)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

/// The state of a `throttle` subscription.
struct ThrottleState<Element> {
    /// The element waiting for the end of the quiet window (only with `latest`).
    var lastUnsent: Element?
    /// When the last element was queued for delivery.
    var lastSentTime: Date?
    /// The source completed while an element was waiting.
    var completedWhileWaiting = false
    var timerGeneration: UInt64 = 0
}

final class ThrottleSink<Observer: ObserverType>: SerializedSink<Observer, ThrottleState<Observer.Element>>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let dueTime: RxTimeInterval
    private let latest: Bool
    private let scheduler: SchedulerType
    private let timer = TimerSlot()

    init(parent: Throttle<Element>, observer: Observer) {
        dueTime = parent.dueTime
        latest = parent.latest
        scheduler = parent.scheduler
        super.init(observer: observer, state: ThrottleState())
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let now = scheduler.now
            let dueTime = self.dueTime
            let latest = self.latest
            let wait: (remaining: RxTimeInterval, generation: UInt64)? = update { state in
                if state.isTerminated || state.value.completedWhileWaiting { return nil }
                let remaining: RxTimeInterval
                if let lastSentTime = state.value.lastSentTime {
                    remaining = dueTime.reduceWithSpanBetween(earlierDate: lastSentTime, laterDate: now)
                } else {
                    remaining = .nanoseconds(0)
                }
                if remaining.isNowOrEarlier {
                    state.value.lastUnsent = nil
                    state.value.lastSentTime = now
                    state.send(.next(element))
                    return nil
                }
                if !latest { return nil }
                let alreadyWaiting = state.value.lastUnsent != nil
                state.value.lastUnsent = element
                if alreadyWaiting { return nil }
                state.value.timerGeneration &+= 1
                return (remaining, state.value.timerGeneration)
            }
            guard let wait else { return }
            timer.set(scheduler.scheduleRelative((), dueTime: wait.remaining) { [weak self] _ in
                self?.windowEnded()
                return Disposables.create()
            }, generation: wait.generation)
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
        let now = scheduler.now
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

    override func disposeCore() {
        timer.dispose()
    }
}
