import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("SettlingScheduler: the stress tests' signal that scheduled work is over", .rxLeakCheck)
struct SettlingSchedulerTests {
    private let scheduler = SettlingScheduler(ConcurrentDispatchQueueScheduler(qos: .default))

    @Test("a pending timer keeps it unsettled until it runs or is disposed")
    func pendingTimer() {
        let ran = LockedBox(false)
        let timer = scheduler.scheduleRelative((), dueTime: .seconds(60)) { _ in
            ran.value = true
            return Disposables.create()
        }
        #expect(scheduler.outstandingWork == 1)
        #expect(!scheduler.settles(seconds: 0.05))
        timer.dispose()
        #expect(scheduler.settles(seconds: 5))
        #expect(!ran.value)
        let soon = scheduler.scheduleRelative((), dueTime: .milliseconds(1)) { _ in
            ran.value = true
            return Disposables.create()
        }
        #expect(scheduler.settles(seconds: 5))
        #expect(ran.value)
        soon.dispose()
        #expect(scheduler.outstandingWork == 0)
    }

    @Test("a running action keeps it unsettled until it returns, with the work it schedules")
    func runningAction() {
        let release = DispatchSemaphore(value: 0)
        let finished = LockedBox(false)
        _ = scheduler.schedule(()) { _ in
            _ = release.wait(timeout: .now() + 10)
            return self.scheduler.schedule(()) { _ in
                finished.value = true
                return Disposables.create()
            }
        }
        #expect(!scheduler.settles(seconds: 0.05))
        release.signal()
        #expect(scheduler.settles(seconds: 10))
        #expect(finished.value)
    }

    @Test("a periodic timer counts until it is disposed")
    func periodicTimer() {
        // On virtual time, so that "no tick after the disposal" is checked by moving the
        // clock on, not by waiting for a quiet period.
        let clock = TestScheduler(initialClock: 0)
        let scheduler = SettlingScheduler(clock)
        let ticks = LockedBox(0)
        let timer = scheduler.schedulePeriodic(0, startAfter: .seconds(1), period: .seconds(1)) { state in
            ticks.mutate { $0 += 1 }
            return state + 1
        }
        clock.advanceTo(3)
        #expect(ticks.value == 3)
        #expect(scheduler.outstandingWork == 1)
        timer.dispose()
        #expect(scheduler.outstandingWork == 0)
        #expect(scheduler.settles(seconds: 5))
        clock.advanceTo(10)
        #expect(ticks.value == 3)
    }
}
