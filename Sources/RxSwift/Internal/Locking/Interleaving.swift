import Dispatch
import Foundation

/// The synchronization points of the library, as a schedule explorer sees them: a lock
/// about to be taken or just released, an atomic read-modify-write, and work handed to a
/// dispatch queue or an operation queue. RxTest's schedule explorer
/// (`exploreSchedules`) installs `InterleavingHooks` on the threads it runs and, at each
/// point, chooses which of its threads goes on.
///
/// Debug builds only. In a release build every function here is empty (or answers
/// `false`) and inlined away, so the locks, atomics and schedulers cost what they cost
/// without it. In a debug build a point costs one thread-specific read on a thread the
/// explorer does not run: every other thread, and tests running in parallel, go
/// straight through.
package enum Interleaving {
    /// Before a Rivulet lock is taken; `lock` names it (its address) until it is released.
    @inline(__always)
    static func willAcquire(_ lock: UnsafeRawPointer) {
        #if DEBUG
        InterleavingHooks.current?.willAcquire(lock)
        #endif
    }

    /// After a Rivulet lock was released.
    @inline(__always)
    static func didRelease(_ lock: UnsafeRawPointer) {
        #if DEBUG
        InterleavingHooks.current?.didRelease(lock)
        #endif
    }

    /// Before an atomic read-modify-write or acquiring read: another thread may go first.
    @inline(__always)
    static func atomicStep() {
        #if DEBUG
        InterleavingHooks.current?.atomicStep()
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
}

#if DEBUG
/// What a schedule explorer does at each synchronization point, for the threads it runs
/// (see `Interleaving`). The explorer makes one per run and installs it on each of its
/// threads with `install(on:)`.
package final class InterleavingHooks: @unchecked Sendable {
    /// Before a lock is taken: may switch to another thread, and returns once the lock is
    /// free for the caller.
    package let willAcquire: (UnsafeRawPointer) -> Void
    /// After a lock was released.
    package let didRelease: (UnsafeRawPointer) -> Void
    /// Before an atomic step.
    package let atomicStep: () -> Void
    /// Takes work for a queue (its identity, whether it is serial); returns whether it did.
    package let enqueue: (ObjectIdentifier, Bool, @escaping @Sendable () -> Void) -> Bool

    package init(
        willAcquire: @escaping (UnsafeRawPointer) -> Void,
        didRelease: @escaping (UnsafeRawPointer) -> Void,
        atomicStep: @escaping () -> Void,
        enqueue: @escaping (ObjectIdentifier, Bool, @escaping @Sendable () -> Void) -> Bool
    ) {
        self.willAcquire = willAcquire
        self.didRelease = didRelease
        self.atomicStep = atomicStep
        self.enqueue = enqueue
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
