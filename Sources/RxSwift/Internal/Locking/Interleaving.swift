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
    /// is released, `owner` is the type of what it guards, and `release` unlocks it given
    /// that address, for a thread the explorer ends while it holds the lock.
    @inline(__always)
    static func willAcquire(_ lock: UnsafeRawPointer, at site: SyncSite, owner: Any.Type, release: LockRelease) {
        #if DEBUG
        InterleavingHooks.current?.willAcquire(lock, site, owner, release)
        #endif
    }

    /// Unlocks the lock at an address, on the thread that holds it: how a thread that a
    /// schedule explorer ends (its run deadlocked or stalled) lets go of the locks it
    /// holds, so that no lock is left owned by a thread that no longer exists (the next
    /// thread that takes it would wait for good, on the futex or in a pthread mutex). A C
    /// function: a closure literal with no context, passed at no cost.
    package typealias LockRelease = @convention(c) (UnsafeRawPointer) -> Void

    /// After a Rivulet lock was released at `site`.
    @inline(__always)
    static func didRelease(_ lock: UnsafeRawPointer, at site: SyncSite) {
        #if DEBUG
        InterleavingHooks.current?.didRelease(lock, site)
        #endif
    }

    /// A point where another thread may go first, with no synchronization of its own (a
    /// mutant's step between a read and a write); `what` names it.
    @inline(__always)
    static func atomicStep(_ what: StaticString, at site: SyncSite) {
        #if DEBUG
        InterleavingHooks.current?.atomicStep(what, site, nil, .none)
        #endif
    }

    /// Before an operation on the atomic `word` at `site` (`what` names it), which orders
    /// memory as `ordering` says: another thread may go first. The explorer orders the
    /// threads' accesses by it (`access(_:at:)`).
    @inline(__always)
    static func atomicStep(_ what: StaticString, at site: SyncSite, word: @autoclosure () -> UnsafeRawPointer, _ ordering: AtomicOrdering) {
        #if DEBUG
        if let hooks = InterleavingHooks.current {
            hooks.atomicStep(what, site, word(), ordering)
        }
        #endif
    }

    /// Data guarded by a synchronization (`region`: the lock's or the guarded object's
    /// address) is accessed at `site` with no point of its own: the explorer reports a
    /// data race when an access by another thread is not ordered before it by the
    /// locks, atomics, queues and thread starts between them (happens-before). A
    /// critical section counts as such an access of its lock's data; so does a mutant's
    /// section run without the lock, and a once-flag's winner touching what the flag
    /// guards.
    @inline(__always)
    static func access(_ region: UnsafeRawPointer, at site: SyncSite) {
        #if DEBUG
        InterleavingHooks.current?.access(region, site)
        #endif
    }

    /// `access(_:at:)` for the data an object guards with a once-flag: the object's address.
    @inline(__always)
    static func access(_ object: AnyObject, at site: SyncSite) {
        #if DEBUG
        if let hooks = InterleavingHooks.current {
            hooks.access(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()), site)
        }
        #endif
    }

    /// The object whose data `access(_:at:)` named is going away: a later object at its
    /// address is another one.
    @inline(__always)
    static func forget(_ object: AnyObject) {
        #if DEBUG
        if let hooks = InterleavingHooks.current {
            hooks.forget(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()))
        }
        #endif
    }

    /// An object's `deinit` starts: it runs after every other thread's last use of the
    /// object, which their releases of it order (atomics of the Swift runtime's that the
    /// explorer does not see). The explorer orders the calling thread after everything
    /// every thread did so far: more than the releases order, so it may miss a race,
    /// never report one that cannot happen.
    @inline(__always)
    static func deinitializing() {
        #if DEBUG
        InterleavingHooks.current?.deinitializing()
        #endif
    }

    /// The lock at `lock` is going away: a later lock at its address is another one.
    @inline(__always)
    static func forget(lock: UnsafeRawPointer) {
        #if DEBUG
        InterleavingHooks.current?.forget(lock)
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

/// How an atomic operation orders memory, as the explorer's happens-before sees it.
package enum AtomicOrdering: Sendable {
    /// No synchronization (a step of a mutant, a relaxed operation).
    case none
    /// An acquiring read: what a releasing write before it published is seen.
    case acquiring
    /// A releasing write: publishes what the thread did before it.
    case releasing
    /// A read-modify-write that does both.
    case acquiringAndReleasing
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
    /// Before a lock is taken (the lock, where, the type of what it guards, how to
    /// unlock it): may switch to another thread, and returns once the lock is free for
    /// the caller.
    package let willAcquire: (UnsafeRawPointer, SyncSite, Any.Type, Interleaving.LockRelease) -> Void
    /// After a lock was released (the lock, where).
    package let didRelease: (UnsafeRawPointer, SyncSite) -> Void
    /// Before an atomic step (the operation, where, the atomic's address if it is one,
    /// how it orders memory).
    package let atomicStep: (StaticString, SyncSite, UnsafeRawPointer?, AtomicOrdering) -> Void
    /// An access of guarded data with no point of its own (the data's region, where).
    package let access: (UnsafeRawPointer, SyncSite) -> Void
    /// The object at an address whose data was accessed is going away.
    package let forget: (UnsafeRawPointer) -> Void
    /// An object's `deinit` starts on the calling thread (see `Interleaving.deinitializing()`).
    package let deinitializing: () -> Void
    /// Takes work for a queue (its identity, whether it is serial); returns whether it did.
    package let enqueue: (ObjectIdentifier, Bool, @escaping @Sendable () -> Void) -> Bool
    /// Takes a timer's callback for a queue (its identity, whether it is serial, the
    /// deadline in uptime nanoseconds); returns whether it did.
    package let enqueueTimer: (ObjectIdentifier, Bool, UInt64, @escaping @Sendable () -> Void) -> Bool
    /// The concurrency mutant in force on the threads these hooks are installed on
    /// (`Mutation`), if any; set before any of them runs.
    package var mutant: Mutation.Mutant?

    package init(
        willAcquire: @escaping (UnsafeRawPointer, SyncSite, Any.Type, Interleaving.LockRelease) -> Void,
        didRelease: @escaping (UnsafeRawPointer, SyncSite) -> Void,
        atomicStep: @escaping (StaticString, SyncSite, UnsafeRawPointer?, AtomicOrdering) -> Void,
        access: @escaping (UnsafeRawPointer, SyncSite) -> Void,
        forget: @escaping (UnsafeRawPointer) -> Void,
        deinitializing: @escaping () -> Void,
        enqueue: @escaping (ObjectIdentifier, Bool, @escaping @Sendable () -> Void) -> Bool,
        enqueueTimer: @escaping (ObjectIdentifier, Bool, UInt64, @escaping @Sendable () -> Void) -> Bool
    ) {
        self.willAcquire = willAcquire
        self.didRelease = didRelease
        self.atomicStep = atomicStep
        self.access = access
        self.forget = forget
        self.deinitializing = deinitializing
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
