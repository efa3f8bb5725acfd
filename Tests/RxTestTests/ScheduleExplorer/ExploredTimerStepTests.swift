import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
@testable import RxTest
import Testing

/// A timer armed on a dispatch scheduler is a step of the explored run: its callback
/// races the other threads in every order the strategy reaches, timers fire in the order
/// of their deadlines, and a timer that re-arms itself forever ends the run as stalled.
@Suite struct ExploredTimerStepTests {
    /// A box the checks of every schedule add their outcome to.
    private final class Outcomes: @unchecked Sendable {
        let seen = LockedState(Set<[Int]>())
    }

    @Test func aTimerFiresBothBeforeAndAfterARacingElement() {
        let outcomes = Outcomes()
        let exploration = exploreSchedules(.random(seed: 3), schedules: 200) { run in
            let scheduler = SerialDispatchQueueScheduler(qos: .default)
            let subject = PublishSubject<Int>()
            let observer = run.observer("debounced", of: Int.self)
            _ = subject.debounce(.seconds(60), scheduler: scheduler).subscribe(observer)
            run.thread("producer") {
                subject.onNext(1)
                subject.onNext(2)
                subject.onCompleted()
            }
            run.check { outcomes.seen.withLock { _ = $0.insert(observer.elements) } }
        }
        #expect(exploration.failure == nil)
        // A minute's debounce: without the explorer only [2] could come out. With the
        // timer a step, element 1's timer also fires before element 2 arrives.
        #expect(outcomes.seen.current == [[2], [1, 2]])
    }

    @Test func timersFireInTheOrderOfTheirDeadlines() {
        let exploration = exploreSchedules(.random(seed: 5), schedules: 200) { run in
            let scheduler = SerialDispatchQueueScheduler(qos: .default)
            let fired = LockedState([Int]())
            // Each deadline is the clock when its timer is armed plus the delay, and the
            // explorer fires timers without waiting for them: delays seconds apart keep the
            // deadlines in the delays' order however long the arming takes on a loaded
            // machine (10 ms apart, the 30 ms timer came before the 20 ms one when arming
            // the third took more than 10 ms).
            for delay in [30, 10, 20] {
                _ = scheduler.scheduleRelative(delay, dueTime: .seconds(delay)) { delay in
                    fired.withLock { $0.append(delay) }
                    return Disposables.create()
                }
            }
            run.thread("other") { fired.withLock { $0.append(0) } }
            run.check {
                // Armed together, on a serial queue: the callbacks run in deadline order,
                // whenever the other thread's step comes.
                let order = fired.current.filter { $0 != 0 }
                guard order == [10, 20, 30] else { throw TimerStepMismatch("the timers fired in the order \(order)") }
            }
        }
        #expect(exploration.failure == nil)
        #expect(exploration.schedulesRun == 200)
    }

    @Test func aPeriodicTimerThatNothingDisposesEndsTheRunAsStalled() throws {
        var exploration: ScheduleExploration?
        let reported = capturingFailures {
            exploration = exploreSchedules(.random(seed: 1), schedules: 1) { _ in
                let scheduler = SerialDispatchQueueScheduler(qos: .default)
                _ = Observable<Int>.interval(.milliseconds(1), scheduler: scheduler).subscribe()
            }
        }
        let failure = try #require(exploration?.failure)
        #expect(reported.count == 1)
        #expect(failure.contains("stalled: the run took more than \(ScheduleController.stepLimit) steps"))
    }
}

private struct TimerStepMismatch: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
