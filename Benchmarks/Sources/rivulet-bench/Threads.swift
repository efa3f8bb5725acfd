import AllocCounter
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Building blocks of the multi-threaded scenarios (rows 13 to 19) and of `--load`:
// an atomic word, a plain mutex for the floors, threads started together, and the
// busy threads that load the machine.

/// A 64-bit word read and written atomically from any thread (acquire loads, release
/// stores).
final class AtomicInt: @unchecked Sendable {
    private let word: UnsafeMutablePointer<Int64>

    init(_ value: Int = 0) {
        word = .allocate(capacity: 1)
        word.initialize(to: Int64(value))
    }

    deinit {
        word.deallocate()
    }

    @inline(__always)
    func load() -> Int { Int(bench_atomic_load(word)) }

    @inline(__always)
    func store(_ value: Int) { bench_atomic_store(word, Int64(value)) }

    /// Adds `delta`; returns the new value.
    @discardableResult @inline(__always)
    func add(_ delta: Int) -> Int { Int(bench_atomic_add(word, Int64(delta))) }
}

/// A pthread mutex: what a floor takes where a library would take its lock. On Linux it
/// is glibc's adaptive kind, which spins a little before it puts the thread to sleep,
/// so that a short contended hand-off costs the floor no more than it must.
final class FloorLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if os(Linux)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always)
    func lock() { pthread_mutex_lock(mutex) }

    @inline(__always)
    func unlock() { pthread_mutex_unlock(mutex) }

    @inline(__always)
    func withLock<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}

/// Waits for a completion signalled on another thread; a run that does not finish in
/// time fails instead of hanging.
func waitOrFail(_ semaphore: DispatchSemaphore, _ scenario: String, _ implementation: String) {
    if semaphore.wait(timeout: .now() + .seconds(30)) == .timedOut {
        fatalError("rivulet-bench: '\(scenario)' (\(implementation)) did not complete within 30 s")
    }
}

/// Stops the run when a multi-threaded scenario broke a rule its checksum cannot see
/// (an order, a replayed value).
func failOrder(_ scenario: String, _ implementation: String, _ what: String) -> Never {
    printError("rivulet-bench: CHECK FAILED in '\(scenario)' (\(implementation)): \(what)\n")
    exit(2)
}

/// Runs each of `bodies` on a thread of its own, all released at once, and `alongside`
/// on the calling thread as soon as they are released; returns when every thread has
/// finished. A thread still running after 30 s fails the run.
func runOnThreads(
    _ bodies: [@Sendable () -> Void],
    scenario: String,
    implementation: String,
    alongside: () -> Void = {}
) {
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    for body in bodies {
        let thread = Thread {
            ready.signal()
            go.wait()
            body()
            finished.signal()
        }
        thread.start()
    }
    for _ in bodies { ready.wait() }
    for _ in bodies { go.signal() }
    alongside()
    for _ in bodies { waitOrFail(finished, scenario, implementation) }
}

/// An order-blind checksum of what several threads delivered: the count, the sum and
/// a sum of mixed values (so that a lost element and a duplicated one do not cancel
/// out), folded into a `Checksum`.
struct OrderBlindChecksum {
    private(set) var count = 0
    private(set) var sum = 0
    private(set) var mixed = 0

    @inline(__always)
    mutating func add(_ element: Int) {
        count += 1
        sum &+= element
        mixed &+= (element &* 0x1E37_79B9_7F4A_7C15) ^ (element >> 7)
    }

    var checksum: Checksum {
        var checksum = Checksum()
        checksum.add(count)
        checksum.add(sum)
        checksum.add(mixed)
        return checksum
    }

    /// The order-blind checksum of `elements`.
    static func of<Elements: Sequence>(_ elements: Elements) -> Checksum where Elements.Element == Int {
        var result = OrderBlindChecksum()
        for element in elements { result.add(element) }
        return result.checksum
    }
}

// MARK: - Load

/// `--load K`: K threads that spin and allocate for as long as the scenarios run, so
/// that the multi-threaded rows can be measured on a machine that is busy in a known,
/// repeatable way. Each thread appends 16 integers to an array and empties it (one
/// allocation and one free a round), with a multiply-add chain through the values.
///
/// The allocation counts of the table are taken with the load paused (its threads'
/// allocations would otherwise be counted with the scenario's).
final class BackgroundLoad: @unchecked Sendable {
    private let stopRequested = AtomicInt()
    private let pauseRequested = AtomicInt()
    /// Threads waiting for the pause to end.
    private let parked = AtomicInt()
    private let stopped = DispatchSemaphore(value: 0)
    /// Set by `start` before any other call, read after.
    private var threads = 0

    /// Starts `threads` busy threads (none when 0).
    func start(threads: Int) {
        self.threads = threads
        for index in 0..<threads {
            let thread = Thread { [self] in
                spin(seed: index &+ 1)
                stopped.signal()
            }
            thread.start()
        }
    }

    /// Stops the threads and waits for them to end.
    func stop() {
        stopRequested.store(1)
        for _ in 0..<threads { stopped.wait() }
        threads = 0
    }

    /// Parks every thread; returns once they all wait.
    func pause() {
        guard threads > 0 else { return }
        pauseRequested.store(1)
        while parked.load() < threads { usleep(50) }
    }

    func resume() {
        pauseRequested.store(0)
    }

    private func spin(seed: Int) {
        var values: [Int] = []
        var state = hiddenInt(seed)
        while stopRequested.load() == 0 {
            if pauseRequested.load() != 0 {
                parked.add(1)
                while pauseRequested.load() != 0 && stopRequested.load() == 0 { usleep(100) }
                parked.add(-1)
            }
            for _ in 0..<64 {
                for offset in 0..<16 { values.append(state &+ offset) }
                state = state &* 6_364_136_223_846_793_005 &+ values[7]
                values.removeAll()
            }
        }
        bench_black_hole(Int64(truncatingIfNeeded: state))
    }
}

/// The load of this run (`--load`); idle unless started.
let backgroundLoad = BackgroundLoad()
