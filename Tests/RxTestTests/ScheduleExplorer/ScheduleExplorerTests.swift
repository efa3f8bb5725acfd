import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
@testable import RxTest
import Testing

/// The schedule explorer: it finds what only some interleavings show, says where, and
/// replays it; and it finds nothing where every interleaving is right.
@Suite struct ScheduleExplorerTests {
    /// Two threads taking two of Rivulet's locks in opposite orders: the classic lock
    /// inversion, which a stress test finds only when the timing happens to line up.
    private static func lockInversion(_ run: ScheduleRun) {
        let first = LockedState(0)
        let second = LockedState(0)
        run.thread("forward") {
            first.withLock { _ in second.withLock { _ in } }
        }
        run.thread("backward") {
            second.withLock { _ in first.withLock { _ in } }
        }
    }

    @Test func findsALockInversionAndSaysWhoHoldsWhat() throws {
        var exploration: ScheduleExploration?
        let reported = capturingFailures {
            exploration = exploreSchedules(.exhaustive(preemptionBound: 1), schedules: 500, patience: 5, Self.lockInversion)
        }
        let failure = try #require(exploration?.failure)
        #expect(reported.count == 1)
        #expect(failure.contains("deadlock: every thread waits for a lock another one holds"))
        #expect(failure.contains("thread 1 (forward) wants L"))
        #expect(failure.contains("thread 2 (backward) wants L"))
        #expect(failure.contains("and holds L"))
        #expect(failure.contains("Replay it with exploreSchedules(.replay(\""))
        // The lock sites name the closures of this file that took them.
        #expect(failure.contains("ScheduleExplorerTests.swift:"))
        // Not the first schedule: running each thread to its end is fine.
        #expect((exploration?.schedulesRun ?? 0) > 1)
    }

    @Test func aReplayRunsTheSameScheduleAndFailsTheSameWay() throws {
        var found: ScheduleExploration?
        var replayed: ScheduleExploration?
        _ = capturingFailures {
            found = exploreSchedules(.pct(depth: 2, seed: 11), schedules: 500, patience: 5, Self.lockInversion)
        }
        let schedule = try #require(found?.failingSchedule)
        _ = capturingFailures {
            replayed = exploreSchedules(.replay(schedule), schedules: 1, patience: 5, Self.lockInversion)
        }
        #expect(replayed?.schedulesRun == 1)
        #expect(replayed?.failingSchedule == schedule)
        let first = try #require(found?.failure).split(separator: "\n").dropFirst()
        let again = try #require(replayed?.failure).split(separator: "\n").dropFirst()
        #expect(Array(first) == Array(again))
    }

    @Test func theSameSeedRunsTheSameSchedules() {
        let runs = (0..<2).map { _ in
            capturingFailures {
                _ = exploreSchedules(.random(seed: 5), schedules: 300, patience: 5, Self.lockInversion)
            }.map(\.message)
        }
        #expect(runs[0].count == 1)
        #expect(runs[0] == runs[1])
    }

    @Test func locksTakenInOneOrderPassEverySchedule() {
        var exploration: ScheduleExploration?
        let reported = capturingFailures {
            exploration = exploreSchedules(.exhaustive(preemptionBound: 2), schedules: 10_000, patience: 5) { run in
                let first = LockedState(0)
                let second = LockedState(0)
                for name in ["one", "two"] {
                    run.thread(name) { first.withLock { _ in second.withLock { _ in } } }
                }
            }
        }
        #expect(reported.isEmpty)
        #expect(exploration?.failure == nil)
        #expect(exploration?.exhausted == true)
        // Two threads, four lock steps each: more than a handful of orders.
        #expect((exploration?.schedulesRun ?? 0) > 10)
    }

    @Test func findsALostUpdateBetweenTwoLockedSteps() throws {
        var exploration: ScheduleExploration?
        _ = capturingFailures {
            exploration = exploreSchedules(.random(seed: 3), schedules: 200, patience: 5) { run in
                let counter = LockedState(0)
                for name in ["one", "two"] {
                    run.thread(name) {
                        // Read, then write: each step locked, the pair not.
                        let read = counter.withLock { $0 }
                        counter.withLock { $0 = read + 1 }
                    }
                }
                run.check {
                    if counter.current != 2 { throw TestError(code: counter.current) }
                }
            }
        }
        let failure = try #require(exploration?.failure)
        #expect(failure.contains("a check failed: \(TestError(code: 1))"))
        #expect(failure.contains("thread 2: asks for lock L1"))
    }

    @Test func findsOverlappingDeliveryToAnObserver() throws {
        var exploration: ScheduleExploration?
        _ = capturingFailures {
            exploration = exploreSchedules(.exhaustive(preemptionBound: 1), schedules: 100, patience: 5) { run in
                let observer = run.observer("unserialized", of: Int.self)
                run.thread("a") { observer.onNext(1) }
                run.thread("b") { observer.onNext(2) }
            }
        }
        let failure = try #require(exploration?.failure)
        #expect(failure.contains("broken Rx grammar"))
        #expect(failure.contains("reached observer \"unserialized\" while another event was being delivered to it"))
    }

    @Test func mergeSerializesEventsFromTwoThreadsInEverySchedule() {
        var exploration: ScheduleExploration?
        let reported = capturingFailures {
            exploration = exploreSchedules(.pct(depth: 3, seed: 3), schedules: 150, patience: 5) { run in
                let left = PublishSubject<Int>()
                let right = PublishSubject<Int>()
                let observer = run.observer("merged", of: Int.self)
                _ = Observable.merge(left, right).subscribe(observer)
                run.thread("left") {
                    left.onNext(1)
                    left.onCompleted()
                }
                run.thread("right") {
                    right.onNext(2)
                    right.onCompleted()
                }
                run.check {
                    try #require(observer.elements.sorted() == [1, 2])
                    try #require(observer.events.last?.isCompleted == true)
                }
            }
        }
        #expect(reported.isEmpty)
        #expect(exploration?.failure == nil)
        #expect(exploration?.schedulesRun == 150)
    }

    @Test func serialQueueWorkRunsInOrderAsThreadsOfTheRun() {
        var exploration: ScheduleExploration?
        let reported = capturingFailures {
            exploration = exploreSchedules(.random(seed: 9), schedules: 100, patience: 5) { run in
                let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "explored")
                let source = PublishSubject<Int>()
                let observer = run.observer("observed", of: Int.self)
                _ = source.observe(on: scheduler).subscribe(observer)
                run.thread("producer") {
                    source.onNext(1)
                    source.onNext(2)
                    source.onNext(3)
                    source.onCompleted()
                }
                run.check {
                    try #require(observer.elements == [1, 2, 3])
                    try #require(observer.events.last?.isCompleted == true)
                }
            }
        }
        #expect(reported.isEmpty)
        #expect(exploration?.failure == nil)
    }

    @Test func aFailingCheckReportsItsSchedule() throws {
        var exploration: ScheduleExploration?
        _ = capturingFailures {
            exploration = exploreSchedules(.exhaustive(preemptionBound: 1), schedules: 100, patience: 5) { run in
                let subject = BehaviorSubject(value: 0)
                run.thread("writer") { subject.onNext(1) }
                run.check {
                    // Wrong on purpose: the writer always runs before the checks.
                    if try subject.value() != 0 { throw testError }
                }
            }
        }
        let failure = try #require(exploration?.failure)
        #expect(failure.contains("a check failed: \(testError)"))
        #expect(exploration?.schedulesRun == 1)
    }

    @Test func reportsTheGrammarAnomaliesTheLibraryDetects() throws {
        var exploration: ScheduleExploration?
        _ = capturingFailures {
            exploration = exploreSchedules(.random(seed: 2), schedules: 5, patience: 5) { run in
                let broken = Observable<Int>.create { observer in
                    observer.onCompleted()
                    observer.onNext(1)
                    return Disposables.create()
                }
                run.thread("subscriber") { _ = broken.subscribe { _ in } }
            }
        }
        let failure = try #require(exploration?.failure)
        #expect(failure.contains("broken Rx grammar: the library reports:"))
        #expect(failure.contains("thread 1 (subscriber)"))
    }

    @Test func findsASubscriptionLeftOpenWhenAskedTo() throws {
        var leaking: ScheduleExploration?
        var tidy: ScheduleExploration?
        _ = capturingFailures {
            leaking = exploreSchedules(.random(seed: 4), schedules: 5, patience: 5) { run in
                let subject = PublishSubject<Int>()
                run.expectEverySubscriptionEnded()
                run.thread("subscriber") { _ = subject.subscribe { _ in } }
            }
            tidy = exploreSchedules(.random(seed: 4), schedules: 5, patience: 5) { run in
                let subject = PublishSubject<Int>()
                run.expectEverySubscriptionEnded()
                run.thread("subscriber") { subject.subscribe { _ in }.dispose() }
                run.thread("completer") { subject.onCompleted() }
            }
        }
        let failure = try #require(leaking?.failure)
        #expect(failure.contains("subscriptions still open after every thread finished: subscribe"))
        #expect(tidy?.failure == nil)
        #expect(tidy?.schedulesRun == 5)
    }

    @Test func aThreadBlockedOutsideRivuletIsReportedAsStalled() throws {
        let gate = DispatchSemaphore(value: 0)
        var exploration: ScheduleExploration?
        _ = capturingFailures {
            exploration = exploreSchedules(.random(seed: 1), schedules: 1, patience: 0.3) { run in
                run.thread("waits") { gate.wait() }
            }
        }
        gate.signal()
        let failure = try #require(exploration?.failure)
        #expect(failure.contains("stalled"))
        #expect(failure.contains("blocked outside Rivulet's synchronization points"))
    }

    @Test func aScheduleIsSpelledAsRunsOfThreads() throws {
        #expect(try ScheduleSpelling.parse("0*3 1*2").get() == [0, 0, 0, 1, 1])
        #expect(ScheduleSpelling.spell([0, 0, 0, 1, 1, 0]) == "0*3 1*2 0*1")
    }

    @Test func aMalformedReplayFailsTheTestNamingTheRun() throws {
        var exploration: ScheduleExploration?
        let reported = capturingFailures {
            exploration = exploreSchedules(.replay("0*2 1x3"), schedules: 1, Self.lockInversion)
        }
        let failure = try #require(exploration?.failure)
        #expect(reported.count == 1)
        #expect(exploration?.schedulesRun == 0)
        #expect(failure.contains("has \"1x3\" as its run 2; each run is THREAD*COUNT"))
        _ = capturingFailures {
            exploration = exploreSchedules(.replay(""), schedules: 1, Self.lockInversion)
        }
        #expect(exploration?.failure?.contains("the replay spelling is empty") == true)
    }
}
