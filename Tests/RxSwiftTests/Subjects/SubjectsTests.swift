import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("Subjects", .rxLeakCheck)
struct SubjectsTests {
    @Test("a publish subject sends each event to the observers subscribed at that time")
    func publish() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(110) { subject.onNext(1) }
        scheduler.scheduleAt(120) { _ = subject.subscribe(late) }
        scheduler.scheduleAt(130) { subject.onNext(2) }
        scheduler.scheduleAt(140) { subject.onCompleted() }
        scheduler.scheduleAt(150) { subject.onNext(3) }
        scheduler.start()
        #expect(early.events == [.next(110, 1), .next(130, 2), .completed(140)])
        #expect(late.events == [.next(130, 2), .completed(140)])
        #expect(!subject.hasObservers)
    }

    @Test("a late subscriber to a terminated publish subject gets the terminal event; after dispose, RxError.disposed")
    func publishTerminalAndDispose() {
        let subject = PublishSubject<Int>()
        subject.onError(testError)
        var events: [Event<Int>] = []
        _ = subject.subscribe { events.append($0) }
        #expect(events == [.error(testError)])

        let disposedSubject = PublishSubject<Int>()
        disposedSubject.dispose()
        #expect(disposedSubject.isDisposed)
        var error: Error?
        _ = disposedSubject.subscribe(onError: { error = $0 })
        guard case RxError.disposed = error! else {
            Issue.record("expected RxError.disposed, got \(String(describing: error))")
            return
        }
    }

    @Test("a behavior subject replays its current value, and value() follows the state")
    func behavior() throws {
        let subject = BehaviorSubject(value: 1)
        #expect(try subject.value() == 1)
        var first: [Event<Int>] = []
        let subscription = subject.subscribe { first.append($0) }
        subject.onNext(2)
        var second: [Event<Int>] = []
        _ = subject.subscribe { second.append($0) }
        subject.onCompleted()
        #expect(first == [.next(1), .next(2), .completed])
        #expect(second == [.next(2), .completed])
        #expect(try subject.value() == 2)
        subscription.dispose()

        let failing = BehaviorSubject(value: 0)
        failing.onError(testError)
        #expect(throws: testError) { try failing.value() }

        let disposed = BehaviorSubject(value: 0)
        disposed.dispose()
        #expect(throws: RxError.self) { try disposed.value() }
    }

    @Test("a replay subject replays the last bufferSize elements, then the terminal event")
    func replay() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        var live: [Event<Int>] = []
        _ = subject.subscribe { live.append($0) }
        subject.onNext(4)
        subject.onCompleted()
        var late: [Event<Int>] = []
        _ = subject.subscribe { late.append($0) }
        #expect(live == [.next(2), .next(3), .next(4), .completed])
        #expect(late == [.next(3), .next(4), .completed])

        let unbounded = ReplaySubject<Int>.createUnbounded()
        (1...5).forEach(unbounded.onNext)
        var all: [Int] = []
        let bag = DisposeBag()
        unbounded.subscribe(onNext: { all.append($0) }).disposed(by: bag)
        #expect(all == [1, 2, 3, 4, 5])
    }

    @Test("a replay subject's observer may emit into the subject while being replayed to, without deadlock or reordering")
    func replayReentrancy() {
        let subject = ReplaySubject<Int>.create(bufferSize: 3)
        subject.onNext(1)
        var received: [Int] = []
        let bag = DisposeBag()
        subject.subscribe(onNext: { value in
            received.append(value)
            if value == 1 { subject.onNext(2) }
        }).disposed(by: bag)
        subject.onNext(3)
        #expect(received == [1, 2, 3])
    }

    @Test("an async subject emits only the last element, on completion")
    func async() {
        let subject = AsyncSubject<Int>()
        var events: [Event<Int>] = []
        _ = subject.subscribe { events.append($0) }
        subject.onNext(1)
        subject.onNext(2)
        #expect(events.isEmpty)
        subject.onCompleted()
        #expect(events == [.next(2), .completed])
        var late: [Event<Int>] = []
        _ = subject.subscribe { late.append($0) }
        #expect(late == [.next(2), .completed])
    }

    @Test("a subject's observer that disposes itself in onNext receives nothing more")
    func disposeInsideOnNext() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let box = LockedBox<Disposable?>(nil)
        let subscription = subject.subscribe(onNext: { value in
            received.append(value)
            box.value?.dispose()
        })
        box.mutate { $0 = subscription }
        subject.onNext(1)
        subject.onNext(2)
        #expect(received == [1])
    }

    @Test("a subject may be subscribed to from inside its own observer")
    func subscribeInsideOnNext() {
        let subject = PublishSubject<Int>()
        var inner: [Int] = []
        var subscribed = false
        // Disposed at the end explicitly: the observers hold the subject, so a bag they
        // captured would never be released.
        var subscriptions: [Disposable] = []
        subscriptions.append(subject.subscribe(onNext: { _ in
            if !subscribed {
                subscribed = true
                subscriptions.append(subject.subscribe(onNext: { inner.append($0) }))
            }
        }))
        subject.onNext(1)
        subject.onNext(2)
        #expect(inner == [2])
        subscriptions.forEach { $0.dispose() }
    }

    @Test("subjects under concurrent onNext from several threads lose nothing and end once", arguments: [0, 1, 2])
    func concurrentOnNext(kind: Int) {
        let threads = 8
        let perThread = 2_000
        let subject: (Observable<Int>, AnyObserver<Int>)
        switch kind {
        case 0:
            let publish = PublishSubject<Int>()
            subject = (publish.asObservable(), publish.asObserver())
        case 1:
            let behavior = BehaviorSubject(value: -1)
            subject = (behavior.asObservable(), behavior.asObserver())
        default:
            let replay = ReplaySubject<Int>.create(bufferSize: 1)
            subject = (replay.asObservable(), replay.asObserver())
        }
        let count = LockedBox(0)
        let terminals = LockedBox(0)
        let subscription = subject.0.subscribe(
            onNext: { value in if value >= 0 { count.mutate { $0 += 1 } } },
            onCompleted: { terminals.mutate { $0 += 1 } }
        )
        let observer = UnsafeTransfer(subject.1)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                observer.value.onNext(thread * perThread + index)
            }
        }
        DispatchQueue.concurrentPerform(iterations: threads) { _ in observer.value.onCompleted() }
        observer.value.onNext(-2)
        #expect(count.value == threads * perThread)
        #expect(terminals.value == 1)
        subscription.dispose()
    }
}

@Suite("BehaviorSubject: observers that change the subject while it delivers", .rxLeakCheck)
struct BehaviorSubjectReentrancyTests {
    @Test("observers that leave, join and complete the subject while an element is delivered")
    func changesDuringDelivery() {
        let subject = BehaviorSubject(value: 0)
        let log = logChangesDuringDelivery(of: subject.asObservable(), send: subject.onNext, complete: subject.onCompleted)
        // The joiner starts with the current value, 2; 3 reaches it after the
        // completion sent from inside 3's delivery, and is dropped.
        #expect(log.filter { !$0.hasPrefix("b") } == ["a0", "a1", "a2", "c2", "a3", "a|", "c|"])
        #expect(log.filter { $0.hasPrefix("b") }.prefix(2) == ["b0", "b1"])
        #expect(!log.contains("b3") && !log.contains("b|"))
    }

    @Test("an observer that disposes the subject while an element is delivered")
    func disposeDuringDelivery() {
        let subject = BehaviorSubject(value: 0)
        var log: [String] = []
        let first = subject.subscribe(onNext: { value in
            log.append("a\(value)")
            if value == 1 { subject.dispose() }
        })
        let second = subject.subscribe(onNext: { log.append("b\($0)") })
        subject.onNext(1)
        subject.onNext(2)
        #expect(log == ["a0", "b0", "a1", "b1"])
        #expect(subject.isDisposed)
        first.dispose()
        second.dispose()
    }
}

@Suite("Subjects and share under concurrent senders: disposed observers are released", .serialized)
struct DeliveryReleaseTests {
    /// Counts its live instances.
    private final class Held: Sendable {
        private static let liveCount = LockedBox(0)
        static var live: Int { liveCount.value }
        init() { Held.liveCount.increment() }
        deinit { Held.liveCount.mutate { $0 -= 1 } }
    }

    private static func exercise(_ send: @escaping @Sendable (Int) -> Void, subscribe: @escaping @Sendable (Held) -> Disposable) {
        let senders = 3
        let rounds = 20_000
        let group = DispatchGroup()
        for sender in 0..<senders {
            DispatchQueue.global().async(group: group) {
                for value in 0..<rounds { send(sender &* rounds &+ value) }
            }
        }
        DispatchQueue.global().async(group: group) {
            for _ in 0..<2_000 {
                subscribe(Held()).dispose()
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success, "the senders did not finish")
        // One more element with nobody else sending: whatever was kept for deliveries
        // that ran at the same time can go now.
        send(-1)
    }

    @Test("BehaviorSubject: observers disposed while other threads send are released")
    func behaviorSubjectReleases() {
        let subject = BehaviorSubject(value: 0)
        Self.exercise({ subject.onNext($0) }) { held in
            subject.subscribe(onNext: { _ in _ = held })
        }
        #expect(Held.live == 0)
    }

    @Test("share(replay: 1): observers disposed while other threads send are released")
    func shareReleases() {
        let subject = PublishSubject<Int>()
        let shared = subject.map { $0 &+ 1 }.share(replay: 1)
        let keeper = shared.subscribe()
        Self.exercise({ subject.onNext($0) }) { held in
            shared.subscribe(onNext: { _ in _ = held })
        }
        keeper.dispose()
        #expect(Held.live == 0)
    }

    typealias Steps = DeliveryReleaseStepTests

    /// Two threads send at once for a while, then both stop: whatever happened to the
    /// count of running deliveries meanwhile, it must be back at zero. (A count raised
    /// with a load and a store under the lock loses a decrement made between the two
    /// by the other thread; this happens only by timing, so this test can miss it.)
    @Test("after several threads sent at once, an observer disposed with nothing running goes at once", arguments: Steps.Source.allCases)
    func countBackAtZeroAfterConcurrentSenders(source: Steps.Source) {
        let harness = Steps.Harness(source)
        let received = LockedBox(0)
        let counter = harness.subscribe { _ in received.mutate { $0 += 1 } }
        let senders = 2
        let start = DispatchSemaphore(value: 0)
        let deadline = LockedBox(DispatchTime.now())
        let done = (0..<senders).map { sender in
            Steps.onNewThread {
                start.wait()
                let end = deadline.value
                var value = sender
                while DispatchTime.now() < end {
                    for _ in 0..<100 {
                        harness.send(value)
                        value &+= senders
                    }
                }
            }
        }
        deadline.value = .now() + 0.5
        for _ in 0..<senders { start.signal() }
        for delivery in done {
            #expect(Steps.ended(delivery), "a sender did not end")
        }
        #expect(received.value > 0)
        // Every delivery ended: an observer removed now is kept for none.
        let (later, laterWatch) = Steps.subscribeHolding(harness)
        later.dispose()
        #expect(!laterWatch.isAlive, "kept although no delivery runs: the count of running deliveries did not return to zero")
        counter.dispose()
    }
}

@Suite("Subjects and share: observers disposed during a delivery, step by step", .serialized)
struct DeliveryReleaseStepTests {
    /// The sources that deliver through a `DeliveryList`.
    enum Source: CaseIterable, Sendable, CustomTestStringConvertible {
        case behaviorSubject, shareReplay1, share

        var testDescription: String {
            switch self {
            case .behaviorSubject: "BehaviorSubject"
            case .shareReplay1: "share(replay: 1)"
            case .share: "share()"
            }
        }
    }

    /// What comes after the deliveries ended: the point by which the observers kept
    /// for them must be released (`DeliveryList`: the next delivery or change that
    /// finds none running; the end of a delivery itself releases nothing).
    enum NextStep: CaseIterable, Sendable, CustomTestStringConvertible {
        case element, subscription

        var testDescription: String {
            switch self {
            case .element: "the next element"
            case .subscription: "the next subscription"
            }
        }
    }

    enum Order: CaseIterable, Sendable, CustomTestStringConvertible {
        case firstStartedEndsFirst, secondStartedEndsFirst

        var testDescription: String {
            switch self {
            case .firstStartedEndsFirst: "A ends, then B"
            case .secondStartedEndsFirst: "B ends, then A"
            }
        }
    }

    /// One run of the overlapping deliveries: which ends first, and what comes after.
    struct Schedule: Sendable, CustomTestStringConvertible {
        let order: Order
        let step: NextStep

        static let all = Order.allCases.flatMap { order in NextStep.allCases.map { Schedule(order: order, step: $0) } }

        var testDescription: String { "\(order.testDescription); \(step.testDescription)" }
    }

    /// A source under test: the sending side and the observable side.
    struct Harness: Sendable {
        let send: @Sendable (Int) -> Void
        let subscribe: @Sendable (@escaping @Sendable (Int) -> Void) -> Disposable

        init(_ source: Source) {
            switch source {
            case .behaviorSubject:
                let subject = BehaviorSubject(value: 0)
                send = { subject.onNext($0) }
                subscribe = { subject.subscribe(onNext: $0) }
            case .shareReplay1, .share:
                let subject = PublishSubject<Int>()
                let shared = source == .share ? subject.share() : subject.share(replay: 1)
                send = { subject.onNext($0) }
                subscribe = { shared.subscribe(onNext: $0) }
            }
        }
    }

    /// Holds a delivery inside an observer's `onNext` until the test lets it go.
    final class Parking: Sendable {
        let entered = DispatchSemaphore(value: 0)
        private let resume = DispatchSemaphore(value: 0)
        private let timedOutBox = LockedBox(false)

        /// Called by the delivering thread: parks there for at most 10 s.
        func park() {
            entered.signal()
            if resume.wait(timeout: .now() + 10) == .timedOut { timedOutBox.value = true }
        }

        /// Waits (10 s at most) until a delivery is parked.
        func waitUntilParked() -> Bool {
            entered.wait(timeout: .now() + 10) == .success
        }

        func letGo() {
            resume.signal()
        }

        /// Whether the parked delivery gave up waiting for `letGo`.
        var timedOut: Bool { timedOutBox.value }
    }

    /// What an observer keeps alive; watched through a weak reference.
    final class Token: Sendable {}

    final class Watch {
        private weak var token: Token?

        init(_ token: Token) {
            self.token = token
        }

        /// Whether the observer holding the token is still alive.
        var isAlive: Bool { token != nil }
    }

    /// Subscribes an observer whose handler is the only owner of a token: the token
    /// lives exactly as long as the observer.
    static func subscribeHolding(_ harness: Harness) -> (Disposable, Watch) {
        let token = Token()
        let watch = Watch(token)
        let subscription = harness.subscribe { _ in withExtendedLifetime(token) {} }
        return (subscription, watch)
    }

    /// Runs `body` on a new thread; the semaphore is signalled when it returns.
    static func onNewThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done
    }

    static func ended(_ done: DispatchSemaphore) -> Bool {
        done.wait(timeout: .now() + 10) == .success
    }

    /// Takes `step` with no delivery running.
    static func take(_ step: NextStep, on harness: Harness) {
        switch step {
        case .element:
            harness.send(3)
        case .subscription:
            let (subscription, watch) = subscribeHolding(harness)
            subscription.dispose()
            #expect(!watch.isAlive, "an observer disposed with no delivery running was kept")
        }
    }

    @Test("an observer disposed during a delivery lives until it ends, then goes by the next element or subscription", arguments: Source.allCases, NextStep.allCases)
    func oneDelivery(source: Source, step: NextStep) {
        let harness = Harness(source)
        let parking = Parking()
        let blocker = harness.subscribe { value in
            if value == 1 { parking.park() }
        }
        let (victim, watch) = Self.subscribeHolding(harness)

        let delivery = Self.onNewThread { harness.send(1) }
        #expect(parking.waitUntilParked(), "the delivery did not start")
        victim.dispose()
        // The parked delivery read the list before the disposal: it walks on to the
        // victim once let go.
        #expect(watch.isAlive, "released while a delivery that walks it runs")
        parking.letGo()
        #expect(Self.ended(delivery), "the delivery did not end")
        #expect(!parking.timedOut)

        Self.take(step, on: harness)
        #expect(!watch.isAlive, "still alive after \(step.testDescription) with no delivery running")

        // Nothing runs: an observer disposed now goes at once.
        let (later, laterWatch) = Self.subscribeHolding(harness)
        later.dispose()
        #expect(!laterWatch.isAlive, "kept although no delivery runs")
        blocker.dispose()
    }

    @Test("two overlapping deliveries on two threads: what was removed meanwhile goes once both end", arguments: Source.allCases, Schedule.all)
    func overlappingDeliveries(source: Source, schedule: Schedule) {
        let order = schedule.order
        let step = schedule.step
        let harness = Harness(source)
        let parkingA = Parking()
        let parkingB = Parking()
        let blocker = harness.subscribe { value in
            if value == 1 { parkingA.park() }
            if value == 2 { parkingB.park() }
        }
        let (first, firstWatch) = Self.subscribeHolding(harness)
        let (second, secondWatch) = Self.subscribeHolding(harness)
        let (third, thirdWatch) = Self.subscribeHolding(harness)

        // A walks all three observers.
        let deliveryA = Self.onNewThread { harness.send(1) }
        #expect(parkingA.waitUntilParked(), "delivery A did not start")
        first.dispose()
        #expect(firstWatch.isAlive, "released while delivery A, which walks it, runs")

        // B starts while A runs (so it must not release what A walks) and walks the
        // second and the third.
        let deliveryB = Self.onNewThread { harness.send(2) }
        #expect(parkingB.waitUntilParked(), "delivery B did not start")
        #expect(firstWatch.isAlive, "released when delivery B started while A, which walks it, runs")
        second.dispose()
        #expect(secondWatch.isAlive, "released while deliveries A and B, which walk it, run")

        let (endsFirst, endsFirstDone, endsLast, endsLastDone) = order == .firstStartedEndsFirst
            ? (parkingA, deliveryA, parkingB, deliveryB)
            : (parkingB, deliveryB, parkingA, deliveryA)
        endsFirst.letGo()
        #expect(Self.ended(endsFirstDone), "the delivery let go first did not end")
        // A removal while only the other delivery runs.
        third.dispose()
        #expect(secondWatch.isAlive && thirdWatch.isAlive, "released while a delivery that walks it runs")
        if order == .secondStartedEndsFirst {
            #expect(firstWatch.isAlive, "released while delivery A, which walks it, runs")
        }
        endsLast.letGo()
        #expect(Self.ended(endsLastDone), "the delivery let go last did not end")
        #expect(!parkingA.timedOut && !parkingB.timedOut)

        // Both ended: the count of running deliveries is back at zero.
        Self.take(step, on: harness)
        #expect(!firstWatch.isAlive && !secondWatch.isAlive && !thirdWatch.isAlive, "still alive after \(step.testDescription) with no delivery running")

        let (later, laterWatch) = Self.subscribeHolding(harness)
        later.dispose()
        #expect(!laterWatch.isAlive, "kept although no delivery runs")
        harness.send(4)
        let (last, lastWatch) = Self.subscribeHolding(harness)
        last.dispose()
        #expect(!lastWatch.isAlive, "kept although no delivery runs")
        blocker.dispose()
    }
}
