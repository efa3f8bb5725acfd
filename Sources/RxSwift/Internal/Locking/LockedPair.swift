/// Two pieces of state and the lock that guards them, in one object, for an owner whose
/// locked state depends on its generic parameters: a subject's state and its current
/// element, a virtual-time scheduler's queue and its clock. Both are reachable only
/// inside `withLock`.
///
/// `LockedState<State>` does the same job for state of a type the owner knows: with a
/// generic state, its storage's metadata would be looked up on every `withLock`
/// (callgrind: the `TestScheduler` row +37%). Here the state and the value are fields
/// of this generic class, whose offsets come from the object itself: no metadata is
/// looked up. Keep `State` a type that does not depend on the owner's generic
/// parameters (or whose layout does not: references, raw pointers) and put the rest
/// in `Value`. `State` may be `~Copyable` (a `FanOut`). The lock is an `InlineLock`, in
/// place.
///
/// `withLock` is inlined only inside RxSwift: a `package` method is not inlined across
/// modules, so another module's per-event path calls a method of an RxSwift type
/// that holds the pair (`TestKitLists.swift`) rather than `withLock` itself.
package final class LockedPair<State: ~Copyable, Value>: @unchecked Sendable {
    private let lock = InlineLock()
    // Reached only with `lock` held, so the dynamic exclusivity checks are left out
    // rather than paid on every event.
    @exclusivity(unchecked)
    private var state: State
    @exclusivity(unchecked)
    private var value: Value
    /// Called once the owner is gone, with the state and value (a buffer frees its
    /// storage).
    private let release: (inout State, inout Value) -> Void

    package init(_ state: consuming State, _ value: Value, release: @escaping (inout State, inout Value) -> Void = { _, _ in }) {
        self.state = state
        self.value = value
        self.release = release
    }

    deinit {
        Interleaving.forget(lock: lock.identity)
        withFields(release)
    }

    /// Runs `body` on the state and the value, the fields' own storage.
    ///
    /// Under the `ThreadSanitizer` trait a field of an empty type (the `Void` state of a
    /// `LockedPair((), value)`, the `Void` value of a `PublishSubject`) is passed as a
    /// slot of its own: the sanitizer records an inout access to an empty stored field at
    /// the object's own address, the word holding its type, which every method of this
    /// generic class reads before it takes the lock, so each such access would be
    /// reported as a race with no shared memory behind it.
    @inline(__always)
    private func withFields<Result>(_ body: (inout State, inout Value) -> Result) -> Result {
        #if ThreadSanitizer
        withStateAddress { state in withValueAddress { value in body(&state.pointee, &value.pointee) } }
        #else
        body(&state, &value)
        #endif
    }

    /// `withFields` for the state alone.
    @inline(__always)
    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        #if ThreadSanitizer
        withStateAddress { state in body(&state.pointee) }
        #else
        body(&state)
        #endif
    }

    #if ThreadSanitizer
    private func withStateAddress<Result>(_ body: (UnsafeMutablePointer<State>) -> Result) -> Result {
        MemoryLayout<State>.size == 0 ? withEmptySlot(of: State.self, body) : withUnsafeMutablePointer(to: &state, body)
    }

    private func withValueAddress<Result>(_ body: (UnsafeMutablePointer<Value>) -> Result) -> Result {
        MemoryLayout<Value>.size == 0 ? withEmptySlot(of: Value.self, body) : withUnsafeMutablePointer(to: &value, body)
    }
    #endif

    /// Runs `transition` on the state and the value with the lock held; returns what
    /// the transition returns, to act on after unlocking. `fileID` and `line` name the
    /// call (`SyncSite`).
    @inline(__always)
    package func withLock<Action>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transition: (inout State, inout Value) -> Action
    ) -> Action {
        let site = SyncSite(fileID, line)
        lock.lock(at: site, owner: Self.self)
        let action = withFields(transition)
        lock.unlock(at: site)
        return action
    }

    /// `withLock` for a transition that needs only the state.
    @inline(__always)
    package func withLock<Action>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transition: (inout State) -> Action
    ) -> Action {
        let site = SyncSite(fileID, line)
        lock.lock(at: site, owner: Self.self)
        let action = withState(transition)
        lock.unlock(at: site)
        return action
    }

    /// Runs `delivery`, which a transition started and which calls out to observers
    /// after unlocking. It marks the place for the `callout` mutant (`Mutation`), which
    /// runs the delivery with the lock held again, as if the critical section reached
    /// over it; otherwise it is `delivery()`.
    @inline(__always)
    package func afterUnlocking<Result>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ delivery: () -> Result
    ) -> Result {
        #if DEBUG
        let site = SyncSite(fileID, line)
        if Mutation.applies(.callout, at: site) {
            lock.lock(at: site, owner: Self.self)
            defer { lock.unlock(at: site) }
            return delivery()
        }
        #endif
        return delivery()
    }
}

/// No children: the state may be `~Copyable`, and a reflection that copied it (a failed
/// test expectation describing a subject) would stop the process. Its fields are
/// reachable only under the lock anyway.
extension LockedPair: CustomReflectable where State: ~Copyable {
    package var customMirror: Mirror {
        Mirror(self, children: [])
    }
}

#if ThreadSanitizer
/// A slot for a value of an empty type on the stack (`LockedPair.withFields`): such a
/// type has no bits to initialize, and only trivial ones (`Void`) are stored empty.
private func withEmptySlot<T: ~Copyable, Result>(of type: T.Type, _ body: (UnsafeMutablePointer<T>) -> Result) -> Result {
    precondition(MemoryLayout<T>.size == 0 && _isPOD(type), "Rivulet: LockedPair's slot is for an empty trivial type")
    return withUnsafeTemporaryAllocation(of: type, capacity: 1) { body($0.baseAddress.unsafelyUnwrapped) }
}
#endif
