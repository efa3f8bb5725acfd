import Dispatch
import Foundation

/// The synchronization points of the library, as a schedule explorer sees them: a lock
/// about to be taken or just released, an atomic read-modify-write, work handed to a
/// dispatch queue or an operation queue, and a timer armed on a dispatch queue. RxTest's schedule explorer
/// (`exploreSchedules`) installs `InterleavingHooks` on the threads it runs and, at each
/// point, chooses which of its threads goes on.
///
/// Debug builds only. In a release build every function here is empty (or answers
/// `false`) and inlined away, so the locks, atomics and schedulers cost what they cost
/// without it. In a debug build a point costs one thread-specific read on a thread the
/// explorer does not run: every other thread, and tests running in parallel, go
/// straight through.
package enum Interleaving {
    /// Before a Rivulet lock is taken at `site`; `lock` names it (its address) until it
    /// is released, and `owner` is the type of what it guards.
    @inline(__always)
    static func willAcquire(_ lock: UnsafeRawPointer, at site: SyncSite, owner: Any.Type) {
        #if DEBUG
        InterleavingHooks.current?.willAcquire(lock, site, owner)
        #endif
    }

    /// After a Rivulet lock was released at `site`.
    @inline(__always)
    static func didRelease(_ lock: UnsafeRawPointer, at site: SyncSite) {
        #if DEBUG
        InterleavingHooks.current?.didRelease(lock, site)
        #endif
    }

    /// Before an atomic read-modify-write or acquiring read at `site` (`what` names the
    /// operation): another thread may go first.
    @inline(__always)
    static func atomicStep(_ what: StaticString, at site: SyncSite) {
        #if DEBUG
        InterleavingHooks.current?.atomicStep(what, site)
        #endif
    }

    /// Hands `work`, meant for `queue`, to the explorer when the caller runs under one;
    /// returns whether it took it (otherwise the caller dispatches it as usual).
    /// `serial` says whether work of that queue runs one item at a time, in order.
    @inline(__always)
    static func takes(_ work: @escaping @Sendable () -> Void, queue: AnyObject, serial: @autoclosure () -> Bool) -> Bool {
        #if DEBUG
        if let hooks = InterleavingHooks.current {
            return hooks.enqueue(ObjectIdentifier(queue), serial(), work)
        }
        #endif
        return false
    }

    /// Whether the calling thread runs under a schedule explorer (always `false` in a
    /// release build).
    @inline(__always)
    static var isExploring: Bool {
        #if DEBUG
        return InterleavingHooks.current != nil
        #else
        return false
        #endif
    }

    /// Hands `work`, a timer's callback due at `deadline` on `queue`, to the explorer when
    /// the caller runs under one; returns whether it took it (otherwise the caller arms a
    /// real timer). The explorer runs it as a thread of its own, after the timers due
    /// before it, at a moment its strategy chooses: what counts is the order of the
    /// callback against the other threads, not the time.
    @inline(__always)
    static func takesTimer(_ work: @escaping @Sendable () -> Void, due deadline: DispatchTime, queue: AnyObject, serial: Bool) -> Bool {
        #if DEBUG
        if let hooks = InterleavingHooks.current {
            return hooks.enqueueTimer(ObjectIdentifier(queue), serial, deadline.uptimeNanoseconds, work)
        }
        #endif
        return false
    }
}

/// Where a synchronization point is in the source: the file (`#fileID`) and line of the
/// call that took a lock or stepped an atomic. The lock and atomic operations take it
/// as default arguments, so each call names its own place; a schedule explorer's trace
/// and a concurrency mutant (`Mutation`) name a point by it. A release build inlines the
/// operations and drops it.
package struct SyncSite: Sendable, CustomStringConvertible {
    package let fileID: StaticString
    package let line: UInt

    @inline(__always)
    package init(_ fileID: StaticString, _ line: UInt) {
        self.fileID = fileID
        self.line = line
    }

    /// `Module/File.swift:line`.
    package var description: String { "\(fileID):\(line)" }
}

#if DEBUG
/// What a schedule explorer does at each synchronization point, for the threads it runs
/// (see `Interleaving`). The explorer makes one per run and installs it on each of its
/// threads with `install(on:)`.
package final class InterleavingHooks: @unchecked Sendable {
    /// Before a lock is taken (the lock, where, the type of what it guards): may switch
    /// to another thread, and returns once the lock is free for the caller.
    package let willAcquire: (UnsafeRawPointer, SyncSite, Any.Type) -> Void
    /// After a lock was released (the lock, where).
    package let didRelease: (UnsafeRawPointer, SyncSite) -> Void
    /// Before an atomic step (the operation, where).
    package let atomicStep: (StaticString, SyncSite) -> Void
    /// Takes work for a queue (its identity, whether it is serial); returns whether it did.
    package let enqueue: (ObjectIdentifier, Bool, @escaping @Sendable () -> Void) -> Bool
    /// Takes a timer's callback for a queue (its identity, whether it is serial, the
    /// deadline in uptime nanoseconds); returns whether it did.
    package let enqueueTimer: (ObjectIdentifier, Bool, UInt64, @escaping @Sendable () -> Void) -> Bool

    package init(
        willAcquire: @escaping (UnsafeRawPointer, SyncSite, Any.Type) -> Void,
        didRelease: @escaping (UnsafeRawPointer, SyncSite) -> Void,
        atomicStep: @escaping (StaticString, SyncSite) -> Void,
        enqueue: @escaping (ObjectIdentifier, Bool, @escaping @Sendable () -> Void) -> Bool,
        enqueueTimer: @escaping (ObjectIdentifier, Bool, UInt64, @escaping @Sendable () -> Void) -> Bool
    ) {
        self.willAcquire = willAcquire
        self.didRelease = didRelease
        self.atomicStep = atomicStep
        self.enqueue = enqueue
        self.enqueueTimer = enqueueTimer
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key, nil)
        precondition(result == 0, "Rivulet: pthread_key_create failed with \(result)")
        return key
    }()

    /// The hooks installed on the calling thread, if any.
    @inline(__always)
    package static var current: InterleavingHooks? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<InterleavingHooks>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Installs `hooks` on the calling thread (`nil` removes them). The thread keeps them
    /// alive while installed.
    package static func install(_ hooks: InterleavingHooks?) {
        if let raw = pthread_getspecific(key) {
            Unmanaged<InterleavingHooks>.fromOpaque(raw).release()
        }
        let raw = hooks.map { Unmanaged.passRetained($0).toOpaque() }
        _ = pthread_setspecific(key, raw)
    }
}
#endif
