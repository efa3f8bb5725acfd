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
    /// Shared with its scheduled events, which must not keep the observable (and
    /// through it the scheduler) alive.
    private let observers = TestKitHooks.ObserverList<Element>()

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
        let script = ScriptedEvents(events) { [observers] event in observers.send(event) }
        scheduler.scheduleScriptedSteps(at: times, perform: script.send)
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

/// A hot observable's events and what sends one, generic over the event type itself:
/// reading an event of an array of `Event<Element>` in code generic over the element
/// looked up the metadata of `Event<Element>` on every event (callgrind, the
/// TestScheduler row); here the event type comes with the object.
private final class ScriptedEvents<RecordedEvent> {
    private let events: ContiguousArray<RecordedEvent>
    private let sendEvent: (RecordedEvent) -> Void

    init(_ events: ContiguousArray<RecordedEvent>, send: @escaping (RecordedEvent) -> Void) {
        self.events = events
        self.sendEvent = send
    }

    /// Sends the event at `index`.
    func send(_ index: Int) {
        sendEvent(events[index])
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
    /// The events as they arrive, with their times: a log of `Event<Element>` values,
    /// whose per-event code runs generic over the event type itself, which it reads
    /// from the log object (a log of `Element`s looked up the metadata of
    /// `Event<Element>` and of its array on every event: callgrind, the TestScheduler
    /// row).
    private let arrivals = TestKitHooks.TimedEventLog<Event<Element>>()
    /// The events read so far, as `Recorded` values: a read moves the arrivals here,
    /// under this lock, so that two reads keep the order.
    private let recorded = LockedState<[Recorded<Event<Element>>]>([])

    package init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// Seconds per tick of its scheduler, for the test kit's marble expectations.
    package var secondsPerTick: Double {
        scheduler.secondsPerTick
    }

    /// The events received so far.
    public var events: [Recorded<Event<Element>>] {
        recorded.withLock { recorded in
            let (times, events) = arrivals.takeAll()
            recorded.reserveCapacity(recorded.count + times.count)
            for index in times.indices {
                recorded.append(Recorded(time: times[index], value: events[index]))
            }
            return recorded
        }
    }

    public func on(_ event: Event<Element>) {
        arrivals.append(event, at: scheduler.clock)
    }
}
