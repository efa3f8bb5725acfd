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

    /// Runs `body` on the state with the lock held, and returns its result. `fileID` and
    /// `line` name the call (`SyncSite`).
    @inline(__always)
    package func withLock<Result>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ body: (inout State) throws -> Result
    ) rethrows -> Result {
        try storage.withLock(at: SyncSite(fileID, line), body)
    }

    /// Runs `delivery`, which calls out (to observers, to `dispose`) after a transition
    /// unlocked. It marks the place for the `callout` mutant (`Mutation`), which runs it
    /// with the lock held again, as if the critical section reached over it; otherwise
    /// it is `delivery()`.
    @inline(__always)
    package func afterUnlocking<Result>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ delivery: () throws -> Result
    ) rethrows -> Result {
        #if DEBUG
        if Mutation.applies(.callout, at: SyncSite(fileID, line)) {
            return try storage.withLock(at: SyncSite(fileID, line)) { _ in try delivery() }
        }
        #endif
        return try delivery()
    }

    /// A copy of the state, taken with the lock held.
    package var current: State {
        storage.withLock(at: SyncSite(#fileID, #line)) { $0 }
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
        withUnsafeMutablePointerToElements { word in
            Interleaving.forget(lock: word)
            LockWords.deinitialize(word)
        }
    }

    @inline(__always)
    func withLock<Result>(at site: SyncSite, _ body: (inout State) throws -> Result) rethrows -> Result {
        #if DEBUG
        if let mutated = try mutatedWithLock(at: site, body) { return mutated }
        #endif
        return try withUnsafeMutablePointers { state, word in
            try withWord(word, at: site) { try body(&state.pointee) }
        }
    }

    /// Runs `body` with `word` locked.
    @inline(__always)
    private func withWord<Result>(_ word: UnsafeMutablePointer<LockWord>, at site: SyncSite, _ body: () throws -> Result) rethrows -> Result {
        Interleaving.willAcquire(word, at: site, owner: State.self, release: LockWords.release)
        LockWords.lock(word)
        noteLockTaken()
        defer {
            noteLockReleasing()
            LockWords.unlock(word)
            Interleaving.didRelease(word, at: site)
        }
        return try body()
    }

    #if DEBUG
    /// The critical section as a mutant at `site` runs it (`Mutation`), or `nil` when no
    /// mutant of a lock is in force there. Either way the state is read, another thread
    /// may go, and the state computed from what was read is written back: without the
    /// lock (`unlocked`), or with the read and the write each under it (`split`).
    private func mutatedWithLock<Result>(at site: SyncSite, _ body: (inout State) throws -> Result) rethrows -> Result? {
        let locked: Bool
        if Mutation.applies(.unlocked, at: site) {
            locked = false
        } else if Mutation.applies(.split, at: site) {
            locked = true
        } else {
            return nil
        }
        return try withUnsafeMutablePointers { state, word in
            if !locked { Interleaving.access(word, at: site) }
            var copy = locked ? withWord(word, at: site) { state.pointee } : state.pointee
            Interleaving.atomicStep("a mutant's critical section, between its read and its write", at: site)
            let result = try body(&copy)
            if locked {
                withWord(word, at: site) { state.pointee = copy }
            } else {
                Interleaving.access(word, at: site)
                state.pointee = copy
            }
            return result
        }
    }
    #endif
}
