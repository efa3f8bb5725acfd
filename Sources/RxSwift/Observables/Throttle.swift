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

final class ThrottleSink<Observer: ObserverType>: OutboxSink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let dueTime: RxTimeInterval
    private let latest: Bool
    private let scheduler: SchedulerType
    private let timer = TimerSlot()

    // State, guarded by `lock`.
    /// The element waiting for the end of the quiet window (only with `latest`).
    private var lastUnsent: Element?
    /// When the last element was queued for delivery.
    private var lastSentTime: Date?
    /// The source completed while an element was waiting.
    private var completedWhileWaiting = false
    private var timerGeneration: UInt64 = 0

    init(parent: Throttle<Element>, observer: Observer) {
        dueTime = parent.dueTime
        latest = parent.latest
        scheduler = parent.scheduler
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let now = scheduler.now
            lock.lock()
            if isTerminatedLocked || completedWhileWaiting {
                lock.unlock()
                return
            }
            let remaining: RxTimeInterval
            if let lastSentTime {
                remaining = dueTime.reduceWithSpanBetween(earlierDate: lastSentTime, laterDate: now)
            } else {
                remaining = .nanoseconds(0)
            }
            if remaining.isNowOrEarlier {
                lastUnsent = nil
                lastSentTime = now
                enqueueLocked(.next(element))
                unlockAndDeliver()
                return
            }
            if !latest {
                lock.unlock()
                return
            }
            let alreadyWaiting = lastUnsent != nil
            lastUnsent = element
            if alreadyWaiting {
                lock.unlock()
                return
            }
            timerGeneration &+= 1
            let generation = timerGeneration
            lock.unlock()
            timer.set(scheduler.scheduleRelative((), dueTime: remaining) { [weak self] _ in
                self?.windowEnded()
                return Disposables.create()
            }, generation: generation)
        case .error:
            lock.lock()
            lastUnsent = nil
            enqueueLocked(event)
            unlockAndDeliver()
        case .completed:
            lock.lock()
            if lastUnsent != nil {
                completedWhileWaiting = true
                lock.unlock()
                return
            }
            enqueueLocked(.completed)
            unlockAndDeliver()
        }
    }

    private func windowEnded() {
        let now = scheduler.now
        lock.lock()
        if let element = lastUnsent {
            lastUnsent = nil
            lastSentTime = now
            enqueueLocked(.next(element))
        }
        if completedWhileWaiting {
            enqueueLocked(.completed)
        }
        unlockAndDeliver()
    }

    override func disposeCore() {
        timer.dispose()
    }
}
