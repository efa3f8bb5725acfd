import RxSwift

/// An observable of a `TestScheduler` that emits recorded events and records its
/// subscriptions.
public class TestableObservable<Element>: ObservableType, @unchecked Sendable {
    /// The scheduler it runs on (not public, as in RxSwift, so that it shadows nothing a
    /// user's extension names).
    let testScheduler: TestScheduler
    /// The events it emits.
    public let recordedEvents: [Recorded<Event<Element>>]

    /// Seconds per tick of its scheduler, for the test kit's marble expectations.
    package var secondsPerTick: Double {
        testScheduler.secondsPerTick
    }

    let lock = LockedState<[Subscription]>([])

    /// The subscriptions made so far, with their disposal times.
    public var subscriptions: [Subscription] {
        lock.current
    }

    init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        self.testScheduler = scheduler
        self.recordedEvents = recordedEvents
    }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        fatalError("Rivulet: TestableObservable is abstract; use createHotObservable or createColdObservable.")
    }

    /// Records a subscription now; returns its index.
    func recordSubscription() -> Int {
        let now = testScheduler.clock
        return lock.withLock { subscriptions in
            subscriptions.append(Subscription(now))
            return subscriptions.count - 1
        }
    }

    /// Records the disposal of subscription `index` now.
    func recordUnsubscription(_ index: Int) {
        let now = testScheduler.clock
        lock.withLock { subscriptions in
            subscriptions[index] = Subscription(subscriptions[index].subscribe, now)
        }
    }
}

final class HotObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
    private let observers = HotObservers<Element>()

    override init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(scheduler: scheduler, recordedEvents: recordedEvents)
        // One scheduler entry walks the events in time order (each keeps the place in
        // the queue that scheduling it on its own would give it). The events are kept
        // apart from their times: reading a generic `Recorded` per event would cost a
        // metadata lookup.
        var times: [TestTime] = []
        var events: ContiguousArray<Event<Element>> = []
        times.reserveCapacity(recordedEvents.count)
        events.reserveCapacity(recordedEvents.count)
        // A plain loop: `map` with a key path allocates per element in generic code.
        for recorded in recordedEvents {
            times.append(recorded.time)
            events.append(recorded.value)
        }
        scheduler.scheduleScriptedSteps(at: times) { [events, observers] index in
            observers.deliver(events[index])
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let key = observers.insert(AnyObserver(observer))
        let index = recordSubscription()
        let observers = self.observers
        return Disposables.create { [weak self] in
            observers.remove(key)
            self?.recordUnsubscription(index)
        }
    }
}

/// The observers of a hot observable, shared with its scheduled events (which must not
/// keep the observable, and through it the scheduler, alive).
private final class HotObservers<Element>: @unchecked Sendable {
    /// The observers, as the value of a `LockedPair` (no state of a fixed type): its
    /// generic half costs no metadata lookup per event, as a `LockedState` would.
    private let observers = LockedPair((), Bag<AnyObserver<Element>>(vacancy: AnyObserver { _ in }))

    func insert(_ observer: AnyObserver<Element>) -> BagKey {
        observers.withLock { _, observers in observers.insert(observer) }
    }

    func remove(_ key: BagKey) {
        let removed = observers.withLock { _, observers in observers.remove(key) }
        _ = removed
    }

    /// Sends `event` to the observers subscribed now, in subscription order.
    func deliver(_ event: Event<Element>) {
        let snapshot = observers.withLock { _, observers in observers.elements }
        for observer in snapshot {
            observer.on(event)
        }
    }
}

/// A cold observable: each subscription plays a timeline relative to its own start.
/// Usually one timeline for all; `createColdObservable(attempts:)` gives each
/// subscription the next one, the last repeating for any after it.
final class ColdObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
    private let attempts: [[Recorded<Event<Element>>]]

    init(scheduler: TestScheduler, attempts: [[Recorded<Event<Element>>]]) {
        self.attempts = attempts
        super.init(scheduler: scheduler, recordedEvents: attempts.first ?? [])
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let index = recordSubscription()
        let events = attempts.isEmpty ? [] : attempts[min(index, attempts.count - 1)]
        let scheduled = CompositeDisposable()
        for recorded in events {
            scheduled.insert(testScheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { _ in
                observer.on(recorded.value)
                return Disposables.create()
            })
        }
        return Disposables.create { [weak self] in
            scheduled.dispose()
            self?.recordUnsubscription(index)
        }
    }
}

/// An observer that records each event with the virtual time it arrived at.
public final class TestableObserver<Element>: ObserverType, @unchecked Sendable {
    /// The scheduler whose clock stamps the events (not public, as in RxSwift: a user's
    /// extension may well use a `scheduler` of its own).
    let scheduler: TestScheduler
    /// What the observer received: the times of the events not yet read, as the state
    /// of a `LockedPair`, the events themselves as its value. Events arrive into
    /// `times` and `received`: appending to a list of generic `Recorded` values would
    /// cost generic metadata lookups on every event. A read moves them over to
    /// `recorded`.
    private struct Log {
        var received: ContiguousArray<Event<Element>> = []
        var recorded: [Recorded<Event<Element>>] = []

        mutating func recordedEvents(_ times: inout [TestTime]) -> [Recorded<Event<Element>>] {
            if !times.isEmpty {
                recorded.reserveCapacity(recorded.count + times.count)
                for index in times.indices {
                    recorded.append(Recorded(time: times[index], value: received[index]))
                }
                times.removeAll()
                received.removeAll()
            }
            return recorded
        }
    }

    private let log = LockedPair([TestTime](), Log())

    package init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// Seconds per tick of its scheduler, for the test kit's marble expectations.
    package var secondsPerTick: Double {
        scheduler.secondsPerTick
    }

    /// The events received so far.
    public var events: [Recorded<Event<Element>>] {
        log.withLock { times, log in log.recordedEvents(&times) }
    }

    public func on(_ event: Event<Element>) {
        let now = scheduler.clock
        log.withLock { times, log in
            times.append(now)
            log.received.append(event)
        }
    }
}
