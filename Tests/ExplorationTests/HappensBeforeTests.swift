import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

/// The explorer's happens-before: two threads' accesses of what a lock or a once-flag
/// guards, with nothing ordering them, fail the schedule as a data race, even where no
/// order of steps changes an outcome. Shown with concurrency mutants in force on one
/// exploration's threads only (`exploreSchedulesQuietly(mutant:)`), so the tests beside
/// these do not see them.
@Suite struct HappensBeforeTests {
    /// Two threads each remove one disposable of a composite.
    private static func twoRemovals(_ run: ScheduleRun) {
        let composite = CompositeDisposable()
        let keys = UnsafeTransfer(["first", "second"].map { _ in composite.insert(Disposables.create()) })
        for (name, key) in zip(["one", "two"], keys.value) {
            run.thread(name) { key.map { composite.remove(for: $0) } }
        }
        run.expect({ composite.count == 0 }) { "\(composite.count) disposables left" }
    }

    @Test func sectionsOfOneLockAreOrderedByIt() {
        let exploration = exploreSchedulesQuietly(.pct(depth: 3, seed: 1), schedules: 200, Self.twoRemovals)
        #expect(exploration.failure == nil, "\(exploration.failure ?? "")")
    }

    @Test func aSectionRunWithoutItsLockRacesWithTheOtherThreadsSection() throws {
        let line = try Self.line(of: "let removed = group.withLock", inFile: "Disposables/CompositeDisposable.swift")
        let exploration = exploreSchedulesQuietly(.pct(depth: 3, seed: 1), schedules: 200, mutant: "unlocked@RxSwift/CompositeDisposable.swift:\(line)", Self.twoRemovals)
        let failure = try #require(exploration.failure)
        // Removing two different keys gives the same outcome in every order of steps:
        // only the race tells the lock is gone.
        #expect(failure.contains("data race: thread "), "\(failure)")
        #expect(failure.contains("CompositeDisposable.swift:\(line), and thread "), "\(failure)")
        #expect(failure.contains("with no lock, atomic, queue or thread start ordering the two"), "\(failure)")
        #expect(exploration.failingSchedule != nil)
    }

    @Test func aOnceFlagSplitInTwoLetsTwoThreadsTakeWhatItGuards() throws {
        let line = try Self.line(of: "Interleaving.access(self, at: SyncSite(#fileID, #line))\n        let action", inFile: "Disposables/Disposable.swift") - 1
        let body: (ScheduleRun) -> Void = { run in
            let disposable = Disposables.create {}
            for name in ["one", "two"] {
                run.thread(name, disposing: disposable)
            }
        }
        #expect(exploreSchedulesQuietly(.pct(depth: 2, seed: 3), schedules: 200, body).failure == nil)
        let failure = try #require(exploreSchedulesQuietly(.pct(depth: 2, seed: 3), schedules: 200, mutant: "splitAtomic@RxSwift/Disposable.swift:\(line)", body).failure)
        #expect(failure.contains("data race: thread "), "\(failure)")
        #expect(failure.contains("the data a lock or a once-flag guards at RxSwift/Disposable.swift:\(line + 1)"), "\(failure)")
    }

    @Test func aSubscriptionThatReportsItsEndTwiceFailsTheSchedule() throws {
        // The token's once-flag answering "first" at its release: a subscription that
        // completed, then was released, reports its end a second time.
        let line = try Self.line(of: "package func release() {\n        if done.testAndSet() { return }", inFile: "TestKitHooks/Tracking.swift") + 1
        let body: (ScheduleRun) -> Void = { run in
            run.thread("subscriber") {
                _ = Observable.just(1).map { $0 + 1 }.subscribe()
            }
        }
        #expect(exploreSchedulesQuietly(.pct(depth: 2, seed: 1), schedules: 5, body).failure == nil)
        let failure = try #require(exploreSchedulesQuietly(.pct(depth: 2, seed: 1), schedules: 5, mutant: "alwaysFirst@RxSwift/Tracking.swift:\(line)", body).failure)
        #expect(failure.contains("reported its end twice"), "\(failure)")
    }

    @Test func aMalformedMutantRunsNothing() {
        let exploration = exploreSchedulesQuietly(.pct(depth: 2, seed: 1), schedules: 5, mutant: "unlocked@CompositeDisposable") { _ in }
        #expect(exploration.schedulesRun == 0)
        #expect(exploration.failure?.contains("\"unlocked@CompositeDisposable\" is not spelled KIND@Module/File.swift:LINE") == true)
    }

    @Test func aMutantOfOneExplorationIsNotInForceOutsideIt() throws {
        let line = try Self.line(of: "let removed = group.withLock", inFile: "Disposables/CompositeDisposable.swift")
        let mutant = try #require(Mutation.Mutant("unlocked@RxSwift/CompositeDisposable.swift:\(line)"))
        _ = exploreSchedulesQuietly(.pct(depth: 3, seed: 1), schedules: 1, mutant: mutant.description, Self.twoRemovals)
        #expect(Mutation.current == nil)
    }

    /// The line of `Sources/RxSwift/<file>` where `text` starts; it must start on one line only.
    static func line(of text: String, inFile file: String) throws -> Int {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/RxSwift")
        let contents = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
        let ranges = contents.ranges(of: text)
        try #require(ranges.count == 1, "\"\(text)\" is in \(file) \(ranges.count) times")
        return contents[..<ranges[0].lowerBound].count(where: { $0 == "\n" }) + 1
    }
}
