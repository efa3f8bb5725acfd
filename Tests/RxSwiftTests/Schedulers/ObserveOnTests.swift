import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing
import XCTest

// observe(on:) on a serial dispatch queue delivers the events waiting in batches: one
// dispatch when the queue goes from idle to busy, then a drain that delivers every
// waiting event in order. These tests pin down what must not change: the order, one
// event at a time, on the scheduler's queue, nothing after disposal, and the terminal
// event last. Every wait is bounded.

/// A serial scheduler whose queue carries a marker, so an observer can tell it runs there.
private func markedScheduler(_ name: String) -> (SerialDispatchQueueScheduler, DispatchSpecificKey<String>) {
    let key = DispatchSpecificKey<String>()
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: name, serialQueueConfiguration: { queue in
        queue.setSpecific(key: key, value: name)
    })
    return (scheduler, key)
}

/// Runs `body` on `scheduler`'s queue and waits for it (at most 10 s).
private func onQueue(_ scheduler: SerialDispatchQueueScheduler, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    _ = scheduler.schedule(()) { _ in
        body()
        done.signal()
        return Disposables.create()
    }
    return done.wait(timeout: .now() + 10) == .success
}

/// Blocks `scheduler`'s queue until the returned semaphore is signalled (or 10 s have
/// passed), so that the events sent meanwhile wait together.
private func holdQueue(_ scheduler: SerialDispatchQueueScheduler) -> DispatchSemaphore {
    let gate = DispatchSemaphore(value: 0)
    _ = scheduler.schedule(()) { _ in
        _ = gate.wait(timeout: .now() + 10)
        return Disposables.create()
    }
    return gate
}

/// Records elements with the queue each arrived on.
private final class QueueRecorder: ObserverType, @unchecked Sendable {
    private let key: DispatchSpecificKey<String>
    private let expectedQueue: String
    private let received = GrammarCheckingObserver<Int>()
    private let offQueue = LockedBox(0)

    init(key: DispatchSpecificKey<String>, queue: String) {
        self.key = key
        self.expectedQueue = queue
    }

    func on(_ event: Event<Int>) {
        if DispatchQueue.getSpecific(key: key) != expectedQueue { offQueue.increment() }
        received.on(event)
    }

    func waitForTerminal() -> Bool {
        received.waitForTerminal(seconds: 20)
    }

    var elements: [Int] { received.elements }
    var terminal: Event<Int>? { received.terminal }
    var deliveriesOffQueue: Int { offQueue.value }
}

@Suite("observe(on:) on a serial dispatch queue", .rxLeakCheck)
struct ObserveOnSerialQueueTests {
    @Test("many elements arrive in order, on the queue, then the completion")
    func orderUnderManyEvents() {
        let (scheduler, key) = markedScheduler("observe-on.order")
        let recorder = QueueRecorder(key: key, queue: "observe-on.order")
        let subject = PublishSubject<Int>()
        let subscription = subject.observe(on: scheduler).subscribe(recorder)
        let count = 100_000
        for value in 0..<count { subject.onNext(value) }
        subject.onCompleted()
        #expect(recorder.waitForTerminal())
        #expect(recorder.elements == Array(0..<count))
        #expect(recorder.terminal?.isCompleted == true)
        #expect(recorder.deliveriesOffQueue == 0)
        subscription.dispose()
    }

    @Test("concurrent senders through merge: every element once, each sender's in its order, one at a time")
    func concurrentSenders() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on.concurrent")
        let senders = (0..<4).map { _ in PublishSubject<Int>() }
        let observer = GrammarCheckingObserver<Int>()
        let subscription = Observable.merge(senders.map { $0.asObservable() })
            .observe(on: scheduler)
            .subscribe(observer)
        let perSender = 3_000
        let subjects = UnsafeTransfer(senders)
        let finished = runConcurrently(threads: senders.count) { index in
            let subject = subjects.value[index]
            for step in 0..<perSender { subject.onNext(index * perSender + step) }
            subject.onCompleted()
        }
        #expect(finished)
        #expect(observer.waitForTerminal(seconds: 20))
        let seen = observer.snapshot
        #expect(seen.elements.count == senders.count * perSender)
        for index in 0..<senders.count {
            let own = seen.elements.filter { $0 / perSender == index }
            #expect(own == Array((index * perSender)..<((index + 1) * perSender)))
        }
        #expect(seen.overlaps == 0)
        #expect(seen.terminals == 1)
        #expect(seen.afterTerminal == 0)
        subscription.dispose()
    }

    @Test("disposing in the middle of a batch: nothing is delivered afterwards")
    func disposeMidway() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on.dispose")
        let subject = PublishSubject<Int>()
        let received = LockedBox<[Int]>([])
        let subscription = SingleAssignmentDisposable()
        // Hold the queue so that every element below waits in one batch.
        let gate = holdQueue(scheduler)
        subscription.setDisposable(subject.observe(on: scheduler).subscribe(onNext: { value in
            received.mutate { $0.append(value) }
            if value == 99 { subscription.dispose() }
        }, onCompleted: {
            received.mutate { $0.append(-1) }
        }))
        for value in 0..<1_000 { subject.onNext(value) }
        subject.onCompleted()
        gate.signal()
        #expect(onQueue(scheduler) {})
        #expect(received.value == Array(0..<100))
        // Later events are dropped too.
        subject.onNext(5_000)
        #expect(onQueue(scheduler) {})
        #expect(received.value == Array(0..<100))
    }

    @Test("disposing from another thread while a batch waits: none of it arrives")
    func disposeWhileWaiting() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on.dispose-waiting")
        let subject = PublishSubject<Int>()
        let received = LockedBox<[Int]>([])
        let gate = holdQueue(scheduler)
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { value in
            received.mutate { $0.append(value) }
        })
        for value in 0..<500 { subject.onNext(value) }
        subscription.dispose()
        gate.signal()
        #expect(onQueue(scheduler) {})
        #expect(received.value.isEmpty)
    }

    @Test("the completion arrives after every element, and once")
    func completionAfterElements() {
        let (scheduler, key) = markedScheduler("observe-on.completion")
        let recorder = QueueRecorder(key: key, queue: "observe-on.completion")
        let subject = PublishSubject<Int>()
        let gate = holdQueue(scheduler)
        let subscription = subject.observe(on: scheduler).subscribe(recorder)
        for value in 0..<50 { subject.onNext(value) }
        subject.onCompleted()
        subject.onNext(99)
        gate.signal()
        #expect(recorder.waitForTerminal())
        #expect(onQueue(scheduler) {})
        #expect(recorder.elements == Array(0..<50))
        #expect(recorder.terminal?.isCompleted == true)
        #expect(recorder.deliveriesOffQueue == 0)
        subscription.dispose()
    }

    @Test("an error arrives after every element, on the queue")
    func errorAfterElements() {
        let (scheduler, key) = markedScheduler("observe-on.error")
        let recorder = QueueRecorder(key: key, queue: "observe-on.error")
        let subject = PublishSubject<Int>()
        let subscription = subject.observe(on: scheduler).subscribe(recorder)
        for value in 0..<20 { subject.onNext(value) }
        subject.onError(testError)
        #expect(recorder.waitForTerminal())
        #expect(recorder.elements == Array(0..<20))
        #expect(recorder.terminal?.error as? TestError == testError)
        #expect(recorder.deliveriesOffQueue == 0)
        subscription.dispose()
    }

    @Test("a terminal event alone is delivered on the queue")
    func terminalAlone() {
        let (scheduler, key) = markedScheduler("observe-on.terminal-alone")
        let recorder = QueueRecorder(key: key, queue: "observe-on.terminal-alone")
        let subscription = Observable<Int>.empty().observe(on: scheduler).subscribe(recorder)
        #expect(recorder.waitForTerminal())
        #expect(recorder.elements.isEmpty)
        #expect(recorder.terminal?.isCompleted == true)
        #expect(recorder.deliveriesOffQueue == 0)
        subscription.dispose()
    }

    @Test("an element sent from inside a delivery is delivered after the current one, in the same drain")
    func reentrantSend() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on.reentrant")
        let subject = PublishSubject<Int>()
        let received = LockedBox<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let sender = UnsafeTransfer(subject)
        // Hold the queue so that the five elements wait together.
        let gate = holdQueue(scheduler)
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { value in
            received.mutate { $0.append(value) }
            if value < 5 { sender.value.onNext(value + 10) }
            if value == 14 { done.signal() }
        })
        for value in 0..<5 { subject.onNext(value) }
        gate.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(received.value == [0, 1, 2, 3, 4, 10, 11, 12, 13, 14])
        subscription.dispose()
    }

    @Test("events waiting together are delivered in one turn: work queued between them runs after both (a known difference from RxSwift)")
    func waitingEventsShareOneTurn() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on.turns")
        let subject = PublishSubject<Int>()
        let log = LockedBox<[String]>([])
        let gate = holdQueue(scheduler)
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { value in
            log.mutate { $0.append("element \(value)") }
        })
        subject.onNext(1)
        _ = scheduler.schedule(()) { _ in
            log.mutate { $0.append("other work") }
            return Disposables.create()
        }
        subject.onNext(2)
        gate.signal()
        #expect(onQueue(scheduler) {})
        #expect(log.value == ["element 1", "element 2", "other work"])
        subscription.dispose()
    }

    @Test("the queue goes idle and busy again: each later burst is delivered in full")
    func repeatedBursts() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on.bursts")
        let subject = PublishSubject<Int>()
        let received = LockedBox<[Int]>([])
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { value in
            received.mutate { $0.append(value) }
        })
        var expected: [Int] = []
        for burst in 0..<20 {
            for step in 0..<(burst * 7 + 1) {
                let value = burst * 1_000 + step
                expected.append(value)
                subject.onNext(value)
            }
            #expect(onQueue(scheduler) {})
        }
        #expect(received.value == expected)
        subscription.dispose()
    }

    @Test("elements of a reference type are released once delivered or dropped")
    func releasesElements() {
        final class Payload: @unchecked Sendable {
            let onDeinit: @Sendable () -> Void
            init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
            deinit { onDeinit() }
        }
        let released = LockedBox(0)
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on.release")
        let gate = holdQueue(scheduler)
        let subject = PublishSubject<Payload>()
        let delivered = LockedBox(0)
        let subscription = SingleAssignmentDisposable()
        subscription.setDisposable(subject.observe(on: scheduler).subscribe(onNext: { _ in
            let count = delivered.withLock { count -> Int in
                count += 1
                return count
            }
            if count == 10 { subscription.dispose() }
        }))
        for _ in 0..<40 { subject.onNext(Payload { released.mutate { $0 += 1 } }) }
        gate.signal()
        #expect(onQueue(scheduler) {})
        #expect(delivered.value == 10)
        #expect(released.value == 40)
    }
}

/// `observe(on: MainScheduler())` on the main thread: XCTest runs its tests there on
/// Linux (Swift Testing does not), which these checks need.
final class ObserveOnMainSchedulerTests: XCTestCase {
    /// Runs the main run loop (which drains the main queue) until `done` holds, at most
    /// 5 s.
    private func runMainLoop(until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(5)
        while !done() && Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01))
        }
    }

    func testElementsSentOnTheMainThreadArriveAtOnceInOrder() {
        XCTAssertTrue(Thread.isMainThread)
        let subject = BehaviorSubject(value: 0)
        var received: [Int] = []
        let subscription = subject.observe(on: MainScheduler()).subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, [0])
        for value in 1...5 {
            subject.onNext(value)
            XCTAssertEqual(received, Array(0...value))
        }
        subscription.dispose()
        subject.onNext(6)
        XCTAssertEqual(received, Array(0...5))
    }

    func testAnElementSentDuringADeliveryWaitsAndLaterOnesQueueBehindIt() {
        XCTAssertTrue(Thread.isMainThread)
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.observe(on: MainScheduler()).subscribe(onNext: { value in
            received.append(value)
            if value == 1 {
                subject.onNext(2)
                // Queued on the main queue: not delivered inside this delivery.
                XCTAssertEqual(received, [1])
            }
        })
        subject.onNext(1)
        XCTAssertEqual(received, [1])
        // 2 is still queued, so 3 queues behind it instead of running at once.
        subject.onNext(3)
        XCTAssertEqual(received, [1])
        runMainLoop { received.count == 3 }
        XCTAssertEqual(received, [1, 2, 3])
        // Nothing queued any more: at once again.
        subject.onNext(4)
        XCTAssertEqual(received, [1, 2, 3, 4])
        subscription.dispose()
    }

    func testElementsFromAnotherThreadArriveOnTheMainThreadInOrder() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var offMain = 0
        let subscription = subject.observe(on: MainScheduler()).subscribe(onNext: { value in
            if !Thread.isMainThread { offMain += 1 }
            received.append(value)
        })
        let sender = UnsafeTransfer(subject)
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for value in 0..<100 { sender.value.onNext(value) }
            sent.signal()
        }
        XCTAssertEqual(sent.wait(timeout: .now() + 5), .success)
        runMainLoop { received.count == 100 }
        XCTAssertEqual(received, Array(0..<100))
        XCTAssertEqual(offMain, 0)
        subscription.dispose()
    }
}

/// `Resources.numberOfSerialDispatchQueueObservables`, as RxSwift's tests read it. The
/// count is process-wide, so these are XCTest cases: XCTest runs one test at a time,
/// apart from the Swift Testing suites.
final class SerialDispatchQueueObservableCountTests: XCTestCase {
    func testObserveOnASerialQueueCountsTheObservableWhileItLives() {
        let before = Resources.numberOfSerialDispatchQueueObservables
        do {
            let serial = Observable.just(0).observe(on: SerialDispatchQueueScheduler(qos: .default))
            XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 1, "counted before any subscription")
            let main = Observable.just(0).observe(on: MainScheduler.instance)
            XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 2, "MainScheduler is a serial dispatch queue scheduler")
            let concurrent = Observable.just(0).observe(on: ConcurrentDispatchQueueScheduler(qos: .default))
            let virtual = Observable.just(0).observe(on: TestScheduler(initialClock: 0))
            XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 2, "other schedulers are not counted")
            withExtendedLifetime((serial, main, concurrent, virtual)) {}
        }
        XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before)
    }

    func testTheCountFollowsTheObservableNotItsSubscriptions() {
        let before = Resources.numberOfSerialDispatchQueueObservables
        let delivered = DispatchSemaphore(value: 0)
        var subscription: Disposable?
        do {
            let observable = Observable.just(1).observe(on: SerialDispatchQueueScheduler(qos: .default))
            subscription = observable.subscribe(onCompleted: { delivered.signal() })
            XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 1)
            XCTAssertEqual(delivered.wait(timeout: .now() + 5), .success)
            XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 1, "still referenced")
        }
        XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before, "released with the observable, as in RxSwift")
        subscription?.dispose()
    }
}
