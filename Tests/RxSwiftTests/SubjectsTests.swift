import Dispatch
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
        subject.onError(RivuletTestError.boom)
        var events: [Event<Int>] = []
        _ = subject.subscribe { events.append($0) }
        #expect(events == [.error(RivuletTestError.boom)])

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
        failing.onError(RivuletTestError.boom)
        #expect(throws: RivuletTestError.boom) { try failing.value() }

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
    private final class Held: @unchecked Sendable {
        private static let lock = NSLockLike()
        nonisolated(unsafe) private static var liveCount = 0
        static var live: Int { lock.locked { liveCount } }
        init() { Held.lock.locked { Held.liveCount += 1 } }
        deinit { Held.lock.locked { Held.liveCount -= 1 } }
    }

    /// A minimal lock for the counter, independent of the code under test.
    private final class NSLockLike: @unchecked Sendable {
        private let queue = DispatchQueue(label: "held-count")
        func locked<T>(_ body: () -> T) -> T { queue.sync(execute: body) }
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
}
