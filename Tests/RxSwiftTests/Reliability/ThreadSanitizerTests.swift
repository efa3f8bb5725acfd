import Foundation
import RivuletTestSupport
import RxSwift
import Testing

/// What makes a ThreadSanitizer run mean something (`scripts/sanitizers.sh thread`).
///
/// The planted race, a write from two threads with nothing ordering them, runs only when
/// the script asks for it (`RIVULET_PLANTED_RACE`), after the clean run: the script fails
/// unless the sanitizer reports it, so a run with no report is one that would have seen
/// a race.
///
/// The two handoffs run in every build: a write handed to another thread through a
/// `LockedPair`'s lock, or through an `AtomicFlag`, is ordered only by that lock or
/// atomic, so ThreadSanitizer reports it unless it sees them (the standard library's
/// `Atomic` on Linux is instrumented where it is inlined). The reader polls: a semaphore
/// or a queue would order the threads in the sanitizer's eyes, and hide what is tested.
@Suite("ThreadSanitizer: a planted race it must report, handoffs through Rivulet's lock and atomic it must not")
struct ThreadSanitizerTests {
    static let plantedRaceVariable = "RIVULET_PLANTED_RACE"

    @Test("a planted race: two threads increment one variable with nothing between them (scripts/sanitizers.sh expects a report)",
          .enabled(if: ProcessInfo.processInfo.environment[plantedRaceVariable] != nil))
    func plantedRace() {
        let shared = Unsynchronized()
        let finished = runConcurrently(threads: 2) { _ in
            for _ in 0..<1_000 { shared.value += 1 }
        }
        #expect(finished)
    }

    @Test("a write handed over through a LockedPair's lock: the reader sees it, with no report")
    func handoffThroughTheLock() {
        let shared = Unsynchronized()
        let published = LockedPair(false, ())
        let finished = runConcurrently(threads: 2) { index in
            if index == 0 {
                shared.value = 42
                published.withLock { $0 = true }
            } else {
                while !published.withLock({ $0 }) { usleep(100) }
                #expect(shared.value == 42)
            }
        }
        #expect(finished)
    }

    @Test("a write handed over through an AtomicFlag: the reader sees it, with no report")
    func handoffThroughAnAtomic() {
        let shared = Unsynchronized()
        let finished = runConcurrently(threads: 2) { index in
            if index == 0 {
                shared.value = 42
                _ = shared.published.testAndSet()
            } else {
                while !shared.published.isSet() { usleep(100) }
                #expect(shared.value == 42)
            }
        }
        #expect(finished)
    }
}

/// A variable shared between threads with no synchronization of its own.
private final class Unsynchronized: @unchecked Sendable {
    var value = 0
    let published = AtomicFlag()
}
