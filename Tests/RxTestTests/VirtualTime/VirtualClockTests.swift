import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

/// Runs `work` (each in a child task, in order) beside `body`, then cancels what is
/// left of it: when the clock misbehaves, the expectations in `body` fail and the work
/// ends instead of waiting for a wake-up that never comes.
private func alongside(_ work: [@Sendable () async throws -> Void], _ body: () async -> Void) async {
    await withTaskGroup(of: Void.self) { group in
        for item in work {
            group.addTask { try? await item() }
        }
        await body()
        group.cancelAll()
    }
}

/// A default actor: called from a virtual-time test, it runs on the test's executor.
private actor Store {
    private(set) var entries: [String] = []

    func add(_ entry: String) {
        entries.append(entry)
    }
}

@Suite("Virtual clock: one deterministic time for Rx and Swift concurrency")
struct VirtualClockTests {
    @Test("a sleep wakes at its deadline's tick, before advance returns", .virtualTime)
    func sleepWakesAtDeadline() async throws {
        let scheduler = TestScheduler.current
        let clock = scheduler.asyncClock
        let log = LockedBox<[String]>([])
        async let sleeper: Void = {
            try await clock.sleep(for: .seconds(5))
            log.append("woke at \(scheduler.clock)")
        }()
        await scheduler.advance(byTicks: 4)
        #expect(log.value == [])
        #expect(scheduler.clock == 4)
        await scheduler.advance(byTicks: 1)
        #expect(log.value == ["woke at 5"])
        try await sleeper
    }

    @Test("sleeps, Rx timers and subjects interleave in virtual time order", .virtualTime)
    func interleavesWithRx() async throws {
        let scheduler = TestScheduler.current
        let clock = scheduler.asyncClock
        let log = LockedBox<[String]>([])
        let subject = PublishSubject<Int>()
        let events = scheduler.createObserver(Int.self)
        let subscriptions = CompositeDisposable()
        _ = subscriptions.insert(subject.subscribe(events))
        _ = subscriptions.insert(
            Observable<Int>.interval(.seconds(3), scheduler: MainScheduler.instance).take(2)
                .subscribe(onNext: { log.append("timer \($0) at \(scheduler.clock)") })
        )
        await alongside([{
            for value in 1...3 {
                try await clock.sleep(for: .seconds(2))
                log.append("sleeper \(value) at \(scheduler.clock)")
                subject.onNext(value)
            }
            subject.onCompleted()
        }]) {
            await scheduler.advance(toTick: 10)
        }
        subscriptions.dispose()
        #expect(log.value == [
            "sleeper 1 at 2", "timer 0 at 3", "sleeper 2 at 4", "timer 1 at 6", "sleeper 3 at 6",
        ])
        #expect(events.events == [.next(2, 1), .next(4, 2), .next(6, 3), .completed(6)])
        #expect(scheduler.clock == 10)
    }

    @Test("for try await over values sees each element at its tick", .virtualTime)
    func valuesBridge() async throws {
        let scheduler = TestScheduler.current
        let ticks = Observable<Int>.interval(.seconds(10), scheduler: MainScheduler.instance).take(3)
        async let seen: [String] = {
            var seen: [String] = []
            for try await value in ticks.values {
                seen.append("\(value) at \(scheduler.clock)")
            }
            seen.append("finished at \(scheduler.clock)")
            return seen
        }()
        await scheduler.advance(byTicks: 30)
        #expect(try await seen == ["0 at 10", "1 at 20", "2 at 30", "finished at 30"])
    }

    @Test("await single.value resumes at the single's tick", .virtualTime)
    func valueBridge() async throws {
        let scheduler = TestScheduler.current
        let log = LockedBox<[String]>([])
        async let result: Int = {
            let value = try await Single<Int>.timer(.seconds(7), scheduler: MainScheduler.instance).value
            log.append("value \(value) at \(scheduler.clock)")
            return value
        }()
        await scheduler.advance(byTicks: 6)
        #expect(log.value == [])
        await scheduler.advance(byTicks: 1)
        #expect(log.value == ["value 0 at 7"])
        #expect(try await result == 0)
    }

    @Test("an Observable made from async work that sleeps on the clock", .virtualTime)
    func asyncCreateSleepsOnClock() async throws {
        let scheduler = TestScheduler.current
        let clock = scheduler.asyncClock
        let observer = scheduler.createObserver(Int.self)
        let subscription = Observable<Int>.create { emit in
            for value in 1...3 {
                try await clock.sleep(for: .seconds(value))
                emit(value)
            }
        }
        .subscribe(observer)
        await scheduler.advance(byTicks: 10)
        subscription.dispose()
        #expect(observer.events == [.next(1, 1), .next(3, 2), .next(6, 3), .completed(6)])
    }

    @Test("run() runs until no work is left, waiting for the tasks after each action", .virtualTime)
    func runDrainsEverything() async throws {
        let scheduler = TestScheduler.current
        let clock = scheduler.asyncClock
        let log = LockedBox<[String]>([])
        await alongside([{
            for step in 1...4 {
                try await clock.sleep(for: .seconds(step * 10))
                log.append("step \(step) at \(scheduler.clock)")
            }
        }]) {
            await scheduler.run()
        }
        #expect(log.value == ["step 1 at 10", "step 2 at 30", "step 3 at 60", "step 4 at 100"])
    }

    @Test("instants are ticks times the resolution; deadlines round up to a tick", .virtualTime(resolution: 0.1))
    func instantsAndRounding() async throws {
        let scheduler = TestScheduler.current
        let clock = scheduler.asyncClock
        #expect(clock.minimumResolution == .milliseconds(100))
        #expect(clock.now == VirtualClock.Instant(offset: .zero))
        let start = clock.now
        async let sleeper: TestTime = {
            try await clock.sleep(until: start.advanced(by: .milliseconds(250)), tolerance: nil)
            return scheduler.clock
        }()
        await scheduler.advance(by: .milliseconds(500))
        #expect(try await sleeper == 3)
        #expect(clock.now == start.advanced(by: .milliseconds(500)))
        #expect(scheduler.clock == 5)
        // A deadline already reached returns at once, without scheduling anything.
        try await clock.sleep(until: start, tolerance: nil)
        #expect(scheduler.clock == 5)
    }

    @Test("cancelling a sleeping task throws CancellationError and removes its wake-up", .virtualTime)
    func cancellation() async throws {
        let scheduler = TestScheduler.current
        let clock = scheduler.asyncClock
        let outcome = await withTaskGroup(of: String.self, returning: String.self) { group in
            group.addTask {
                do {
                    try await clock.sleep(for: .seconds(100))
                    return "woke"
                } catch is CancellationError {
                    return "cancelled at \(scheduler.clock)"
                } catch {
                    return "other error"
                }
            }
            await scheduler.advance(byTicks: 5)
            #expect(scheduler.hasPendingWork)
            group.cancelAll()
            return await group.next() ?? "nothing"
        }
        #expect(outcome == "cancelled at 5")
        #expect(!scheduler.hasPendingWork)
    }

    @Test("the awaiting side is resumed deterministically, in parallel", .virtualTime, arguments: 0..<40)
    func deterministicUnderParallelism(seed: Int) async throws {
        let scheduler = TestScheduler.current
        let clock = scheduler.asyncClock
        let log = LockedBox<[String]>([])
        let period = 1 + seed % 5
        await alongside([
            {
                for index in 0..<5 {
                    try await clock.sleep(for: .seconds(period))
                    log.append("a\(index)@\(scheduler.clock)")
                }
            },
            {
                for try await value in Observable<Int>.interval(.seconds(period), scheduler: MainScheduler.instance).take(5).values {
                    log.append("b\(value)@\(scheduler.clock)")
                }
            },
        ]) {
            await scheduler.advance(byTicks: 5 * period)
        }
        var expected: [String] = []
        for index in 0..<5 {
            // At each tick the sleeper's wake-up was scheduled first (the first child task
            // starts first; then each wake-up is scheduled before the interval's next tick).
            expected.append("a\(index)@\((index + 1) * period)")
            expected.append("b\(index)@\((index + 1) * period)")
        }
        #expect(log.value == expected)
    }

    @Test("resumed code that needs many turns of the executor finishes before advance returns", .virtualTime)
    func resumedCodeRunsToItsNextSuspension() async throws {
        let scheduler = TestScheduler.current
        let clock = scheduler.asyncClock
        let store = Store()
        await alongside([{
            for round in 1...3 {
                try await clock.sleep(for: .seconds(10))
                // After waking: yields, an actor hop and child tasks before the result is
                // stored, all at the tick that woke it.
                for _ in 0..<25 { await Task.yield() }
                let parts = await withTaskGroup(of: Int.self, returning: Int.self) { group in
                    for part in 1...4 { group.addTask { await Task.yield(); return part } }
                    var sum = 0
                    for await part in group { sum += part }
                    return sum
                }
                await store.add("round \(round) at \(scheduler.clock), parts \(parts)")
            }
        }]) {
            await scheduler.advance(byTicks: 10)
            #expect(await store.entries == ["round 1 at 10, parts 10"])
            await scheduler.advance(byTicks: 15)
            #expect(await store.entries == ["round 1 at 10, parts 10", "round 2 at 20, parts 10"])
            await scheduler.advance(toTick: 30)
            #expect(await store.entries == ["round 1 at 10, parts 10", "round 2 at 20, parts 10", "round 3 at 30, parts 10"])
        }
    }

    @Test("withVirtualTime runs async code the same way without the trait")
    func withVirtualTimeAsync() async throws {
        let seen = try await withVirtualTime { scheduler in
            let clock = scheduler.asyncClock
            async let woke: TestTime = {
                try await clock.sleep(for: .seconds(3))
                return scheduler.clock
            }()
            await scheduler.advance(byTicks: 3)
            return try await woke
        }
        #expect(seen == 3)
    }

    @Test("advance(toTick:) into the past stops with a clear message")
    func advanceBackwardsStops() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler(initialClock: 100)
            await scheduler.advance(toTick: 50)
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(stderr.contains("Rivulet: advance(toTick: 50) cannot move the clock back: it is already at 100."))
        }
    }
}
