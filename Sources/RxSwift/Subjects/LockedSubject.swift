/// A subject whose observers, ending and own value (the current element, the replay
/// buffer, the last element) sit in a `LockedPair`, behind its lock.
///
/// Every subject does each job in the same three steps: take the lock, run a transition
/// on the state (which returns what to do next), unlock, then do it: deliver, replay,
/// or release what the transition removed. The steps are written once, here; for the
/// parts that differ a subject passes the closures that read or change its own value
/// under the lock and act on it after unlocking.
///
/// The hot methods are `@inline(__always)`, so each subject compiles them into its own
/// methods, as if it had written them out.
protocol LockedSubject: SubjectObserverRemoving {
    associatedtype Element
    /// What the subject keeps beyond its observers (`Void` for one that keeps nothing).
    associatedtype Value

    /// The subject's observers, ending and value, with the lock that guards them.
    var lockedState: LockedPair<SubjectState, Value> { get }
}

extension LockedPair where State == SubjectState {
    /// A subject's observers and ending, and its `value`.
    convenience init(_ value: Value) {
        self.init(SubjectState(), value)
    }
}

extension LockedPair where State == SubjectState, Value == Void {
    /// A subject's observers and ending, for a subject that keeps no value.
    convenience init() {
        self.init(())
    }
}

/// What a subscription to a subject does after unlocking: send the refusal of an ended
/// subject (after its `backlog`), or, once the observer joined, release what the
/// insertion handed back and open the observer (`opening`: a replay, or nothing).
enum SubjectAdmission<Element, Backlog, Opening> {
    case refused(Event<Element>, backlog: Backlog)
    case joined(key: BagKey, released: [ObserverBase], opening: Opening)
}

extension LockedSubject {
    /// Whether the subject has observers now.
    var hasObserversNow: Bool {
        lockedState.withLock { !$0.observers.isEmpty }
    }

    /// Whether `dispose()` went through.
    var isDisposedNow: Bool {
        lockedState.withLock { $0.disposed }
    }

    func removeObserver(_ key: BagKey) {
        let removed = lockedState.withLock { $0.observers.remove(key) }
        withExtendedLifetime(removed) {}
    }

    /// Passes a terminal event to every observer, once: an error when `error` is set,
    /// else completion.
    func stop(error: Swift.Error?) {
        let observers = lockedState.withLock { $0.stop(error: error) }
        lockedState.afterUnlocking { observers?.passTerminal(error) }
    }

    /// Ends the subject for good and drops its observers; `drop` runs under the lock
    /// and returns what it takes from the subject's value, to release after unlocking.
    @inline(__always)
    func disposeObservers<Dropped>(dropping drop: (inout Value) -> Dropped) -> Dropped {
        let (observers, dropped) = lockedState.withLock { state, value in (state.dispose(), drop(&value)) }
        withExtendedLifetime(observers) {}
        return dropped
    }

}

extension LockedSubject where Self: FanOutSubject {
    /// While the subject is open: runs `keep` on its value under the lock (the subject
    /// records the element), starts a delivery, and after unlocking hands it to
    /// `deliver`, then ends it. Does nothing once the subject has ended.
    @inline(__always)
    func fanOut(keeping keep: (inout Value) -> Void, deliver: (FanOutDelivery) -> Void) {
        let delivery = lockedState.withLock { state, value -> FanOutDelivery? in
            guard state.isOpen else { return nil }
            keep(&value)
            return state.observers.beginDelivery()
        }
        guard let delivery else { return }
        lockedState.afterUnlocking { deliver(delivery) }
        delivery.walk.end()
    }
}

extension LockedSubject {

    /// Subscribes an observer: under the lock, an ended subject takes its `backlog`
    /// from its value (what the observer receives before the refusal, e.g. the replay
    /// buffer) and an open one lets `join` add the observer (its key and what to
    /// release, and the `opening` to run once unlocked). After unlocking, `refuse` sends
    /// the backlog and the refusal, or `open` runs the opening.
    @inline(__always)
    func admit<Backlog, Opening>(
        backlog: (Value) -> Backlog,
        refuse: (Backlog, Event<Element>) -> Void,
        join: (inout SubjectState, Value) -> (joined: (key: BagKey, released: [ObserverBase]), opening: Opening),
        open: (Opening) -> Void
    ) -> Disposable {
        let admission = lockedState.withLock { state, value -> SubjectAdmission<Element, Backlog, Opening> in
            if !state.isOpen, let refusal: Event<Element> = state.refusal(by: self) {
                return .refused(refusal, backlog: backlog(value))
            }
            let (joined, opening) = join(&state, value)
            return .joined(key: joined.key, released: joined.released, opening: opening)
        }
        switch admission {
        case let .refused(refusal, backlog):
            lockedState.afterUnlocking { refuse(backlog, refusal) }
            return Disposables.create()
        case let .joined(key, released, opening):
            withExtendedLifetime(released) {}
            lockedState.afterUnlocking { open(opening) }
            return SubjectSubscription(owner: self, key: key)
        }
    }
}
