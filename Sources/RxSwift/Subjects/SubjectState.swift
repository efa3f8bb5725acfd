/// What every subject keeps under its lock: its observers (a `FanOut`) and how it
/// ended. The subject adds its own value (the current element, the replay buffer, the
/// last element); `LockedSubject` takes the subject's lock around each transition.
///
/// Not generic: in a subject's unspecialised code, reaching a field of a generic struct
/// looks up the struct's metadata, which the per-event path must not pay.
struct SubjectState: ~Copyable {
    var observers = FanOut()
    /// A terminal event went through (until `dispose()`): completion, or `stoppedError`.
    private(set) var stopped = false
    private(set) var disposed = false
    private var stoppedError: Swift.Error?

    init() {}

    /// Whether events are still passed on: no terminal event yet, not disposed.
    var isOpen: Bool { !(stopped || disposed) }

    /// Records a terminal event (an error when `error` is set, else completion);
    /// returns the observers to pass it to after unlocking, or `nil` when the subject
    /// had already ended or was disposed.
    mutating func stop(error: Swift.Error?) -> ContiguousArray<ObserverBase>? {
        guard isOpen else { return nil }
        stopped = true
        stoppedError = error
        return observers.removeAll()
    }

    /// Ends the subject for good; returns the observers it drops, to release after
    /// unlocking. Later observers receive `RxError.disposed`.
    mutating func dispose() -> ContiguousArray<ObserverBase> {
        disposed = true
        stopped = false
        stoppedError = nil
        return observers.removeAll()
    }

    /// The event a new observer receives at once instead of joining: `RxError.disposed`
    /// after `dispose()`, else the terminal event; `nil` while the subject is open.
    /// Subscriptions test `isOpen` first: building the optional event looks up its
    /// generic metadata.
    func refusal<Element>(by subject: AnyObject) -> Event<Element>? {
        if let error = failure(of: subject) { return .error(error) }
        return stopped ? .completed : nil
    }

    /// The error that ended the subject: `RxError.disposed` after `dispose()`.
    func failure(of subject: AnyObject) -> Swift.Error? {
        disposed ? RxError.disposed(object: subject) : stoppedError
    }

    /// Adds `observer` through its direct path, or an open `ReplayGate` around it when it
    /// has none; returns its key and what to release after unlocking.
    mutating func join<Observer: ObserverType>(_ observer: Observer) -> (key: BagKey, released: [ObserverBase]) {
        observers.insert(directPath(of: observer) ?? ReplayGate(observer, replaying: false))
    }
}
