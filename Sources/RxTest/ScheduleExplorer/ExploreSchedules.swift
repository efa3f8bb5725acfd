import Dispatch
import Foundation
import RxSwift
import RxTestCore

/// Runs `body` under many schedules of its threads and reports the first schedule that
/// deadlocks, breaks the Rx grammar, stalls, throws or fails a check: as a test failure
/// at the call, with the strategy, the schedule's replay spelling and its last steps.
///
/// The body runs on a thread of the explorer's and starts the others: with
/// ``ScheduleRun/thread(_:_:)``, and through the real schedulers
/// (`SerialDispatchQueueScheduler`, `ConcurrentDispatchQueueScheduler`,
/// `OperationQueueScheduler`, `MainScheduler`), whose queued work becomes threads of the
/// run too (a serial queue's work runs in order, one item at a time). Only one of them
/// runs at a time; at every lock taken or released, every atomic step and every piece of
/// queued work the library has, the strategy chooses who goes on. A run ends when every
/// thread finished; then the checks added with ``ScheduleRun/check(_:)`` run.
///
/// ```swift
/// @Test func mergeDeliversBothElements() {
///     exploreSchedules(.pct(depth: 2, seed: 7), schedules: 200) { run in
///         let left = PublishSubject<Int>(), right = PublishSubject<Int>()
///         let observer = run.observer("merged", of: Int.self)
///         _ = Observable.merge(left, right).subscribe(observer)
///         run.thread("left") { left.onNext(1) }
///         run.thread("right") { right.onNext(2) }
///         run.check { #expect(observer.elements.sorted() == [1, 2]) }
///     }
/// }
/// ```
///
/// Needs a debug build of Rivulet (the default of `swift test`): a release build has no
/// synchronization points to choose at, and the call fails saying so. A timer armed on a
/// dispatch scheduler (`scheduleRelative`, `schedulePeriodic`: `debounce`, `delay`,
/// `interval`...) becomes a thread of the run that starts after the timers due before
/// it, at a point the strategy chooses: the order of its callback against the other
/// threads is explored, not the time. Swift concurrency tasks run outside the explorer's
/// control; use a `TestScheduler` for time itself.
///
/// - Parameters:
///   - strategy: How the next thread is chosen at each point (``ScheduleStrategy``).
///   - schedules: How many schedules to run at most (an exhaustive search may end sooner).
///   - patience: Seconds without any step before a run counts as stalled: a thread
///     blocked where the library has no synchronization point.
///   - fileID: The file a failure is reported in; the caller's by default.
///   - filePath: The path of that file; the caller's by default.
///   - line: The line a failure is reported at; the caller's by default.
///   - column: The column a failure is reported at; the caller's by default.
///   - body: One run: builds the pipeline, starts threads, adds checks.
/// - Returns: What was explored, and the failure if one was found.
@discardableResult
public func exploreSchedules(
    _ strategy: ScheduleStrategy = .pct(depth: 2, seed: 1),
    schedules: Int = 100,
    patience: Double = 2,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: @escaping (ScheduleRun) throws -> Void
) -> ScheduleExploration {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let exploration = ScheduleExplorer(strategy: strategy, schedules: schedules, patience: patience).explore(body)
    if let failure = exploration.failure {
        reportFailure(failure, at: site)
    }
    return exploration
}

/// `exploreSchedules` without reporting a failure to the test: for a caller that expects
/// some explorations to fail and reads `failure` itself (the concurrency mutants' runner).
/// `mutant`, spelled `KIND@Module/File.swift:LINE`, is a concurrency mutant of RxSwift's
/// (`Mutation`, debug builds) in force on the exploration's threads only.
package func exploreSchedulesQuietly(
    _ strategy: ScheduleStrategy,
    schedules: Int,
    patience: Double = 2,
    mutant: String? = nil,
    _ body: @escaping (ScheduleRun) throws -> Void
) -> ScheduleExploration {
    ScheduleExplorer(strategy: strategy, schedules: schedules, patience: patience, mutant: mutant).explore(body)
}

/// What ``exploreSchedules(_:schedules:patience:fileID:filePath:line:column:_:)`` explored.
public struct ScheduleExploration: Sendable {
    /// The schedules run, the failing one included.
    public let schedulesRun: Int
    /// Whether an exhaustive strategy ran every schedule within its bound.
    public let exhausted: Bool
    /// The failure report, `nil` when every schedule passed.
    public let failure: String?
    /// The failing schedule's replay spelling (for ``ScheduleStrategy/replay(_:)``).
    public let failingSchedule: String?
}

/// One run of an explored body, under one schedule.
public final class ScheduleRun: @unchecked Sendable {
    /// Which schedule this is, from 0.
    public let index: Int
    #if DEBUG
    let controller: ScheduleController
    #endif
    var checks: [() throws -> Void] = []
    var expectsEverySubscriptionEnded = false

    #if DEBUG
    init(index: Int, controller: ScheduleController) {
        self.index = index
        self.controller = controller
    }
    #else
    init(index: Int) {
        self.index = index
    }
    #endif

    /// Starts a thread of the run that runs `work`.
    public func thread(_ name: String = "thread", _ work: @escaping @Sendable () -> Void) {
        #if DEBUG
        controller.start(name: name, queue: nil, work)
        #endif
    }

    /// An observer that records what it receives and reports a broken Rx grammar: an
    /// event while another is being delivered to it, or after a terminal event.
    public func observer<Element>(_ name: String = "observer", of type: Element.Type = Element.self) -> ScheduleObserver<Element> {
        ScheduleObserver(name: name, run: self)
    }

    /// A check run once every thread of the run finished, on the test's thread; a thrown
    /// error (`#require`, `XCTUnwrap`...) fails the exploration with the schedule.
    public func check(_ body: @escaping () throws -> Void) {
        checks.append(body)
    }

    /// Fails the schedule when a subscription made during the run is still open once every
    /// thread finished: neither disposed nor ended by a terminal event.
    public func expectEverySubscriptionEnded() {
        expectsEverySubscriptionEnded = true
    }

    func step(_ what: @autoclosure () -> String) {
        #if DEBUG
        controller.step(what())
        #endif
    }

    func violate(_ message: String) {
        #if DEBUG
        controller.violate(message)
        #endif
    }
}

/// An observer of a ``ScheduleRun``: records events, checks the Rx grammar, and is itself
/// a point where another thread may go first (the delivery takes a step).
public final class ScheduleObserver<Element>: ObserverType, @unchecked Sendable {
    /// The events received, in order.
    public private(set) var events: [Event<Element>] = []
    private let name: String
    private unowned let run: ScheduleRun
    private var delivering = false

    init(name: String, run: ScheduleRun) {
        self.name = name
        self.run = run
    }

    /// The elements received, in order.
    public var elements: [Element] {
        events.compactMap(\.element)
    }

    public func on(_ event: Event<Element>) {
        if delivering {
            run.violate("\(Self.describe(event)) reached observer \"\(name)\" while another event was being delivered to it (overlapping on)")
        }
        if let last = events.last, last.isStopEvent {
            run.violate("\(Self.describe(event)) reached observer \"\(name)\" after \(Self.describe(last))")
        }
        delivering = true
        run.step("delivers \(Self.describe(event)) to observer \"\(name)\"")
        events.append(event)
        delivering = false
    }

    private static func describe(_ event: Event<Element>) -> String {
        switch event {
        case let .next(element): "next(\(element))"
        case let .error(error): "error(\(error))"
        case .completed: "completed"
        }
    }
}

/// Runs the schedules of one exploration, one after the other.
struct ScheduleExplorer {
    let strategy: ScheduleStrategy
    let schedules: Int
    let patience: Double
    /// A concurrency mutant in force on the exploration's threads only (its spelling).
    var mutant: String? = nil

    /// The steps a failure report shows, at most.
    static let shownSteps = 40

    func explore(_ body: @escaping (ScheduleRun) throws -> Void) -> ScheduleExploration {
        if case let .malformedReplay(problem) = strategy.kind {
            return ScheduleExploration(schedulesRun: 0, exhausted: false, failure: "exploreSchedules ran nothing: \(problem)", failingSchedule: nil)
        }
        #if DEBUG
        var mutantInForce: Mutation.Mutant?
        if let mutant {
            guard let parsed = Mutation.Mutant(mutant) else {
                return ScheduleExploration(schedulesRun: 0, exhausted: false, failure: "exploreSchedules ran nothing: the mutant \"\(mutant)\" is not spelled KIND@Module/File.swift:LINE", failingSchedule: nil)
            }
            mutantInForce = parsed
        }
        var previous: ScheduleChooser?
        var index = 0
        var ranOut = false
        while index < schedules {
            guard let chooser = strategy.chooser(index: index, previous: previous) else {
                ranOut = true
                break
            }
            let controller = ScheduleController(chooser: chooser, mutant: mutantInForce)
            let run = ScheduleRun(index: index, controller: controller)
            let thrown = ThrownError()
            let transfer = UnsafeTransfer(body)
            controller.run(patience: patience) {
                do { try transfer.value(run) } catch { thrown.error = error }
            }
            controller.releaseParked()
            index += 1
            var problem: String?
            switch controller.outcome {
            case let .deadlock(blocked)?: problem = "deadlock: \(ScheduleController.describe(blocked, owners: controller.lockOwners))"
            case let .stalled(text)?: problem = "stalled: \(text)"
            case let .violation(text)?: problem = "broken Rx grammar: \(text)"
            case let .dataRace(text)?: problem = "data race: \(text)"
            case nil:
                if let error = thrown.error {
                    problem = "the body threw \(error)"
                } else {
                    for check in run.checks {
                        do { try check() } catch { problem = "a check failed: \(error)"; break }
                    }
                    let open = controller.tracker.stillOpen
                    if problem == nil, run.expectsEverySubscriptionEnded, !open.isEmpty {
                        problem = "subscriptions still open after every thread finished: \(open.joined(separator: ", "))"
                    }
                }
            }
            if let diverged = controller.chooser.replayDiverged {
                problem = (problem.map { $0 + "\n" } ?? "") + "the replayed schedule no longer applies: at step \(diverged.step + 1) it names thread \(diverged.wanted), but only threads \(diverged.enabled.map(String.init).joined(separator: ", ")) could go on (the body changed, or does different work from run to run)"
            }
            if let problem {
                let choices = ScheduleSpelling.spell(controller.chooser.choices)
                return ScheduleExploration(
                    schedulesRun: index,
                    exhausted: false,
                    failure: report(problem, schedule: index, choices: choices, trace: controller.trace),
                    failingSchedule: choices
                )
            }
            var finished = controller.chooser
            finished.longestRun = max(finished.longestRun, previous?.longestRun ?? 0)
            previous = finished
        }
        var exhaustive = false
        if case .exhaustive = strategy.kind { exhaustive = true }
        let exhausted = exhaustive && (ranOut || strategy.chooser(index: index, previous: previous) == nil)
        return ScheduleExploration(schedulesRun: index, exhausted: exhausted, failure: nil, failingSchedule: nil)
        #else
        return ScheduleExploration(
            schedulesRun: 0,
            exhausted: false,
            failure: "exploreSchedules needs a debug build of Rivulet (its synchronization points exist only there); run the tests without -c release",
            failingSchedule: nil
        )
        #endif
    }

    private func report(_ problem: String, schedule: Int, choices: String, trace: [String]) -> String {
        var lines = [
            "Schedule \(schedule) of \(strategy) failed: \(problem)",
            "Replay it with exploreSchedules(.replay(\"\(choices)\"), schedules: 1) { ... }",
        ]
        let shown = trace.suffix(Self.shownSteps)
        lines.append(shown.count < trace.count ? "Its last \(shown.count) of \(trace.count) steps:" : "Its \(trace.count) steps:")
        for (offset, step) in shown.enumerated() {
            lines.append("  \(trace.count - shown.count + offset + 1). \(step)")
        }
        return lines.joined(separator: "\n")
    }
}

/// The error a run's body threw, set on the body's thread and read after the run ended.
private final class ThrownError: @unchecked Sendable {
    var error: (any Error)?
}
