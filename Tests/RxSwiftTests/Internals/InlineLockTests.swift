import Dispatch
import Foundation
import RxSwift
import Testing

/// The lock in place behind every subject and share (`InlineLock`, over the platform's
/// `LockCell`: on Linux an atomic word and the futex). More threads than the machine has
/// cores make waiters spin out and sleep, so the sleeping and waking path runs too.
@Suite("InlineLock")
struct InlineLockTests {
    @Test("bodies on 8 threads never overlap and every increment is counted")
    func excludesConcurrentBodies() {
        let pair = LockedPair((), (count: 0, inside: 0, overlaps: 0))
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20_000 {
                pair.withLock { _, value in
                    value.inside += 1
                    if value.inside > 1 { value.overlaps += 1 }
                    value.count += 1
                    value.inside -= 1
                }
            }
        }
        let final = pair.withLock { _, value in value }
        #expect(final.count == 160_000)
        #expect(final.overlaps == 0)
    }

    @Test("threads that wait longer than the spin sleep, and each is woken in turn")
    func waitersSleepAndWake() {
        let pair = LockedPair((), [Int]())
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Thread {
            pair.withLock { _, _ in
                holding.signal()
                // Long enough for every waiter to spin out and sleep on the lock.
                release.wait()
            }
        }
        holder.start()
        holding.wait()
        let group = DispatchGroup()
        let entered = DispatchSemaphore(value: 0)
        for index in 0..<6 {
            let thread = Thread {
                pair.withLock { _, order in order.append(index) }
                entered.signal()
                group.leave()
            }
            group.enter()
            thread.start()
        }
        #expect(entered.wait(timeout: .now() + 0.05) == .timedOut, "a waiter took the lock while it was held")
        release.signal()
        #expect(group.wait(timeout: .now() + 10) == .success, "a sleeping waiter was not woken")
        #expect(pair.withLock { _, order in order.sorted() } == Array(0..<6))
    }
}
