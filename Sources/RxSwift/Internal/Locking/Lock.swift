import Foundation

/// Rivulet's lock object: a non-recursive mutex whose word (`LockWord`, chosen in
/// `Platform.swift`) lives in the same allocation as the object (a tail-allocated
/// `ManagedBuffer`). Prefer `LockedState`, which also holds the state the lock guards;
/// a `Lock` is for an object whose fields the lock guards along with other work.
///
/// Never call out to an observer, a user closure, `dispose` or `subscribe` while
/// holding it unless the Rx grammar needs the serialisation; such places are marked
/// `// CALLOUT UNDER LOCK:` with the reason.
package final class Lock: ManagedBuffer<Void, LockWord> {
    /// Creates a new unlocked lock.
    package static func make() -> Lock {
        let buffer = Lock.create(minimumCapacity: 1) { _ in () }
        let lock = unsafeDowncast(buffer, to: Lock.self)
        lock.withUnsafeMutablePointerToElements(LockWords.initialize)
        return lock
    }

    deinit {
        Interleaving.forget(lock: identity)
        withUnsafeMutablePointerToElements(LockWords.deinitialize)
    }

    /// The lock word's address, which names the lock to a schedule explorer.
    @inline(__always)
    package var identity: UnsafeRawPointer {
        withUnsafeMutablePointerToElements { UnsafeRawPointer($0) }
    }

    /// Takes the lock; `fileID` and `line` name the call (`SyncSite`).
    @inline(__always)
    package func lock(fileID: StaticString = #fileID, line: UInt = #line) {
        let site = SyncSite(fileID, line)
        #if DEBUG
        if Mutation.skipsLock(identity, at: site) { return }
        #endif
        withUnsafeMutablePointerToElements { word in
            Interleaving.willAcquire(word, at: site, owner: Lock.self, release: LockWords.release)
            LockWords.lock(word)
        }
        noteLockTaken()
    }

    /// Releases the lock; `fileID` and `line` name the call (`SyncSite`).
    @inline(__always)
    package func unlock(fileID: StaticString = #fileID, line: UInt = #line) {
        let site = SyncSite(fileID, line)
        #if DEBUG
        if Mutation.skipsUnlock(identity, at: site) { return }
        #endif
        noteLockReleasing()
        withUnsafeMutablePointerToElements { word in
            LockWords.unlock(word)
            Interleaving.didRelease(word, at: site)
        }
    }

    @inline(__always)
    package func withLock<T>(fileID: StaticString = #fileID, line: UInt = #line, _ body: () throws -> T) rethrows -> T {
        lock(fileID: fileID, line: line)
        defer { unlock(fileID: fileID, line: line) }
        return try body()
    }
}

/// Counts a Rivulet lock as held by the calling thread (debug builds; see
/// `LockDiagnostics`).
@inline(__always)
func noteLockTaken() {
    #if DEBUG
    LockDiagnostics.adjustHeldByCurrentThread(by: 1)
    #endif
}

/// Counts a Rivulet lock as no longer held by the calling thread (debug builds).
@inline(__always)
func noteLockReleasing() {
    #if DEBUG
    LockDiagnostics.adjustHeldByCurrentThread(by: -1)
    #endif
}

#if DEBUG
/// Debug builds count the Rivulet locks each thread holds, so that tests can check that
/// observers and user closures are never called with one held (see `Lock`).
package enum LockDiagnostics {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key, nil)
        precondition(result == 0, "Rivulet: pthread_key_create failed with \(result)")
        return key
    }()

    /// How many Rivulet locks the calling thread holds right now.
    package static var heldByCurrentThread: Int {
        Int(bitPattern: pthread_getspecific(key))
    }

    @inline(__always)
    static func adjustHeldByCurrentThread(by delta: Int) {
        _ = pthread_setspecific(key, UnsafeRawPointer(bitPattern: heldByCurrentThread + delta))
    }
}
#endif

/// Carries a value across an isolation boundary where Rivulet itself guarantees
/// the access is safe (the Rx grammar serialises events; disposables are thread-safe).
package struct UnsafeTransfer<Value>: @unchecked Sendable {
    package var value: Value
    @inline(__always)
    package init(_ value: Value) {
        self.value = value
    }
}
