#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

#if canImport(Darwin)
package typealias LockPrimitive = os_unfair_lock
#else
package typealias LockPrimitive = pthread_mutex_t
#endif

/// The one lock type of Rivulet: a non-recursive mutex whose storage lives in the
/// same allocation as the object (a tail-allocated `ManagedBuffer`).
///
/// Never call out to an observer, a user closure, `dispose` or `subscribe` while
/// holding it unless the Rx grammar needs the serialisation; such places are marked
/// `// CALLOUT UNDER LOCK:` with the reason.
package final class Lock: ManagedBuffer<Void, LockPrimitive> {
    /// Creates a new unlocked lock.
    package static func make() -> Lock {
        let buffer = Lock.create(minimumCapacity: 1) { _ in () }
        let lock = unsafeDowncast(buffer, to: Lock.self)
        lock.withUnsafeMutablePointerToElements { pointer in
            #if canImport(Darwin)
            pointer.initialize(to: os_unfair_lock())
            #else
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_NORMAL))
            let result = pthread_mutex_init(pointer, &attributes)
            pthread_mutexattr_destroy(&attributes)
            precondition(result == 0, "Rivulet: pthread_mutex_init failed with \(result)")
            #endif
        }
        return lock
    }

    deinit {
        withUnsafeMutablePointerToElements { pointer in
            #if !canImport(Darwin)
            _ = pthread_mutex_destroy(pointer)
            #endif
            _ = pointer.deinitialize(count: 1)
        }
    }

    @inline(__always)
    package func lock() {
        withUnsafeMutablePointerToElements { pointer in
            #if canImport(Darwin)
            os_unfair_lock_lock(pointer)
            #else
            _ = pthread_mutex_lock(pointer)
            #endif
        }
        noteLockTaken()
    }

    @inline(__always)
    package func unlock() {
        noteLockReleasing()
        withUnsafeMutablePointerToElements { pointer in
            #if canImport(Darwin)
            os_unfair_lock_unlock(pointer)
            #else
            _ = pthread_mutex_unlock(pointer)
            #endif
        }
    }

    @inline(__always)
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

#if os(Linux) || os(Android)
import Synchronization

/// A non-recursive lock stored inline in the object that owns it, for state touched
/// on every event: the standard library's `Mutex`, whose uncontended lock and unlock
/// are one compare-and-swap each (a contended one waits in the kernel, with priority
/// inheritance), where `Lock`'s `pthread_mutex_t` costs a call into the C library and
/// its bookkeeping each time.
///
/// It must be unlocked by the thread that locked it. Same rules as `Lock` for what
/// may run while it is held.
package struct InlineLock: ~Copyable {
    private let mutex = Mutex<Void>(())

    @inline(__always)
    package init() {}

    @inline(__always)
    package func lock() {
        mutex._unsafeLock()
        noteLockTaken()
    }

    @inline(__always)
    package func unlock() {
        noteLockReleasing()
        mutex._unsafeUnlock()
    }

    @inline(__always)
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
#else
/// A non-recursive lock owned by one object, for state touched on every event. Where
/// the standard library's `Mutex` needs a newer system than Rivulet supports, a `Lock`.
package struct InlineLock: ~Copyable {
    private let storage = Lock.make()

    @inline(__always)
    package init() {}

    @inline(__always)
    package func lock() {
        storage.lock()
    }

    @inline(__always)
    package func unlock() {
        storage.unlock()
    }

    @inline(__always)
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try storage.withLock(body)
    }
}
#endif

/// Counts a Rivulet lock as held by the calling thread (debug builds; see
/// `LockDiagnostics`).
@inline(__always)
private func noteLockTaken() {
    #if DEBUG
    LockDiagnostics.adjustHeldByCurrentThread(by: 1)
    #endif
}

/// Counts a Rivulet lock as no longer held by the calling thread (debug builds).
@inline(__always)
private func noteLockReleasing() {
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

/// A value guarded by its own lock.
package final class LockedValue<Value>: @unchecked Sendable {
    private let lock = Lock.make()
    // Guarded by `lock`: no dynamic exclusivity checks needed.
    @exclusivity(unchecked) private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    @inline(__always)
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    package var current: Value {
        lock.withLock { value }
    }
}

/// Carries a value across an isolation boundary where Rivulet itself guarantees
/// the access is safe (the Rx grammar serialises events; disposables are thread-safe).
package struct UnsafeTransfer<Value>: @unchecked Sendable {
    package var value: Value
    @inline(__always)
    package init(_ value: Value) {
        self.value = value
    }
}
