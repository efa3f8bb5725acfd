/// State and the lock that guards it, in one allocation: the state is reachable only
/// inside `withLock`, so "guarded by the lock" is a fact the compiler checks, not a
/// comment.
///
/// A copy of a `LockedState` shares the same state and lock (it is a reference to one
/// object). The body of `withLock` runs with the lock held: it changes the state and
/// returns what the caller does next, after unlocking (an action, in the shape of a
/// state machine); it never calls an observer, a user closure, `dispose` or
/// `subscribe`, unless the Rx grammar needs the serialisation (then the call site is
/// marked `// CALLOUT UNDER LOCK:` with the reason).
///
/// It is `Sendable` whatever the state, as `Lock` is: the state is only touched under
/// the lock. What a body takes out of the state is the caller's to share safely.
package struct LockedState<State>: @unchecked Sendable {
    private let storage: LockedStateStorage<State>

    /// A new unlocked lock guarding `initial`.
    @inline(__always)
    package init(_ initial: State) {
        storage = LockedStateStorage.make(initial)
    }

    /// Runs `body` on the state with the lock held, and returns its result.
    @inline(__always)
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }

    /// A copy of the state, taken with the lock held.
    package var current: State {
        storage.withLock { $0 }
    }
}

/// The one allocation behind a `LockedState`: the state as the header, the lock word
/// as the single tail element.
private final class LockedStateStorage<State>: ManagedBuffer<State, LockWord> {
    @inline(__always)
    static func make(_ initial: State) -> LockedStateStorage<State> {
        let buffer = create(minimumCapacity: 1) { _ in initial }
        let storage = unsafeDowncast(buffer, to: LockedStateStorage<State>.self)
        storage.withUnsafeMutablePointerToElements(LockWords.initialize)
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements(LockWords.deinitialize)
    }

    @inline(__always)
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { state, word in
            Interleaving.willAcquire(word)
            LockWords.lock(word)
            noteLockTaken()
            defer {
                noteLockReleasing()
                LockWords.unlock(word)
                Interleaving.didRelease(word)
            }
            return try body(&state.pointee)
        }
    }
}
