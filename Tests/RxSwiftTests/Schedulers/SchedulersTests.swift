import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("Schedulers", .rxLeakCheck)
struct SchedulersTests {
    @Test("the current-thread scheduler runs the first action at once and queues nested ones in order")
    func trampolineOrder() {
        var log: [String] = []
        #expect(CurrentThreadScheduler.isScheduleRequired)
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            log.append("outer start")
            #expect(!CurrentThreadScheduler.isScheduleRequired)
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                log.append("first nested")
                _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                    log.append("third nested")
                    return Disposables.create()
                }
                return Disposables.create()
            }
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                log.append("second nested")
                return Disposables.create()
            }
            log.append("outer end")
            return Disposables.create()
        }
        #expect(log == ["outer start", "outer end", "first nested", "second nested", "third nested"])
        #expect(CurrentThreadScheduler.isScheduleRequired)
    }

    @Test("a disposed trampoline item does not run")
    func trampolineCancel() {
        var ran = false
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            let item = CurrentThreadScheduler.instance.schedule(()) { _ in
                ran = true
                return Disposables.create()
            }
            item.dispose()
            return Disposables.create()
        }
        #expect(!ran)
    }

    @Test("a serial dispatch queue scheduler runs work in order, off the caller's thread")
    func serialQueueOrder() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rivulet.test.serial")
        let log = LockedBox<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        for index in 0..<100 {
            _ = scheduler.schedule(index) { value in
                log.append(value)
                if value == 99 { done.signal() }
                return Disposables.create()
            }
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(log.value == Array(0..<100))
    }

    @Test("relative scheduling waits at least the due time; disposal cancels it")
    func relativeScheduling() {
        // A serial queue the test holds until the second timer is disposed: whenever that
        // timer fires, its action can only start after the disposal, so the check does
        // not depend on `dispose()` beating the clock.
        let queue = DispatchQueue(label: "relativeScheduling")
        let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
        let held = DispatchSemaphore(value: 0)
        queue.async { _ = held.wait(timeout: .now() + 10) }
        let done = DispatchSemaphore(value: 0)
        let start = Date()
        let elapsed = LockedBox<[Int]>([])
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(50)) { _ in
            elapsed.append(Int(Date().timeIntervalSince(start) * 1000))
            done.signal()
            return Disposables.create()
        }
        let cancelled = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
            elapsed.append(-1)
            return Disposables.create()
        }
        cancelled.dispose()
        held.signal()
        #expect(done.wait(timeout: .now() + 5) == .success)
        // The cancelled timer was due first on the same serial queue: had its action run,
        // it would have run before the one just waited for.
        #expect(elapsed.value.count == 1)
        #expect(elapsed.value[0] >= 45)
    }

    @Test("periodic scheduling on a dispatch queue ticks until disposed")
    func periodic() {
        let scheduler = SerialDispatchQueueScheduler(qos: .userInitiated)
        let ticks = LockedBox<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let disposable = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(2)) { state in
            ticks.append(state)
            if state == 4 { done.signal() }
            return state + 1
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        disposable.dispose()
        #expect(Array(ticks.value.prefix(5)) == [0, 1, 2, 3, 4])
    }

    @Test("an operation queue scheduler runs the action")
    func operationQueue() {
        let queue = OperationQueue()
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let done = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(41) { value in
            #expect(value == 41)
            done.signal()
            return Disposables.create()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
    }

    @Test("interval on a dispatch scheduler delivers increasing values")
    func realInterval() throws {
        let values = try Observable<Int>.interval(.milliseconds(2), scheduler: SerialDispatchQueueScheduler(qos: .default))
            .take(3)
            .toBlockingArray()
        #expect(values == [0, 1, 2])
    }

    @Test("a virtual time scheduler runs work in time order, then in scheduling order")
    func virtualOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        scheduler.scheduleAt(20) { log.append("b@\(scheduler.clock)") }
        scheduler.scheduleAt(10) { log.append("a@\(scheduler.clock)") }
        scheduler.scheduleAt(20) { log.append("c@\(scheduler.clock)") }
        scheduler.start()
        #expect(log == ["a@10", "b@20", "c@20"])
        #expect(scheduler.clock == 20)
    }

    @Test("advanceTo runs work up to the time and sets the clock; sleep only moves the clock")
    func advanceAndSleep() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [Int] = []
        scheduler.scheduleAt(10) { log.append(10) }
        scheduler.scheduleAt(30) { log.append(30) }
        scheduler.advanceTo(20)
        #expect(log == [10])
        #expect(scheduler.clock == 20)
        scheduler.sleep(5)
        #expect(scheduler.clock == 25)
        #expect(log == [10])
        scheduler.start()
        #expect(log == [10, 30])
    }

    @Test("stop halts start after the current action")
    func stop() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [Int] = []
        scheduler.scheduleAt(10) {
            log.append(10)
            scheduler.stop()
        }
        scheduler.scheduleAt(20) { log.append(20) }
        scheduler.start()
        #expect(log == [10])
        scheduler.start()
        #expect(log == [10, 20])
    }

    @Test("work due now runs one tick later with the processing delay, at once without it")
    func processingDelay() {
        for (delay, expected) in [(true, 11), (false, 10)] {
            let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: delay)
            var ranAt = -1
            scheduler.scheduleAt(10) {
                _ = scheduler.schedule(()) { _ in
                    ranAt = scheduler.clock
                    return Disposables.create()
                }
            }
            scheduler.start()
            #expect(ranAt == expected)
        }
    }

    @Test("the resolution converts intervals to ticks, rounding half up")
    func resolution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
        var times: [Int] = []
        scheduler.scheduleAt(0) {
            for seconds in [0.04, 0.05, 0.26, 1.0] {
                _ = scheduler.scheduleRelative((), dueTime: .fromSecondsForTest(seconds)) { _ in
                    times.append(scheduler.clock)
                    return Disposables.create()
                }
            }
        }
        scheduler.start()
        #expect(times == [1, 1, 3, 10])
    }

    @Test("a historical scheduler's clock is a date")
    func historical() {
        let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 100))
        var ranAt: Date?
        _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
            ranAt = scheduler.now
            return Disposables.create()
        }
        scheduler.start()
        #expect(ranAt == Date(timeIntervalSince1970: 105))
    }

    @Test("observe(on:) a test scheduler delivers each queued event one tick after the previous")
    func observeOnVirtual() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .next(220, 3), .completed(230)])
        let result = scheduler.start { xs.observe(on: scheduler) }
        #expect(result.events == [.next(211, 1), .next(212, 2), .next(221, 3), .completed(231)])
        // A testable observable enters a chain through `asObservable()`, whose sink
        // ends the source's subscription when the terminal event passes it (230),
        // before observe(on:) delivers that event (231) — as in RxSwift.
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test("subscribe(on:) subscribes and disposes on the scheduler")
    func subscribeOnVirtual() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let result = scheduler.start(disposed: 300) { xs.subscribe(on: scheduler) }
        #expect(result.events == [.next(210, 1), .next(220, 2)])
        #expect(xs.subscriptions == [Subscription(201, 301)])
    }
}

extension DispatchTimeInterval {
    static func fromSecondsForTest(_ seconds: Double) -> DispatchTimeInterval {
        .nanoseconds(Int((seconds * 1_000_000_000).rounded()))
    }
}

extension ObservableType {
    func toBlockingArray(timeout: TimeInterval = 5) throws -> [Element] {
        let log = LockedBox<[Element]>([])
        let done = DispatchSemaphore(value: 0)
        let failure = LockedBox<Error?>(nil)
        let subscription = subscribe(
            onNext: { value in log.mutate { $0.append(value) } },
            onError: { error in failure.mutate { $0 = error }; done.signal() },
            onCompleted: { done.signal() }
        )
        defer { subscription.dispose() }
        guard done.wait(timeout: .now() + timeout) == .success else { throw RxError.timeout }
        if let error = failure.value { throw error }
        return log.value
    }
}

