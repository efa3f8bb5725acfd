/// A subject whose observers and ending are a `SubjectState` guarded by its own lock
/// (`LockedSubjectState`).
///
/// Every subject does each job in the same three steps: take the lock, run a transition
/// on the state (which returns what to do next), unlock, then do it: deliver, replay,
/// or release what the transition removed. The steps are written once, here; for the
/// parts that differ a subject passes the closures that read or change its own value
/// under the lock (the current element, the replay buffer, the last element) and act on
/// it after unlocking.
///
/// The hot methods are `@inline(__always)`, so each subject compiles them into its own
/// methods, as if it had written them out.
protocol LockedSubject: SubjectObserverRemoving {
    associatedtype Element

    /// The subject's observers and ending, with the lock that guards them and the
    /// subject's own value.
    var lockedState: LockedSubjectState { get }
}

/// A subject's `SubjectState` and the lock that guards it, in one object: the state is
/// reachable only inside `withLock` (and for `endDelivery()`, which is atomic).
///
/// `SubjectState` cannot live in a `LockedState`: it is `~Copyable` (its `FanOut` owns
/// the delivery list and counter), and `LockedState` hands out copies (`current`).
final class LockedSubjectState: @unchecked Sendable {
    private let lock = InlineLock()
    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per event).
    @exclusivity(unchecked)
    private var state = SubjectState()

    init() {}

    /// Runs `transition` on the state with the lock held; returns what the transition
    /// returns, to act on after unlocking.
    @inline(__always)
    func withLock<Action>(_ transition: (inout SubjectState) -> Action) -> Action {
        lock.lock()
        defer { lock.unlock() }
        return transition(&state)
    }

    /// Ends a delivery started in a transition (`FanOut.beginDelivery()`); the count of
    /// deliveries is atomic, so this takes no lock.
    @inline(__always)
    func endDelivery() {
        state.observers.endDelivery()
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
        observers?.passTerminal(error)
    }

    /// Ends the subject for good and drops its observers; `drop` runs under the lock
    /// and returns the subject's own values to release after unlocking.
    @inline(__always)
    func disposeObservers<Dropped>(dropping drop: () -> Dropped) -> Dropped {
        let (observers, dropped) = lockedState.withLock { state in (state.dispose(), drop()) }
        withExtendedLifetime(observers) {}
        return dropped
    }

}

extension LockedSubject where Self: FanOutSubject {
    /// While the subject is open: runs `keep` under the lock (the subject records the
    /// element), starts a delivery, and after unlocking hands it to `deliver`, then ends
    /// it. Does nothing once the subject has ended.
    @inline(__always)
    func fanOut(keeping keep: () -> Void, deliver: (FanOutDelivery) -> Void) {
        let delivery = lockedState.withLock { state -> FanOutDelivery? in
            guard state.isOpen else { return nil }
            keep()
            return state.observers.beginDelivery()
        }
        guard let delivery else { return }
        deliver(delivery)
        lockedState.endDelivery()
    }
}

extension LockedSubject {

    /// Subscribes an observer: under the lock, an ended subject takes its `backlog`
    /// (what the observer receives before the refusal, e.g. the replay buffer) and an
    /// open one lets `join` add the observer (its key and what to release, and the
    /// `opening` to run once unlocked). After unlocking, `refuse` sends the backlog and
    /// the refusal, or `open` runs the opening.
    @inline(__always)
    func admit<Backlog, Opening>(
        backlog: () -> Backlog,
        refuse: (Backlog, Event<Element>) -> Void,
        join: (inout SubjectState) -> (joined: (key: BagKey, released: [ObserverBase]), opening: Opening),
        open: (Opening) -> Void
    ) -> Disposable {
        let admission = lockedState.withLock { state -> SubjectAdmission<Element, Backlog, Opening> in
            if !state.isOpen, let refusal: Event<Element> = state.refusal(by: self) {
                return .refused(refusal, backlog: backlog())
            }
            let (joined, opening) = join(&state)
            return .joined(key: joined.key, released: joined.released, opening: opening)
        }
        switch admission {
        case let .refused(refusal, backlog):
            refuse(backlog, refusal)
            return Disposables.create()
        case let .joined(key, released, opening):
            withExtendedLifetime(released) {}
            open(opening)
            return SubjectSubscription(owner: self, key: key)
        }
    }
}
