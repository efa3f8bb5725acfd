// Every platform choice of the RxSwift module, in two splits.
//
// The operating system's calls, chosen by the system the code is compiled for: the lock
// word, the thread's number, the thread-local slot. Linux has no `os_unfair_lock`, so a
// futex word (`FutexLock`) stands for it behind the same `LockWords` operations (a
// `pthread_mutex_t` under ThreadSanitizer and on systems without a futex), and
// `pthread_t` is a number there where Darwin's is a pointer.
//
// The implementation, chosen by the platform or by a build setting: Apple's
// (`#if canImport(Darwin) || AppleLockingPath`) and Linux's. On Apple platforms the
// standard library's `Synchronization` module needs macOS 15 / iOS 18, newer than
// Rivulet supports, so Apple's implementation uses swift-atomics and a `Lock`; on Linux,
// Android and FreeBSD (Glibc or Musl) `Synchronization` has no availability restriction.
// The package trait `AppleLockingPath` compiles Apple's implementation on Linux, over
// Linux's system calls, so that CI builds and tests it (`.ci/run`, `.build-apple`). The
// package trait `ThreadSanitizer` puts Apple's `LockCell`, a `Lock`, in place of Linux's
// futex lock: ThreadSanitizer intercepts a pthread mutex and models it as a lock, where
// of the futex lock it sees only atomics and system calls. Other systems without a
// futex (FreeBSD) take Apple's `LockCell` too.
//
// | need                                     | Apple's implementation          | Linux's                     |
// | ---------------------------------------- | ------------------------------- | --------------------------- |
// | lock word (`LockWord`), by the system    | `os_unfair_lock`; the futex word on Linux | the futex word (`FutexLock`); `pthread_mutex_t` under `ThreadSanitizer` |
// | lock stored in an object (`LockCell`)    | `Lock` (one small allocation)   | an atomic word and the futex, in place; a `Lock` under `ThreadSanitizer` |
// | atomic `Int` in an object (`AtomicWord`) | swift-atomics `UnsafeAtomic`    | `Synchronization.Atomic`    |
// | its operations (`AtomicWordReference`)   | the `UnsafeAtomic` handle       | the `Atomic`'s address      |
// | global atomic (`GlobalAtomic`)           | swift-atomics `ManagedAtomic`   | `Atomic`, set up statically |
// | main-thread check (`isOnMainThread`)     | `Thread.isMainThread`           | the main thread's number, kept atomically |
// | thread number, thread-local slot, by the system | `pthread_self()` as a pointer, a destructor of a non-optional pointer | as a number, of an optional pointer |
//
// Each half supplies raw operations only; what every platform does around them (the
// schedule explorer's synchronization points, the concurrency mutants) is written once,
// in `InlineLock`, `InlineAtomicInt`, `Lock` and `LockedState`. Nothing outside this
// file tests the platform for locking, atomics or thread identity.
//
// Both answer yes on the main queue too (`isOnMainQueue`): where the main thread has
// handed the main queue to a worker thread (`dispatchMain()`, as a test runner does on
// Linux), the main actor's jobs run there, and they are as serial as the main thread.

// MARK: - The operating system's calls

#if canImport(Darwin)
import Darwin

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

/// The calling thread, as a number (for telling reentrant from overlapping delivery).
@inline(__always)
package func currentThreadID() -> UInt {
    UInt(bitPattern: pthread_self())
}

/// Releases the object a thread-local slot owned when its thread ends: the slot's
/// destructor, whose argument Darwin declares non-optional.
private func releaseThreadObject(_ pointer: UnsafeMutableRawPointer) {
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
}

#else
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

#if (os(Linux) || os(Android)) && !ThreadSanitizer
import RivuletFutex
import Synchronization

/// The word a `Lock` or a `LockedState` keeps in its tail allocation: the futex lock's
/// word (`FutexLock`), as in every inline lock (`LockCell`). Apple's implementation on
/// Linux (`AppleLockingPath`) uses it in place of `os_unfair_lock`, which Linux lacks.
package typealias LockWord = Atomic<UInt32>

/// The operations on a `LockWord` in place.
package enum LockWords {
    @inline(__always)
    package static func initialize(_ word: UnsafeMutablePointer<LockWord>) {
        word.initialize(to: Atomic(FutexLock.free))
    }

    @inline(__always)
    package static func deinitialize(_ word: UnsafeMutablePointer<LockWord>) {
        word.deinitialize(count: 1)
    }

    @inline(__always)
    package static func lock(_ word: UnsafeMutablePointer<LockWord>) {
        FutexLock.lock(word.pointee)
    }

    @inline(__always)
    package static func unlock(_ word: UnsafeMutablePointer<LockWord>) {
        FutexLock.unlock(word.pointee)
    }
}

/// Rivulet's lock on Linux and Android: one atomic word and the futex, as glibc's mutex
/// of the adaptive kind does it, on the word of a `Lock`, of a `LockedState` and of every
/// inline lock (`LockCell`), so that no lock costs an allocation of its own.
///
/// The word is `free` (0), `held` (1) or `contended` (2: held, and a thread may sleep on
/// it). A thread that finds it held spins a while (critical sections are a few dozen
/// instructions), then marks it contended and sleeps on the futex until it takes it. An
/// unlock that finds it contended wakes one sleeper, which competes for the lock again:
/// no thread is handed the lock.
///
/// What it replaced, and what that cost (2-core benchmark machine, Benchmarks/README.md):
/// - The standard library's `Mutex`, in the inline locks: its wait is the kernel's
///   priority-inheriting futex, whose unlock hands the lock to the sleeping thread, so
///   a thread that releases the lock and wants it again waits until that one has run.
///   With two threads writing one `BehaviorRelay` while a third reads it (row 17), the
///   lock ran at 1.2-1.4x OpenCombine's time.
/// - A normal `pthread_mutex_t`, in `Lock` and `LockedState`: it sleeps at once, so with
///   two threads sending into one `merge` (row 13) a quarter of the time went to the
///   kernel's futex calls. glibc's adaptive kind spun instead, at +1.2% to +2.2%
///   instructions on the single-thread rows that take a `Lock` per event (callgrind);
///   this lock's uncontended path is one compare-and-swap and one exchange, inlined.
package enum FutexLock {
    package static var free: UInt32 { 0 }
    private static var held: UInt32 { 1 }
    private static var contended: UInt32 { 2 }

    /// How many times a thread that finds the lock held looks at it again before it
    /// sleeps (glibc's adaptive mutex spins at most 100 times by default).
    private static var spinLimit: Int { 100 }

    @inline(__always)
    package static func lock(_ word: borrowing Atomic<UInt32>) {
        if _fastPath(word.compareExchange(expected: free, desired: held, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged) {
            return
        }
        lockContended(word)
    }

    @inline(never)
    private static func lockContended(_ word: borrowing Atomic<UInt32>) {
        var spins = 0
        while spins < spinLimit {
            rivulet_spin_hint()
            if word.load(ordering: .relaxed) == free,
               word.compareExchange(expected: free, desired: held, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged {
                return
            }
            spins += 1
        }
        // Marks the lock contended, taking it if it was free meanwhile; otherwise sleeps
        // while it stays contended, and tries again when woken.
        while word.exchange(contended, ordering: .acquiring) != free {
            rivulet_futex_wait(address(of: word), contended)
        }
    }

    @inline(__always)
    package static func unlock(_ word: borrowing Atomic<UInt32>) {
        if _slowPath(word.exchange(free, ordering: .releasing) == contended) {
            wakeOne(word)
        }
    }

    @inline(never)
    private static func wakeOne(_ word: borrowing Atomic<UInt32>) {
        rivulet_futex_wake_one(address(of: word))
    }

    /// The word's address, for the kernel.
    @inline(__always)
    private static func address(of word: borrowing Atomic<UInt32>) -> UnsafeMutablePointer<UInt32> {
        withUnsafePointer(to: word) { UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: UInt32.self) }
    }
}
#else
/// The word a `Lock` or a `LockedState` keeps in its tail allocation: a
/// `pthread_mutex_t`. Apple's implementation on Linux (`AppleLockingPath`) uses it in
/// place of `os_unfair_lock`, which Linux lacks; the `ThreadSanitizer` trait, because the
/// sanitizer models a pthread mutex as a lock; systems without a futex (FreeBSD), because
/// it is theirs.
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
#endif

/// The calling thread, as a number (for telling reentrant from overlapping delivery).
@inline(__always)
package func currentThreadID() -> UInt {
    UInt(pthread_self())
}

/// Releases the object a thread-local slot owned when its thread ends: the slot's
/// destructor, whose argument Glibc and Musl declare optional.
private func releaseThreadObject(_ pointer: UnsafeMutableRawPointer?) {
    if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
}
#endif

/// A thread-local slot (a pthread key) that owns the object it holds: a value set with
/// `Unmanaged.passRetained(_:).toOpaque()` is released when its thread ends.
func makeObjectOwningThreadKey() -> pthread_key_t {
    var key = pthread_key_t()
    let result = pthread_key_create(&key, releaseThreadObject)
    precondition(result == 0, "Rivulet: pthread_key_create failed with \(result)")
    return key
}

// MARK: - The implementation: the lock behind `InlineLock`

#if canImport(Darwin) || AppleLockingPath || ThreadSanitizer || !(os(Linux) || os(Android))
/// The lock behind an `InlineLock`: a `Lock` here (one small allocation), as the
/// standard library's `Mutex` needs a newer system on Apple platforms; on Linux under
/// the `ThreadSanitizer` trait, a pthread mutex the sanitizer sees; on other systems
/// (FreeBSD), a pthread mutex, as they have no futex. Raw operations: no
/// synchronization point, no mutant (`InlineLock` adds them).
package struct LockCell: ~Copyable {
    private let storage = Lock.make()

    @inline(__always)
    package init() {}

    /// The lock's address, which names it to a schedule explorer.
    @inline(__always)
    package var identity: UnsafeRawPointer {
        storage.identity
    }

    /// Unlocks the cell whose `identity` is given (see `Interleaving.LockRelease`).
    @inline(__always)
    package static var release: Interleaving.LockRelease {
        LockWords.release
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
#else
/// The lock behind an `InlineLock` on Linux and Android: the futex lock's word
/// (`FutexLock`) in place, so no allocation of its own. Raw operations: no
/// synchronization point, no mutant (`InlineLock` adds them).
///
/// A `Lock` here instead (a lock word behind a pointer, as in Apple's implementation
/// on Linux) ran more instructions on every row that takes it per event (callgrind, with
/// a pthread mutex for its word): fan-out +1.3%, merge of subjects +2.3%, share +3.4%,
/// Driver +8.1%.
package struct LockCell: ~Copyable {
    private let word = Atomic<UInt32>(FutexLock.free)

    @inline(__always)
    package init() {}

    /// The lock's address, which names it to a schedule explorer.
    @inline(__always)
    package var identity: UnsafeRawPointer {
        withUnsafePointer(to: word) { UnsafeRawPointer($0) }
    }

    /// Unlocks the cell whose `identity` is given (see `Interleaving.LockRelease`).
    @inline(__always)
    package static var release: Interleaving.LockRelease {
        LockWords.release
    }

    @inline(__always)
    package func lock() {
        FutexLock.lock(word)
    }

    @inline(__always)
    package func unlock() {
        FutexLock.unlock(word)
    }
}
#endif

extension LockWords {
    /// Unlocks the word at an address (see `Interleaving.LockRelease`).
    @inline(__always)
    package static var release: Interleaving.LockRelease {
        { word in LockWords.unlock(UnsafeMutablePointer(mutating: word.assumingMemoryBound(to: LockWord.self))) }
    }
}

// MARK: - The implementation: atomics and the main thread

#if canImport(Darwin) || AppleLockingPath
import Atomics
import Foundation

/// The atomic `Int` behind an `InlineAtomicInt`: one small allocation (swift-atomics).
package struct AtomicWord: ~Copyable {
    /// The word's operations: here the handle of its allocation, valid until this word
    /// is destroyed.
    package let reference: AtomicWordReference

    @inline(__always)
    package init(_ initial: Int) {
        let storage = UnsafeMutablePointer<UnsafeAtomic<Int>.Storage>.allocate(capacity: 1)
        storage.initialize(to: UnsafeAtomic<Int>.Storage(initial))
        reference = AtomicWordReference(storage)
    }

    deinit {
        // Disposes of the storage, deinitializes it and deallocates it.
        reference.value.destroy()
    }
}

/// The operations on an `AtomicWord`, reached without borrowing what stores it (a
/// delivery's end, after unlocking). Raw operations: no synchronization point, no mutant.
///
/// Sendable as swift-atomics' `UnsafeAtomic` is: the pointer names an atomic, and every
/// access through it is an atomic operation.
package struct AtomicWordReference: @unchecked Sendable {
    /// The atomic's address, which names it to a schedule explorer.
    @inline(__always)
    package var identity: UnsafeRawPointer {
        UnsafeRawPointer(storage)
    }

    /// The atomic's storage, allocated by its `AtomicWord`.
    private let storage: UnsafeMutablePointer<UnsafeAtomic<Int>.Storage>

    /// The atomic at `storage`: a view made per operation, which costs nothing.
    @inline(__always)
    fileprivate var value: UnsafeAtomic<Int> {
        UnsafeAtomic(at: storage)
    }

    @inline(__always)
    fileprivate init(_ storage: UnsafeMutablePointer<UnsafeAtomic<Int>.Storage>) {
        self.storage = storage
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

/// Whether the caller runs on the main thread or on the main queue.
package var isOnMainThread: Bool {
    Thread.isMainThread || isOnMainQueue
}

#else
import Synchronization
import Foundation

/// The atomic `Int` behind an `InlineAtomicInt`, stored in place.
package struct AtomicWord: ~Copyable {
    private let value: Atomic<Int>

    @inline(__always)
    package init(_ initial: Int) {
        value = Atomic(initial)
    }

    /// The word's operations: here its address, valid while the object whose storage
    /// holds it lives (an `Atomic` is never moved: it is borrowed in place).
    @inline(__always)
    package var reference: AtomicWordReference {
        AtomicWordReference(withUnsafePointer(to: value) { $0 })
    }
}

/// The operations on an `AtomicWord`, reached without borrowing what stores it (a
/// delivery's end, after unlocking). Raw operations: no synchronization point, no mutant.
package struct AtomicWordReference {
    /// The atomic's address, which names it to a schedule explorer.
    @inline(__always)
    package var identity: UnsafeRawPointer {
        UnsafeRawPointer(value)
    }

    private let value: UnsafePointer<Atomic<Int>>

    @inline(__always)
    fileprivate init(_ value: UnsafePointer<Atomic<Int>>) {
        self.value = value
    }

    @inline(__always)
    package func loadAcquiring() -> Int {
        value.pointee.load(ordering: .acquiring)
    }

    @inline(__always)
    package func loadRelaxed() -> Int {
        value.pointee.load(ordering: .relaxed)
    }

    @inline(__always)
    package func storeRelaxed(_ newValue: Int) {
        value.pointee.store(newValue, ordering: .relaxed)
    }

    @inline(__always)
    package func storeReleasing(_ newValue: Int) {
        value.pointee.store(newValue, ordering: .releasing)
    }

    /// Sets `bits`; returns the value before.
    @inline(__always)
    package func fetchOr(_ bits: Int) -> Int {
        value.pointee.bitwiseOr(bits, ordering: .acquiringAndReleasing).oldValue
    }

    /// Adds `delta`; returns the value after.
    @inline(__always)
    package func add(_ delta: Int) -> Int {
        value.pointee.wrappingAdd(delta, ordering: .acquiringAndReleasing).newValue
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
