/// A non-recursive lock stored in the object that owns it, for state touched on every
/// event: the platform's `LockCell` (Platform.swift), with the schedule explorer's
/// synchronization points and the concurrency mutants around it (`Interleaving`,
/// `Mutation`).
///
/// It must be unlocked by the thread that locked it. Same rules as `Lock` for what
/// may run while it is held.
package struct InlineLock: ~Copyable {
    private let cell = LockCell()

    @inline(__always)
    package init() {}

    /// The lock's address, which names it to a schedule explorer.
    @inline(__always)
    package var identity: UnsafeRawPointer {
        cell.identity
    }

    /// Takes the lock; `site` names the call, `owner` the type of what it guards.
    @inline(__always)
    package func lock(at site: SyncSite, owner: Any.Type) {
        #if DEBUG
        if Mutation.skipsLock(cell.identity, at: site) { return }
        #endif
        Interleaving.willAcquire(cell.identity, at: site, owner: owner, release: LockCell.release)
        cell.lock()
        noteLockTaken()
    }

    /// Releases the lock taken by `lock(at:owner:)`; `site` names the call.
    @inline(__always)
    package func unlock(at site: SyncSite) {
        #if DEBUG
        if Mutation.skipsUnlock(cell.identity, at: site) { return }
        #endif
        noteLockReleasing()
        cell.unlock()
        Interleaving.didRelease(cell.identity, at: site)
    }
}

/// An atomic `Int` owned by one object: the platform's `AtomicWord` (Platform.swift),
/// with the schedule explorer's synchronization points and the concurrency mutants
/// around its acquiring and read-modify-write operations. Each operation takes the
/// caller's place as default arguments (`SyncSite`).
package struct InlineAtomicInt: ~Copyable {
    private let word: AtomicWord

    @inline(__always)
    package init(_ initial: Int) {
        word = AtomicWord(initial)
    }

    @inline(__always)
    package func load(fileID: StaticString = #fileID, line: UInt = #line) -> Int {
        let word = word.reference
        Interleaving.atomicStep("atomic load", at: SyncSite(fileID, line), word: word.identity, .acquiring)
        return word.loadAcquiring()
    }

    @inline(__always)
    package func loadRelaxed() -> Int {
        word.reference.loadRelaxed()
    }

    @inline(__always)
    package func storeRelaxed(_ newValue: Int) {
        word.reference.storeRelaxed(newValue)
    }

    /// Stores `newValue`, publishing what the thread did before (a releasing store).
    @inline(__always)
    package func store(_ newValue: Int, fileID: StaticString = #fileID, line: UInt = #line) {
        let word = word.reference
        Interleaving.atomicStep("atomic store", at: SyncSite(fileID, line), word: word.identity, .releasing)
        word.storeReleasing(newValue)
    }

    /// Sets `bits`; returns the value before.
    @inline(__always)
    package func fetchOr(_ bits: Int, fileID: StaticString = #fileID, line: UInt = #line) -> Int {
        let word = word.reference
        return atomicUpdate("atomic fetch-or", at: SyncSite(fileID, line), word, word.fetchOr(bits)) { before in
            (stored: before | bits, returned: before)
        }
    }

    /// Adds `delta`; returns the value after.
    @inline(__always)
    package func add(_ delta: Int, fileID: StaticString = #fileID, line: UInt = #line) -> Int {
        reference.add(delta, fileID: fileID, line: line)
    }

    /// This counter, for an operation after the borrow that reached it ended: valid
    /// while the object whose storage holds it lives. A delivery that started under its
    /// owner's lock ends through it after unlocking (`DeliveryWalk.end()`), touching the
    /// count and nothing else of the locked state.
    @inline(__always)
    package var reference: Reference {
        Reference(word: word.reference)
    }

    /// An `InlineAtomicInt` reached without borrowing what stores it.
    package struct Reference {
        fileprivate let word: AtomicWordReference

        /// Adds `delta`; returns the value after.
        @inline(__always)
        package func add(_ delta: Int, fileID: StaticString = #fileID, line: UInt = #line) -> Int {
            atomicUpdate("atomic add", at: SyncSite(fileID, line), word, word.add(delta)) { before in
                (stored: before &+ delta, returned: before &+ delta)
            }
        }
    }
}

/// A read-modify-write of `word` at `site`: `atomic()`, or, under a `splitAtomic` mutant,
/// a load, a step where another thread may go, and a store of what `split` computes from
/// the value loaded.
@inline(__always)
private func atomicUpdate(
    _ what: StaticString,
    at site: SyncSite,
    _ word: AtomicWordReference,
    _ atomic: @autoclosure () -> Int,
    split: (Int) -> (stored: Int, returned: Int)
) -> Int {
    #if DEBUG
    if Mutation.applies(.splitAtomic, at: site) {
        Interleaving.atomicStep("a mutant's atomic update: its load", at: site, word: word.identity, .acquiring)
        let before = word.loadAcquiring()
        Interleaving.atomicStep("a mutant's atomic update: its store", at: site, word: word.identity, .releasing)
        let (stored, returned) = split(before)
        word.storeReleasing(stored)
        return returned
    }
    #endif
    Interleaving.atomicStep(what, at: site, word: word.identity, .acquiringAndReleasing)
    return atomic()
}
