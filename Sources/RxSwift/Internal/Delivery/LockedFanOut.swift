/// The state of a source that sends each event to many observers (a subject's
/// `SubjectState`, a share's `LiveConnection`): it holds their `FanOut`, whose
/// deliveries end after unlocking.
protocol FanOutState: ~Copyable {
    /// Ends a delivery started under the lock; takes no lock (the count is atomic).
    func endDelivery()
}

/// A `FanOutState` and the owner's own `Value` (a subject's current element or replay
/// buffer), with the lock that guards them, in one object: both are reachable only
/// inside `withLock`, so "changed under the lock" is checked by the compiler. The one
/// exception is `endDelivery()`, which touches only the atomic delivery count.
///
/// An object of its own rather than a `LockedState`: the state is `~Copyable` (its
/// `FanOut` owns the delivery list and counter), `LockedState` hands out copies
/// (`current`), and a delivery must end without the lock. The state and the value are
/// two fields of this generic class, whose offsets the owner reads from the object
/// itself; as one generic struct, reaching the value would look up that struct's
/// metadata on every event (`BehaviorSubject`, row 10). `withLock` is inlined, so each
/// owner compiles it for its own state.
final class LockedFanOut<State: FanOutState & ~Copyable, Value>: @unchecked Sendable {
    private let lock = InlineLock()
    // Reached only with `lock` held (below), so the dynamic exclusivity checks are
    // left out rather than paid on every event.
    @exclusivity(unchecked)
    private var state: State
    @exclusivity(unchecked)
    private var value: Value
    /// Called once the owner is gone, with the state and value (a buffer frees its
    /// storage).
    private let release: (inout State, inout Value) -> Void

    init(_ state: consuming State, _ value: Value, release: @escaping (inout State, inout Value) -> Void = { _, _ in }) {
        self.state = state
        self.value = value
        self.release = release
    }

    deinit {
        release(&state, &value)
    }

    /// Runs `transition` on the state and the value with the lock held; returns what
    /// the transition returns, to act on after unlocking.
    @inline(__always)
    func withLock<Action>(_ transition: (inout State, inout Value) -> Action) -> Action {
        lock.lock()
        defer { lock.unlock() }
        return transition(&state, &value)
    }

    /// `withLock` for a transition that needs only the state.
    @inline(__always)
    func withLock<Action>(_ transition: (inout State) -> Action) -> Action {
        lock.lock()
        defer { lock.unlock() }
        return transition(&state)
    }

    /// Ends a delivery started in a transition (`FanOut.beginDelivery()`).
    @inline(__always)
    func endDelivery() {
        state.endDelivery()
    }
}

/// No children: the state is `~Copyable`, and a reflection that copied it (a failed
/// test expectation describing a subject) would stop the process. Its fields are
/// reachable only under the lock anyway.
extension LockedFanOut: CustomReflectable where State: ~Copyable {
    var customMirror: Mirror {
        Mirror(self, children: [])
    }
}
