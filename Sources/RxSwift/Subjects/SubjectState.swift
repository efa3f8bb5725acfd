/// What every subject keeps under its lock: its observers (a `FanOut`) and how it
/// ended. The subject adds its own value (the current element, the replay buffer, the
/// last element) and takes the lock around each call.
struct SubjectState<Element>: ~Copyable {
    var observers = FanOut()
    /// A terminal event went through (`stoppedEvent` holds it until `dispose()`), kept
    /// apart: testing the optional event costs a generic metadata lookup on every event.
    private(set) var stopped = false
    private(set) var disposed = false
    private(set) var stoppedEvent: Event<Element>?

    init() {}

    /// Whether events are still passed on: no terminal event yet, not disposed.
    var isOpen: Bool { !(stopped || disposed) }

    /// Records a terminal event; returns the observers to pass it to after unlocking,
    /// or `nil` when the subject had already ended or was disposed.
    mutating func stop(_ event: Event<Element>) -> ContiguousArray<DirectObserver>? {
        guard isOpen else { return nil }
        stoppedEvent = event
        stopped = true
        return observers.removeAll()
    }

    /// Ends the subject for good; returns the observers it drops, to release after
    /// unlocking. Later observers receive `RxError.disposed`.
    mutating func dispose() -> ContiguousArray<DirectObserver> {
        disposed = true
        stoppedEvent = nil
        stopped = false
        return observers.removeAll()
    }

    /// The event a new observer receives at once instead of joining: `RxError.disposed`
    /// after `dispose()`, else the terminal event; `nil` while the subject is open.
    func refusal(by subject: AnyObject) -> Event<Element>? {
        if disposed { return .error(RxError.disposed(object: subject)) }
        return stoppedEvent
    }

    /// Adds `observer` through its direct path, or an open `ReplayGate` around it when it
    /// has none; returns its key and what to release after unlocking.
    mutating func join<Observer: ObserverType>(_ observer: Observer) -> (key: BagKey, released: [DirectObserver]) where Observer.Element == Element {
        observers.insert(directPath(of: observer) ?? ReplayGate(observer, replaying: false))
    }
}
