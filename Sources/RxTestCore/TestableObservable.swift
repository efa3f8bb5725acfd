import RxSwift

/// An observable of a `TestScheduler` that emits recorded events and records its
/// subscriptions.
public class TestableObservable<Element>: ObservableType, @unchecked Sendable {
    /// The scheduler it runs on.
    public let testScheduler: TestScheduler
    /// The events it emits.
    public let recordedEvents: [Recorded<Event<Element>>]

    let lock = LockedValue<[Subscription]>([])

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
    private let observers = LockedValue(Bag<AnyObserver<Element>>(vacancy: AnyObserver { _ in }))

    override init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(scheduler: scheduler, recordedEvents: recordedEvents)
        for recorded in recordedEvents {
            scheduler.scheduleAt(recorded.time) { [observers] in
                let snapshot = observers.withLock { $0.elements }
                for observer in snapshot {
                    observer.on(recorded.value)
                }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let key = observers.withLock { $0.insert(AnyObserver(observer)) }
        let index = recordSubscription()
        let observers = self.observers
        return Disposables.create { [weak self] in
            observers.withLock { _ = $0.remove(key) }
            self?.recordUnsubscription(index)
        }
    }
}

final class ColdObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let index = recordSubscription()
        let scheduled = CompositeDisposable()
        for recorded in recordedEvents {
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
    /// The scheduler whose clock stamps the events.
    public let scheduler: TestScheduler
    private let recorded = LockedValue<[Recorded<Event<Element>>]>([])

    package init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// The events received so far.
    public var events: [Recorded<Event<Element>>] {
        recorded.current
    }

    public func on(_ event: Event<Element>) {
        let now = scheduler.clock
        recorded.withLock { $0.append(Recorded(time: now, value: event)) }
    }
}
