import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
@testable import RxTest
import Testing

/// A failure report a person can follow without a debugger: each step names the lock by
/// what it guards and the line that took it, or the atomic operation and its line.
@Suite struct ScheduleTraceTests {
    @Test func aDeadlockNamesEachLockByItsOwnerAndTheLineThatTookIt() throws {
        var exploration: ScheduleExploration?
        let reported = capturingFailures {
            exploration = exploreSchedules(.exhaustive(preemptionBound: 1), schedules: 500) { run in
                let first = ExplorableLock(), second = ExplorableLock()
                run.thread("forward") { first.withLock { second.withLock {} } }
                run.thread("backward") { second.withLock { first.withLock {} } }
            }
        }
        let failure = try #require(exploration?.failure)
        #expect(reported.count == 1)
        #expect(failure.contains("(ExplorableLock.Owner), held by thread"))
        #expect(failure.contains(", at RxTestTests/ScheduleTraceTests.swift:17"))
        #expect(failure.contains("(ExplorableLock.Owner), taken at RxTestTests/ScheduleTraceTests.swift:1"))
    }

    @Test func aStepNamesTheLibraryLockOrAtomicAndItsLine() throws {
        var exploration: ScheduleExploration?
        _ = capturingFailures {
            exploration = exploreSchedules(.random(seed: 1), schedules: 1) { run in
                let subject = PublishSubject<Int>()
                let observer = run.observer("observer", of: Int.self)
                let subscription = UnsafeTransfer(subject.subscribe(observer))
                run.thread("producer") { subject.onNext(1) }
                run.thread("disposer") { subscription.value.dispose() }
                run.check { throw TraceProbe() }
            }
        }
        let failure = try #require(exploration?.failure)
        #expect(failure.contains("asks for lock L1 (LockedPair<SubjectState, ()>) at RxSwift/"))
        #expect(failure.contains("releases lock L1 at RxSwift/"))
        #expect(failure.contains("atomic "))
    }

    @Test func aLockTakenAgainByItsHolderIsThatSchedulesFailure() throws {
        // Outside the explorer this traps (or hangs) the process; explored, the thread
        // waits for itself, and the schedule fails with its replay spelling.
        let exploration = exploreSchedulesQuietly(.pct(depth: 2, seed: 1), schedules: 5) { run in
            let lock = ExplorableLock()
            run.thread("again") { lock.withLock { lock.withLock {} } }
        }
        let failure = try #require(exploration.failure)
        #expect(failure.contains("deadlock: every thread waits for a lock another one holds"))
        #expect(failure.contains("thread 1 (again) wants L1 (ExplorableLock.Owner), held by thread 1"))
        #expect(exploration.failingSchedule != nil)
    }

    @Test func theThreadsOfADeadlockedRunAreLetGo() throws {
        for seed in 1...5 {
            let exploration = exploreOppositeLockOrders(ExplorableLock(), ExplorableLock(), seed: UInt64(seed))
            #expect(exploration.failure?.contains("deadlock") == true)
        }
        // Each deadlocked run parked its two threads; each was let go and ended.
        #expect(waitForParkedThreadsToEnd())
    }

    @Test func aThreadLetGoUnlocksWhatItHeldFirst() throws {
        // Both locks outlive the run: each deadlocked thread ended holding one. Had it
        // ended without unlocking, taking the lock now would stop the process (a `Mutex`
        // owned by a thread that no longer exists) or hang it (a pthread mutex).
        let first = ExplorableLock(), second = ExplorableLock()
        #expect(exploreOppositeLockOrders(first, second, seed: 1).failure?.contains("deadlock") == true)
        #expect(waitForParkedThreadsToEnd())
        #expect(first.withLock { true })
        #expect(second.withLock { true })
    }

    /// Two threads taking `first` and `second` in opposite orders, explored until a
    /// schedule deadlocks.
    private func exploreOppositeLockOrders(_ first: ExplorableLock, _ second: ExplorableLock, seed: UInt64) -> ScheduleExploration {
        exploreSchedulesQuietly(.pct(depth: 2, seed: seed), schedules: 200) { run in
            run.thread("forward") { first.withLock { second.withLock {} } }
            run.thread("backward") { second.withLock { first.withLock {} } }
        }
    }

    /// Whether every parked thread of every badly ended run ended within 5 seconds.
    private func waitForParkedThreadsToEnd() -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while ScheduleController.parkedThreads != 0, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        return ScheduleController.parkedThreads == 0
    }
}

/// A check that always fails, to get a run's trace.
private struct TraceProbe: Error, CustomStringConvertible {
    var description: String { "probe" }
}

/// PCT's change points: each lowers the running thread's priority at its step, and one
/// whose step finds no running thread that can go on is kept for the next one, never
/// dropped.
@Suite struct PCTChangePointTests {
    @Test func aChangePointOnAStepWithNoRunningThreadLowersTheNextOne() {
        var chooser = ScheduleChooser(rule: .pct(RxTest.SplitMix(seed: 1, stream: 0), changePoints: [1], depth: 2))
        // Step 1: the thread that ran has finished, so no running thread can go on.
        let first = chooser.choose(among: [0, 1], current: nil)
        // Step 2: the change point lowers the thread now running; the other one goes.
        let second = chooser.choose(among: [0, 1], current: first)
        #expect(second != first)
        // And it stays with the other thread, whose priority is now the higher.
        #expect(chooser.choose(among: [0, 1], current: second) == second)
    }
}
