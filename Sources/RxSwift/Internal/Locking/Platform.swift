// Every platform choice Rivulet makes for locks, atomics and thread identity, with one
// split: Apple platforms (Darwin), where the standard library's `Synchronization`
// module needs macOS 15 / iOS 18, newer than Rivulet supports; and every other
// platform (Linux, Android, FreeBSD: Glibc or Musl), where it has no availability
// restriction. Nothing outside this file tests the platform for locking or atomics.
//
// | need                          | Darwin                          | elsewhere                  |
// | ----------------------------- | ------------------------------- | -------------------------- |
// | lock word (`LockWord`)        | `os_unfair_lock`                | `pthread_mutex_t`          |
// | lock stored in an object (`LockCell`) | `Lock` (one small allocation) | `Mutex`, in place  |
// | atomic `Int` in an object (`AtomicWord`) | swift-atomics `UnsafeAtomic` | `Synchronization.Atomic` |
// | global atomic (`GlobalAtomic`) | swift-atomics `ManagedAtomic`   | `Atomic`, set up statically |
// | main-thread check (`isOnMainThread`) | `Thread.isMainThread` | the main thread's number, kept atomically |
//
// Each half supplies raw operations only; what every platform does around them (the
// schedule explorer's synchronization points, the concurrency mutants) is written once,
// in `InlineLock`, `InlineAtomicInt`, `Lock` and `LockedState`.
//
// Both answer yes on the main queue too (`isOnMainQueue`): where the main thread has
// handed the main queue to a worker thread (`dispatchMain()`, as a test runner does on
// Linux), the main actor's jobs run there, and they are as serial as the main thread.

#if canImport(Darwin)
import Darwin
import Atomics
import Foundation

/// The word a `Lock` or a `LockedState` keeps in its tail allocation.
package typealias LockWord = os_unfair_lock

/// The operations on a `LockWord` in place.
package enum LockWords {
    @inline(__always)
    package static func initialize(_ word: UnsafeMutablePointer<LockWord>) {
        word.initialize(to: os_unfair_lock())
    }

    @inline(__always)
    package static func deinitialize(_ word: UnsafeMutablePointer<LockWord>) {
        word.deinitialize(count: 1)
    }

    @inline(__always)
    package static func lock(_ word: UnsafeMutablePointer<LockWord>) {
        os_unfair_lock_lock(word)
    }

    @inline(__always)
    package static func unlock(_ word: UnsafeMutablePointer<LockWord>) {
        os_unfair_lock_unlock(word)
    }
}

/// The lock behind an `InlineLock`: a `Lock` here (one small allocation), as the
/// standard library's `Mutex` needs a newer system. Raw operations: no synchronization
/// point, no mutant (`InlineLock` adds them).
package struct LockCell: ~Copyable {
    private let storage = Lock.make()

    @inline(__always)
    package init() {}

    /// The lock's address, which names it to a schedule explorer.
    @inline(__always)
    package var identity: UnsafeRawPointer {
        storage.identity
    }

    @inline(__always)
    package func lock() {
        storage.withUnsafeMutablePointerToElements(LockWords.lock)
    }

    @inline(__always)
    package func unlock() {
        storage.withUnsafeMutablePointerToElements(LockWords.unlock)
    }
}

/// The atomic `Int` behind an `InlineAtomicInt`: one small allocation (swift-atomics).
/// Raw operations: no synchronization point, no mutant.
package struct AtomicWord: ~Copyable {
    private let value: UnsafeAtomic<Int>

    @inline(__always)
    package init(_ initial: Int) {
        value = .create(initial)
    }

    deinit {
        value.destroy()
    }

    @inline(__always)
    package func loadAcquiring() -> Int {
        value.load(ordering: .acquiring)
    }

    @inline(__always)
    package func loadRelaxed() -> Int {
        value.load(ordering: .relaxed)
    }

    @inline(__always)
    package func storeRelaxed(_ newValue: Int) {
        value.store(newValue, ordering: .relaxed)
    }

    @inline(__always)
    package func storeReleasing(_ newValue: Int) {
        value.store(newValue, ordering: .releasing)
    }

    /// Sets `bits`; returns the value before.
    @inline(__always)
    package func fetchOr(_ bits: Int) -> Int {
        value.loadThenBitwiseOr(with: bits, ordering: .acquiringAndReleasing)
    }

    /// Adds `delta`; returns the value after.
    @inline(__always)
    package func add(_ delta: Int) -> Int {
        value.loadThenWrappingIncrement(by: delta, ordering: .acquiringAndReleasing) &+ delta
    }
}

/// A process-wide atomic for a global constant; every operation is relaxed.
package typealias GlobalAtomic<Value: AtomicValue> = ManagedAtomic<Value>
    where Value.AtomicRepresentation.Value == Value

extension ManagedAtomic {
    @inline(__always)
    package func loadRelaxed() -> Value {
        load(ordering: .relaxed)
    }

    @inline(__always)
    package func storeRelaxed(_ newValue: Value) {
        store(newValue, ordering: .relaxed)
    }
}

extension ManagedAtomic where Value == Int32 {
    /// Adds `delta`; returns the value after.
    @inline(__always)
    package func addRelaxed(_ delta: Int32) -> Int32 {
        loadThenWrappingIncrement(by: delta, ordering: .relaxed) &+ delta
    }
}

extension ManagedAtomic where Value == Int {
    /// Adds `delta`; returns the value after.
    @inline(__always) @discardableResult
    package func addRelaxed(_ delta: Int) -> Int {
        loadThenWrappingIncrement(by: delta, ordering: .relaxed) &+ delta
    }
}

/// The calling thread, as a number (for telling reentrant from overlapping delivery).
@inline(__always)
package func currentThreadID() -> UInt {
    UInt(bitPattern: pthread_self())
}

/// Whether the caller runs on the main thread or on the main queue.
package var isOnMainThread: Bool {
    Thread.isMainThread || isOnMainQueue
}

#else
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
import Foundation

/// The word a `Lock` or a `LockedState` keeps in its tail allocation: a
/// `pthread_mutex_t` (an uncontended lock and unlock measure about half the time of
/// `Mutex`'s, whose priority-inheriting futex costs more even without contention).
package typealias LockWord = pthread_mutex_t

/// The operations on a `LockWord` in place.
package enum LockWords {
    @inline(__always)
    package static func initialize(_ word: UnsafeMutablePointer<LockWord>) {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_NORMAL))
        let result = pthread_mutex_init(word, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(result == 0, "Rivulet: pthread_mutex_init failed with \(result)")
    }

    @inline(__always)
    package static func deinitialize(_ word: UnsafeMutablePointer<LockWord>) {
        _ = pthread_mutex_destroy(word)
        word.deinitialize(count: 1)
    }

    @inline(__always)
    package static func lock(_ word: UnsafeMutablePointer<LockWord>) {
        _ = pthread_mutex_lock(word)
    }

    @inline(__always)
    package static func unlock(_ word: UnsafeMutablePointer<LockWord>) {
        _ = pthread_mutex_unlock(word)
    }
}

/// The lock behind an `InlineLock`: a `Mutex` in place, so no allocation of its own.
/// Raw operations: no synchronization point, no mutant (`InlineLock` adds them).
///
/// A `Lock` here instead (a pthread mutex behind a pointer, as on Darwin) ran more
/// instructions on every row that takes it per event (callgrind): fan-out +1.3%, merge of
/// subjects +2.3%, share +3.4%, Driver +8.1%; the allocation counts were the same.
package struct LockCell: ~Copyable {
    private let mutex = Mutex<Void>(())

    @inline(__always)
    package init() {}

    /// The lock's address, which names it to a schedule explorer.
    @inline(__always)
    package var identity: UnsafeRawPointer {
        withUnsafePointer(to: mutex) { UnsafeRawPointer($0) }
    }

    @inline(__always)
    package func lock() {
        mutex._unsafeLock()
    }

    @inline(__always)
    package func unlock() {
        mutex._unsafeUnlock()
    }
}

/// The atomic `Int` behind an `InlineAtomicInt`, stored in place. Raw operations: no
/// synchronization point, no mutant.
package struct AtomicWord: ~Copyable {
    private let value: Atomic<Int>

    @inline(__always)
    package init(_ initial: Int) {
        value = Atomic(initial)
    }

    @inline(__always)
    package func loadAcquiring() -> Int {
        value.load(ordering: .acquiring)
    }

    @inline(__always)
    package func loadRelaxed() -> Int {
        value.load(ordering: .relaxed)
    }

    @inline(__always)
    package func storeRelaxed(_ newValue: Int) {
        value.store(newValue, ordering: .relaxed)
    }

    @inline(__always)
    package func storeReleasing(_ newValue: Int) {
        value.store(newValue, ordering: .releasing)
    }

    /// Sets `bits`; returns the value before.
    @inline(__always)
    package func fetchOr(_ bits: Int) -> Int {
        value.bitwiseOr(bits, ordering: .acquiringAndReleasing).oldValue
    }

    /// Adds `delta`; returns the value after.
    @inline(__always)
    package func add(_ delta: Int) -> Int {
        value.wrappingAdd(delta, ordering: .acquiringAndReleasing).newValue
    }
}

/// A process-wide atomic for a global constant, set up statically, so an operation is
/// one atomic instruction with no object to reach first; every operation is relaxed.
package typealias GlobalAtomic<Value: AtomicRepresentable> = Atomic<Value>

extension Atomic where Value == Bool {
    @inline(__always)
    package func loadRelaxed() -> Bool {
        load(ordering: .relaxed)
    }

    @inline(__always)
    package func storeRelaxed(_ newValue: Bool) {
        store(newValue, ordering: .relaxed)
    }
}

extension Atomic where Value == Int32 {
    @inline(__always)
    package func loadRelaxed() -> Int32 {
        load(ordering: .relaxed)
    }

    /// Adds `delta`; returns the value after.
    @inline(__always)
    package func addRelaxed(_ delta: Int32) -> Int32 {
        wrappingAdd(delta, ordering: .relaxed).newValue
    }
}

extension Atomic where Value == Int {
    @inline(__always)
    package func loadRelaxed() -> Int {
        load(ordering: .relaxed)
    }

    /// Adds `delta`; returns the value after.
    @inline(__always) @discardableResult
    package func addRelaxed(_ delta: Int) -> Int {
        wrappingAdd(delta, ordering: .relaxed).newValue
    }
}

/// The calling thread, as a number (for telling reentrant from overlapping delivery).
@inline(__always)
package func currentThreadID() -> UInt {
    UInt(pthread_self())
}

/// The main thread's number once a check ran on it, 0 before.
private let knownMainThread = Atomic<UInt>(0)

/// Whether the caller runs on the main thread or on the main queue.
///
/// Foundation's `Thread.isMainThread` asks the kernel twice here (`getpid` and
/// `gettid`), which dominated the cost of a `Driver` element; once the main thread has
/// been seen, comparing the calling thread with it answers without a system call (the
/// main thread lives as long as the process, so no other thread can share its number).
/// Any other thread asks the queue it runs on (`isOnMainQueue`).
@inline(__always)
package var isOnMainThread: Bool {
    let current = currentThreadID()
    let known = knownMainThread.load(ordering: .relaxed)
    if known == current { return true }
    if known == 0, Thread.isMainThread {
        knownMainThread.store(current, ordering: .relaxed)
        return true
    }
    return isOnMainQueue
}
#endif

/// The mark `isOnMainQueue` looks for, set on the main queue the first time it is read.
private let mainQueueMark: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Whether the caller runs work of the main queue (or of a queue that targets it), on
/// whichever thread serves it.
///
/// On Linux a process whose main thread calls `dispatchMain()` (the test runners do)
/// has the main queue, and with it every `@MainActor` job, served by worker threads.
var isOnMainQueue: Bool {
    DispatchQueue.getSpecific(key: mainQueueMark) ?? false
}
