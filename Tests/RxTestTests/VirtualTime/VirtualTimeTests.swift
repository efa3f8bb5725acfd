import Foundation
import RxSwift
import RxTest
import Testing

/// The beat of a metronome that, like the metronome example's before it took a beat scheduler,
/// ticks on `MainScheduler.instance`: 8 beats of a 4/4 bar at 120 BPM, one every half second.
private struct Metronome {
    let beats: Observable<String>

    init(beatsPerBar: Int = 4, period: RxTimeInterval = .milliseconds(500)) {
        beats = Observable<Int>.interval(period, scheduler: MainScheduler.instance)
            .map { $0 % beatsPerBar == 0 ? "first" : "regular" }
            .take(8)
    }
}

@Suite("Virtual time: the main schedulers stand in for the test scheduler")
struct VirtualTimeTests {
    @Test("MainScheduler.instance schedules on the test's scheduler", .virtualTime)
    func mainSchedulerInstanceIsVirtual() {
        let scheduler = TestScheduler.current
        let res = scheduler.start { Observable<Int>.timer(.seconds(5), scheduler: MainScheduler.instance) }
        #expect(res.events == [.next(205, 0), .completed(205)])
        #expect(MainScheduler.instance.now == scheduler.now)
    }

    @Test("observe(on: MainScheduler.instance) delivers at once, as on the main thread", .virtualTime)
    func observeOnMainInstance() {
        let scheduler = TestScheduler.current
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.observe(on: MainScheduler.instance) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
    }

    @Test("observe(on: MainScheduler.asyncInstance) always queues: a tick later", .virtualTime)
    func observeOnMainAsyncInstance() {
        let scheduler = TestScheduler.current
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.observe(on: MainScheduler.asyncInstance) }
        #expect(res.events == [.next(211, 1), .next(221, 2), .completed(231)])
    }

    @Test("work queued on MainScheduler.instance makes the next work queue behind it", .virtualTime)
    func mainInstanceQueuesBehindQueuedWork() {
        let scheduler = TestScheduler.current
        var order: [String] = []
        scheduler.scheduleAt(10) {
            _ = MainScheduler.asyncInstance.schedule(()) { _ in order.append("async@\(scheduler.clock)"); return Disposables.create() }
            _ = MainScheduler.instance.schedule(()) { _ in order.append("instance@\(scheduler.clock)"); return Disposables.create() }
        }
        scheduler.scheduleAt(20) {
            _ = MainScheduler.instance.schedule(()) { _ in order.append("idle@\(scheduler.clock)"); return Disposables.create() }
        }
        scheduler.start()
        // The stand-ins share nothing queued at 10, so instance runs at once; at 20 it is idle again.
        #expect(order == ["instance@10", "async@11", "idle@20"])
    }

    @Test("a MainScheduler() made anywhere forwards the test's work", .virtualTime)
    func plainMainSchedulerForwards() {
        let scheduler = TestScheduler.current
        let made = MainScheduler()
        let res = scheduler.start {
            Observable<Int>.interval(.seconds(10), scheduler: made).take(2)
        }
        #expect(res.events == [.next(210, 0), .next(220, 1), .completed(220)])
        #expect(made.now == scheduler.now)
    }

    @Test("ConcurrentMainScheduler subscribes at once on the test's scheduler", .virtualTime)
    func concurrentMainScheduler() {
        let scheduler = TestScheduler.current
        let xs = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
        let res = scheduler.start { xs.subscribe(on: ConcurrentMainScheduler.instance) }
        #expect(res.events == [.next(210, "a"), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test("the main-thread check passes on the test's task", .virtualTime)
    func mainThreadCheckPasses() {
        MainScheduler.ensureExecutingOnScheduler()
        MainScheduler.ensureRunningOnMainThread()
        #expect(TestScheduler.currentIfInstalled != nil)
    }

    @Test("outside virtual time the main schedulers are the real ones")
    func outsideVirtualTime() {
        #expect(TestScheduler.currentIfInstalled == nil)
        #expect(MainScheduler.instance === MainScheduler.instance)
        #expect(abs(MainScheduler.instance.now.timeIntervalSinceNow) < 60)
        let outside = MainScheduler.instance
        withVirtualTime { scheduler in
            #expect(MainScheduler.instance !== outside)
            #expect(MainScheduler.instance === MainScheduler.instance)
            #expect(TestScheduler.current === scheduler)
        }
        #expect(MainScheduler.instance === outside)
    }

    @Test("the metronome beats without an injected scheduler", .virtualTime(initialClock: 0, resolution: 0.1))
    func metronomeWithoutInjection() {
        let scheduler = TestScheduler.current
        let metronome = Metronome()
        let beat = scheduler.createObserver(String.self)
        let subscription = metronome.beats.subscribe(beat)
        scheduler.start()
        subscription.dispose()
        #expect(beat.events == [
            .next(5, "first"), .next(10, "regular"), .next(15, "regular"), .next(20, "regular"),
            .next(25, "first"), .next(30, "regular"), .next(35, "regular"), .next(40, "regular"),
            .completed(40),
        ])
    }

    @Test("the metronome: 4/32 at a finer resolution", .virtualTime(initialClock: 0, resolution: 0.01))
    func metronomeBy32() {
        let scheduler = TestScheduler.current
        let metronome = Metronome(period: .microseconds(62_500))
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { metronome.beats }
        #expect(res.events.map(\.time) == [6, 12, 18, 24, 30, 36, 42, 48, 48])
    }

    @Test("each test case has its own scheduler, in parallel", .virtualTime, arguments: 1...24)
    func parallelCasesAreIsolated(seconds: Int) {
        let scheduler = TestScheduler.current
        #expect(scheduler.clock == 0)
        let res = scheduler.start {
            Observable<Int>.interval(.seconds(seconds), scheduler: MainScheduler.instance).take(3)
        }
        #expect(res.events == [
            .next(200 + seconds, 0), .next(200 + 2 * seconds, 1), .next(200 + 3 * seconds, 2), .completed(200 + 3 * seconds),
        ])
        #expect(TestScheduler.current === scheduler)
    }

    @Test("concurrent substitutions on many threads never see each other's scheduler")
    func concurrentSubstitutions() async {
        let results = await withTaskGroup(of: Bool.self, returning: [Bool].self) { group in
            for seconds in 1...32 {
                group.addTask {
                    withVirtualTime { scheduler in
                        var ok = true
                        for _ in 0..<20 {
                            let res = scheduler.start(created: scheduler.clock, subscribed: scheduler.clock, disposed: scheduler.clock + 1000) {
                                Observable<Int>.timer(.seconds(seconds), scheduler: MainScheduler.instance)
                            }
                            let expected = res.events.first.map { $0.time } ?? -1
                            ok = ok && res.events.count == 2 && TestScheduler.current === scheduler
                                && expected == scheduler.clock - 1000 + seconds
                        }
                        return ok
                    }
                }
            }
            var all: [Bool] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 32)
        #expect(results.allSatisfy { $0 })
    }

    @Test("a failing expectation in virtual time reports the usual text", .virtualTime)
    func failingExpectationReportsText() {
        let scheduler = TestScheduler.current
        let res = scheduler.start { Observable<Int>.timer(.seconds(5), scheduler: MainScheduler.instance) }
        let failures = capturingFailures {
            expectEvents(res, equal: [.next(205, 1), .completed(205)])
        }
        #expect(failures.map(\.message) == ["""
            Recorded events differ at index 0: expected next(1) @ 205, got next(0) @ 205
            expected: -(1|)
            actual:   -(0|)
                       ^ first difference (time 205)
            one column = 205 ticks, first column = time 0
            expected events (2): [next(1) @ 205, completed @ 205]
            actual events (2):   [next(0) @ 205, completed @ 205]
            """])
    }

    @Test("TestScheduler.current outside a virtual-time test stops with a clear message")
    func currentOutsideStops() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestScheduler.current
        }.map { result in
            let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(stderr.contains("Rivulet: TestScheduler.current was read outside a virtual-time test: add the .virtualTime trait to the test, or run the code inside withVirtualTime { scheduler in ... }."))
        }
    }
}

@Suite("Virtual time on a whole suite", .virtualTime(initialClock: 50))
struct VirtualTimeSuiteTests {
    @Test("every test starts at the suite's initial clock", arguments: 0..<4)
    func startsAtInitialClock(step: Int) {
        let scheduler = TestScheduler.current
        #expect(scheduler.clock == 50)
        scheduler.advanceTo(50 + step * 10)
        #expect(scheduler.clock == 50 + step * 10)
    }
}
