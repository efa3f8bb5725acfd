import AllocCounter
import Dispatch
import Foundation
import OpenCombine
import OpenCombineDispatch
import OpenCombineFoundation
import RxCocoa
import RxRelay
import RxSwift

// The multi-threaded rows, 13 to 19: several threads emit, subscribe or read at once,
// or a queue's thread delivers what the calling thread sent. Each row says whether its
// check is order-sensitive (`Checksum`, the elements in the order they arrived) or
// order-blind (`OrderBlindChecksum`: count, sum and mixed sum), and what order rule the
// library must keep on top of it.

/// A value handed to a `@Sendable` closure that the type does not declare `Sendable`
/// (OpenCombine's subjects and publishers): every scenario below uses it the way the
/// library allows across threads.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

// MARK: - 13. merge of two subjects fed on two threads

/// What merge delivers from two threads: thread 0 sends the even numbers, thread 1 the
/// odd ones, each in increasing order. The order across the two threads is free, so
/// the checksum is order-blind; each thread's own elements must arrive in the order it
/// sent them, with none missing (`outOfOrder` counts the breaks).
final class InterleavedSink: @unchecked Sendable {
    private(set) var arrived = OrderBlindChecksum()
    private var lastEven = -2
    private var lastOdd = -1
    private(set) var outOfOrder = 0

    @inline(__always)
    func add(_ value: Int) {
        arrived.add(value)
        if value & 1 == 0 {
            if value != lastEven &+ 2 { outOfOrder += 1 }
            lastEven = value
        } else {
            if value != lastOdd &+ 2 { outOfOrder += 1 }
            lastOdd = value
        }
    }

    /// The checksum, after checking each thread's order.
    func result(_ scenario: String, _ implementation: String) -> Checksum {
        if outOfOrder > 0 {
            failOrder(scenario, implementation, "\(outOfOrder) elements arrived out of their thread's order")
        }
        return arrived.checksum
    }
}

/// 13. `merge` of two subjects, each fed on a thread of its own at the same time, into
/// one subscriber: one unit is one element. Order-blind check, plus each source's own
/// order (`InterleavedSink`). The floor: the two threads take one lock to hand each
/// value to the consumer.
func mergeTwoThreadsScenario(events: Int) -> Scenario {
    let perThread = events / 2
    let name = "13 merge, 2 threads"
    func senders(_ send: @escaping @Sendable (Int, Int) -> Void) -> [@Sendable () -> Void] {
        let count = hiddenInt(perThread)
        return [
            { for index in 0..<count { send(0, 2 &* index) } },
            { for index in 0..<count { send(1, 2 &* index &+ 1) } },
        ]
    }
    return Scenario(
        name: name,
        unit: "element",
        units: perThread * 2,
        expected: OrderBlindChecksum.of(0..<perThread * 2),
        rivulet: Variant {
            let sink = InterleavedSink()
            let subjects = [PublishSubject<Int>(), PublishSubject<Int>()]
            let subscription = Observable.merge(subjects[0].asObservable(), subjects[1].asObservable())
                .subscribe(onNext: { sink.add($0) })
            runOnThreads(senders { subjects[$0].onNext($1) }, scenario: name, implementation: "Rivulet")
            subscription.dispose()
            return sink.result(name, "Rivulet")
        },
        openCombine: Variant(run: {
            let sink = InterleavedSink()
            let subjects = Unchecked([PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()])
            let cancellable = Publishers.Sequence<[PassthroughSubject<Int, Never>], Never>(sequence: subjects.value)
                .flatMap { $0 }
                .sink { sink.add($0) }
            runOnThreads(senders { subjects.value[$0].send($1) }, scenario: name, implementation: "OpenCombine")
            cancellable.cancel()
            return sink.result(name, "OpenCombine")
        }, note: "flatMap over the two subjects (0.14 has no Merge)"),
        floor: Variant {
            let sink = InterleavedSink()
            let lock = FloorLock()
            let consumer = hidden(Consumer { sink.add($0) })
            runOnThreads(senders { _, value in
                lock.lock()
                consumer.apply(value)
                lock.unlock()
            }, scenario: name, implementation: "floor")
            return sink.result(name, "floor")
        }
    )
}

// MARK: - 14, 14b. observe(on:) a concurrent scheduler

/// What a concurrent queue delivered: the order-blind checksum, whether each element
/// came right after the one before it, and a semaphore signalled at the last expected
/// element (completion is not awaited: on a concurrent queue it may overtake elements).
final class ArrivalSink: @unchecked Sendable {
    private(set) var arrived = OrderBlindChecksum()
    private var last = -1
    private(set) var outOfOrder = 0
    private let expected: Int
    let done = DispatchSemaphore(value: 0)

    init(expecting expected: Int) {
        self.expected = expected
    }

    @inline(__always)
    func add(_ value: Int) {
        arrived.add(value)
        if value != last &+ 1 { outOfOrder += 1 }
        last = value
        if arrived.count == expected { done.signal() }
    }
}

/// The concurrent schedulers of rows 14 and 14b.
enum ConcurrentTarget {
    case dispatchQueue
    case operationQueue
}

/// 14 and 14b. `observe(on:)` a concurrent scheduler (a concurrent `DispatchQueue`, or an
/// `OperationQueue` with its default width): elements sent on the calling thread, one
/// unit is one element. Rivulet delivers them one at a time and in order (Rx's
/// contract), which its variant checks; OpenCombine's `receive(on:)` schedules each
/// element on its own, and so does the floor (one block an element, which takes a lock
/// to call the consumer), so they may arrive in any order: the check is order-blind.
func observeOnConcurrentScenario(count: Int, on target: ConcurrentTarget) -> Scenario {
    let name = target == .dispatchQueue ? "14 observe(on:) concurrent queue" : "14b observe(on:) OperationQueue"
    let dispatchQueue = DispatchQueue(label: "rivulet-bench.concurrent", attributes: .concurrent)
    let operationQueue = OperationQueue()
    let scheduler: ImmediateSchedulerType = target == .dispatchQueue
        ? ConcurrentDispatchQueueScheduler(queue: dispatchQueue)
        : OperationQueueScheduler(operationQueue: operationQueue)
    let queues = Unchecked((dispatchQueue, operationQueue))
    return Scenario(
        name: name,
        unit: "element",
        units: count,
        expected: OrderBlindChecksum.of(0..<count),
        rivulet: Variant {
            let sink = ArrivalSink(expecting: count)
            let subject = PublishSubject<Int>()
            let subscription = subject.observe(on: scheduler).subscribe(onNext: { sink.add($0) })
            for value in 0..<hiddenInt(count) { subject.onNext(value) }
            waitOrFail(sink.done, name, "Rivulet")
            subscription.dispose()
            if sink.outOfOrder > 0 {
                failOrder(name, "Rivulet", "\(sink.outOfOrder) elements arrived out of order")
            }
            return sink.arrived.checksum
        },
        openCombine: Variant(run: {
            let sink = ArrivalSink(expecting: count)
            let subject = PassthroughSubject<Int, Never>()
            let cancellable: AnyCancellable
            switch target {
            case .dispatchQueue:
                cancellable = subject.receive(on: queues.value.0.ocombine).sink { sink.add($0) }
            case .operationQueue:
                cancellable = subject.receive(on: queues.value.1.ocombine).sink { sink.add($0) }
            }
            for value in 0..<hiddenInt(count) { subject.send(value) }
            waitOrFail(sink.done, name, "OpenCombine")
            cancellable.cancel()
            return sink.arrived.checksum
        }, note: "receive(on:) schedules every element apart: they may arrive in any order"),
        floor: Variant {
            let sink = ArrivalSink(expecting: count)
            let lock = FloorLock()
            let consumer = hidden(Consumer { sink.add($0) })
            for value in 0..<hiddenInt(count) {
                let deliver: @Sendable () -> Void = {
                    lock.lock()
                    consumer.apply(value)
                    lock.unlock()
                }
                switch target {
                case .dispatchQueue: queues.value.0.async(execute: deliver)
                case .operationQueue: queues.value.1.addOperation(deliver)
                }
            }
            waitOrFail(sink.done, name, "floor")
            return sink.arrived.checksum
        }
    )
}

// MARK: - 15. subscribe(on:) with a synchronous source

/// 15. `Observable.range` subscribed on a serial queue scheduler: the whole range runs
/// on the queue's thread, the calling thread waits for completion. One unit is one
/// element; the check is order-sensitive. The floor: one `async` that runs the loop.
func subscribeOnScenario(count: Int) -> Scenario {
    let expected = Checksum(of: 0..<count)
    let name = "15 subscribe(on:) serial queue"
    let queue = DispatchQueue(label: "rivulet-bench.subscribe-on")
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rivulet-bench.subscribe-on.rx")
    return Scenario(
        name: name,
        unit: "element",
        units: count,
        expected: expected,
        rivulet: Variant {
            let sink = Accumulator()
            let done = DispatchSemaphore(value: 0)
            let subscription = Observable.range(start: 0, count: hiddenInt(count))
                .subscribe(on: scheduler)
                .subscribe(onNext: { sink.add($0) }, onCompleted: { done.signal() })
            waitOrFail(done, name, "Rivulet")
            subscription.dispose()
            return sink.checksum
        },
        openCombine: Variant {
            let sink = Accumulator()
            let done = DispatchSemaphore(value: 0)
            let cancellable = Publishers.Sequence<Range<Int>, Never>(sequence: 0..<hiddenInt(count))
                .subscribe(on: queue.ocombine)
                .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { sink.add($0) })
            waitOrFail(done, name, "OpenCombine")
            cancellable.cancel()
            return sink.checksum
        },
        floor: Variant {
            let sink = Accumulator()
            let done = DispatchSemaphore(value: 0)
            let consumer = hidden(Consumer { sink.add($0) })
            let end = hiddenInt(count)
            queue.async {
                for value in 0..<end { consumer.apply(value) }
                done.signal()
            }
            waitOrFail(done, name, "floor")
            return sink.checksum
        }
    )
}

// MARK: - 16. share(replay: 1) with subscribers joining and leaving

/// The ways a joining subscription of row 16 can go wrong, counted over a run.
final class JoinViolations: @unchecked Sendable {
    /// An element more than one past the one before it.
    let gaps = AtomicInt()
    /// An element no newer than the one before it.
    let backwards = AtomicInt()
    /// Nothing delivered during `subscribe`, though the source had sent something.
    let missedReplays = AtomicInt()
    /// The first element older than the latest one sent before `subscribe`.
    let staleReplays = AtomicInt()
    /// Completed during the subscription without its last element arriving.
    let badEnds = AtomicInt()

    var total: Int {
        gaps.load() + backwards.load() + missedReplays.load() + staleReplays.load() + badEnds.load()
    }

    /// The violations but gaps and elements going backwards (see row 16's OpenCombine note).
    var totalButOrder: Int {
        missedReplays.load() + staleReplays.load() + badEnds.load()
    }

    var description: String {
        "\(gaps.load()) gaps, \(backwards.load()) elements going backwards, \(missedReplays.load()) missed replays, "
            + "\(staleReplays.load()) stale replays, \(badEnds.load()) completions without the last element"
    }
}

/// One subscription of a joining thread. What it receives must be a contiguous run of
/// the source's values (each one more than the one before), ending with the source's
/// last value when the source completes during it; it wakes its thread once it has
/// `wanted` elements or the source has ended. Breaks go to `violations`.
final class JoinerSubscription: @unchecked Sendable {
    private let wanted: Int
    private let lastValue: Int
    private let violations: JoinViolations
    let woken = DispatchSemaphore(value: 0)
    /// Elements received so far; `first` is valid once it is over 0.
    let received = AtomicInt()
    private(set) var first = -1
    private var previous = -1
    private var count = 0

    init(wanted: Int, lastValue: Int, violations: JoinViolations) {
        self.wanted = wanted
        self.lastValue = lastValue
        self.violations = violations
    }

    func next(_ value: Int) {
        // OpenCombine's CurrentValueSubject starts with -1: nothing sent yet.
        if value < 0 { return }
        if count == 0 {
            first = value
        } else if value > previous &+ 1 {
            violations.gaps.add(1)
        } else if value <= previous {
            violations.backwards.add(1)
        }
        previous = value
        count += 1
        received.store(count)
        if count == wanted { woken.signal() }
    }

    func completed() {
        if count > 0 && previous != lastValue { violations.badEnds.add(1) }
        if count < wanted { woken.signal() }
    }
}

/// The floor of row 16: a hand-written replay-one subject. One lock guards the latest
/// value and the list of observers, and every delivery happens under it (the observers
/// of this row only count and check, so nothing they do can block): an element is
/// stored and handed to each observer, a new observer gets the latest value, and no
/// newer element can reach it first.
final class FloorReplayOne: @unchecked Sendable {
    /// An observer: what it does with an element and with the end.
    final class Observer {
        let next: (Int) -> Void
        let completed: () -> Void
        let id: Int

        init(id: Int, next: @escaping (Int) -> Void, completed: @escaping () -> Void) {
            self.id = id
            self.next = next
            self.completed = completed
        }
    }

    private let lock = FloorLock()
    private var latest: Int?
    private var ended = false
    /// The observers, kept alive here; the loop reads `references`, which costs no
    /// reference counting per element (see `Unretained`).
    private var observers: [Observer] = []
    private var references: [Unmanaged<Observer>] = []
    private var nextID = 0

    func send(_ value: Int) {
        lock.lock()
        latest = value
        for reference in references { reference._withUnsafeGuaranteedRef { $0.next(value) } }
        lock.unlock()
    }

    func complete() {
        lock.lock()
        ended = true
        for observer in observers { observer.completed() }
        observers = []
        references = []
        lock.unlock()
    }

    /// Adds an observer; returns its id, for `remove`.
    func subscribe(next: @escaping (Int) -> Void, completed: @escaping () -> Void) -> Int {
        lock.lock()
        if ended {
            lock.unlock()
            completed()
            return -1
        }
        let observer = hidden(Observer(id: nextID, next: next, completed: completed))
        nextID += 1
        observers.append(observer)
        references.append(Unmanaged.passUnretained(observer))
        if let latest { observer.next(latest) }
        lock.unlock()
        return observer.id
    }

    func remove(_ id: Int) {
        lock.withLock {
            guard let index = observers.firstIndex(where: { $0.id == id }) else { return }
            observers.remove(at: index)
            references.remove(at: index)
        }
    }
}

/// 16. `share(replay: 1)` over a subject that the calling thread feeds with `events`
/// elements, while 4 threads keep joining (subscribing), taking `perJoin` elements and
/// leaving (disposing) until the source completes. One unit is one element sent; the
/// time covers the joins and leaves that happen meanwhile.
///
/// Check: a subscriber that stays for the whole run receives every element in order
/// (order-sensitive checksum); every joining subscription receives a contiguous run of
/// values, starting no earlier than the latest value sent before it subscribed (the
/// replay), and ending with the last value when the source completes during it.
func shareReplayJoinersScenario(events: Int, joiners: Int = 4, perJoin: Int = 100) -> Scenario {
    let expected = Checksum(of: 0..<events)
    let name = "16 share(replay: 1), \(joiners) threads"

    /// Runs one implementation: `send` and `complete` feed the source; `join` subscribes
    /// a joining subscription and returns what leaves. `checksOrder: false` lets the
    /// joining subscriptions' elements go backwards (and skip ahead after that).
    func run(
        _ implementation: String,
        checksOrder: Bool = true,
        send: (Int) -> Void,
        complete: () -> Void,
        join: @escaping @Sendable (JoinerSubscription) -> () -> Void
    ) {
        let violations = JoinViolations()
        let sent = AtomicInt()
        let ending = AtomicInt()
        let lastValue = events - 1
        let joiner: @Sendable () -> Void = {
            while ending.load() == 0 {
                let sentBefore = sent.load()
                let subscription = JoinerSubscription(wanted: perJoin, lastValue: lastValue, violations: violations)
                let leave = join(subscription)
                // Subscribed while the source was live and had sent something: the
                // replay must have delivered a value at least as new, at once.
                if sentBefore > 0 && ending.load() == 0 {
                    if subscription.received.load() == 0 {
                        violations.missedReplays.add(1)
                    } else if subscription.first < sentBefore - 1 {
                        violations.staleReplays.add(1)
                    }
                }
                waitOrFail(subscription.woken, name, implementation)
                leave()
            }
        }
        runOnThreads(Array(repeating: joiner, count: joiners), scenario: name, implementation: implementation) {
            for value in 0..<hiddenInt(events) {
                send(value)
                sent.store(value &+ 1)
            }
            ending.store(1)
            complete()
        }
        if (checksOrder ? violations.total : violations.totalButOrder) > 0 {
            failOrder(name, implementation, "joining subscriptions saw \(violations.description)")
        }
    }

    return Scenario(
        name: name,
        unit: "element sent",
        units: events,
        expected: expected,
        rivulet: Variant {
            let anchor = Accumulator()
            let subject = PublishSubject<Int>()
            let shared = subject.share(replay: 1)
            let anchorSubscription = shared.subscribe(onNext: { anchor.add($0) })
            run("Rivulet", send: { subject.onNext($0) }, complete: { subject.onCompleted() }) { joining in
                let subscription = shared.subscribe(onNext: { joining.next($0) }, onCompleted: { joining.completed() })
                return { subscription.dispose() }
            }
            anchorSubscription.dispose()
            return anchor.checksum
        },
        openCombine: Variant(run: {
            let anchor = Accumulator()
            let subject = PassthroughSubject<Int, Never>()
            let shared = Unchecked(subject.multicast(subject: CurrentValueSubject<Int, Never>(-1)))
            let anchorCancellable = shared.value.sink { if $0 >= 0 { anchor.add($0) } }
            let connection = shared.value.connect()
            run("OpenCombine", checksOrder: false, send: { subject.send($0) }, complete: { subject.send(completion: .finished) }) { joining in
                let cancellable = Unchecked(shared.value.sink(
                    receiveCompletion: { _ in joining.completed() },
                    receiveValue: { joining.next($0) }
                ))
                return { cancellable.value.cancel() }
            }
            connection.cancel()
            anchorCancellable.cancel()
            return anchor.checksum
        }, note: "multicast(subject: CurrentValueSubject) + connect() (share() has no replay); the joiners' order is not checked: "
            + "its CurrentValueSubject hands a joiner the current value outside its lock, so a value sent meanwhile can arrive first"),
        floor: Variant {
            let anchor = Accumulator()
            let subject = FloorReplayOne()
            _ = subject.subscribe(next: { anchor.add($0) }, completed: {})
            run("floor", send: { subject.send($0) }, complete: { subject.complete() }) { joining in
                let id = subject.subscribe(next: { joining.next($0) }, completed: { joining.completed() })
                return { subject.remove(id) }
            }
            return anchor.checksum
        },
        note: "\(joiners) threads each join, take \(perJoin) elements and leave, over and over"
    )
}

// MARK: - 17. BehaviorRelay written on 2 threads, read on a third

/// What the reading thread saw: the number of reads and the reads that went back in a
/// writer's order.
final class RelayReadings: @unchecked Sendable {
    var reads = 0
    var wentBack = 0
}

/// 17. A `BehaviorRelay` (no subscriber) that 2 threads `accept` values into while a
/// third reads `.value`, `operations` times each, all at once: one unit is one accept or
/// one read. Writer 0 accepts the even numbers, writer 1 the odd ones, in increasing
/// order. The check is count-based and order-blind: every read happened, no read saw a
/// writer's value older than one it had seen before (a locked value is linearizable),
/// and the final value is the last value of one of the writers. The floor is a value
/// behind a mutex.
func relayThreadsScenario(operations: Int) -> Scenario {
    let name = "17 BehaviorRelay, 2 write 1 read"
    var expected = Checksum()
    expected.add(operations) // reads
    expected.add(0) // reads that went back in a writer's order
    expected.add(1) // the final value is a writer's last
    let finalValues = [2 * (operations - 1), 2 * (operations - 1) + 1]

    func run(_ implementation: String, accept: @escaping @Sendable (Int) -> Void, read: @escaping @Sendable () -> Int) -> Checksum {
        let readings = RelayReadings()
        let count = hiddenInt(operations)
        let writer: @Sendable (Int) -> Void = { parity in
            for index in 0..<count { accept(2 &* index &+ parity) }
        }
        runOnThreads([
            { writer(0) },
            { writer(1) },
            {
                var lastEven = -2
                var lastOdd = -1
                var wentBack = 0
                for _ in 0..<count {
                    let value = read()
                    if value & 1 == 0 {
                        if value < lastEven { wentBack += 1 }
                        lastEven = value
                    } else {
                        if value < lastOdd { wentBack += 1 }
                        lastOdd = value
                    }
                }
                readings.reads = count
                readings.wentBack = wentBack
            },
        ], scenario: name, implementation: implementation)
        var result = Checksum()
        result.add(readings.reads)
        result.add(readings.wentBack)
        result.add(finalValues.contains(read()) ? 1 : 0)
        return result
    }

    return Scenario(
        name: name,
        unit: "operation",
        units: operations * 3,
        expected: expected,
        rivulet: Variant {
            let relay = BehaviorRelay(value: -1)
            return run("Rivulet", accept: { relay.accept($0) }, read: { relay.value })
        },
        openCombine: Variant(run: {
            let subject = Unchecked(CurrentValueSubject<Int, Never>(-1))
            return run("OpenCombine", accept: { subject.value.send($0) }, read: { subject.value.value })
        }, note: "CurrentValueSubject: send and value"),
        floor: Variant {
            let value = LockedValue(-1)
            return run("floor", accept: { value.set($0) }, read: { value.get() })
        }
    )
}

/// The floor of row 17: an integer behind a mutex.
final class LockedValue: @unchecked Sendable {
    private let lock = FloorLock()
    private var value: Int

    init(_ value: Int) {
        self.value = value
    }

    @inline(never)
    func set(_ newValue: Int) {
        lock.lock()
        value = newValue
        lock.unlock()
    }

    @inline(never)
    func get() -> Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

// MARK: - 18. A Driver fed off the main thread

/// Serves the main queue from the main thread's run loop until `done` (Linux has no
/// other way to run what is dispatched to the main queue while this thread waits).
func serveMainQueue(until done: () -> Bool, _ scenario: String, _ implementation: String) {
    precondition(Thread.isMainThread, "rivulet-bench: the main queue can only be served from the main thread")
    let deadline = Date(timeIntervalSinceNow: 30)
    while !done() {
        if Date() >= deadline {
            fatalError("rivulet-bench: '\(scenario)' (\(implementation)) did not complete within 30 s")
        }
        _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
    }
}

/// 18. A Driver chain (`BehaviorRelay.asDriver()` → `map` → `filter` → `drive`) whose
/// relay is fed on a background queue: every element crosses to the main queue, which
/// the main thread serves from its run loop. One unit is one accepted value; the check
/// is order-sensitive. The floor: the background queue dispatches each value to the main
/// queue, where the closures run.
func offMainDriverScenario(count: Int) -> Scenario {
    let expected = driverChainChecksum(count: count)
    let expectedCount = expected.count
    let name = "18 Driver fed off the main thread"
    let feeder = DispatchQueue(label: "rivulet-bench.driver-feed")
    return Scenario(
        name: name,
        unit: "element",
        units: count,
        expected: expected,
        rivulet: Variant {
            let sink = Accumulator()
            let relay = BehaviorRelay(value: 0)
            let subscription = relay.asDriver()
                .map { triple($0) }
                .filter { isEven($0) }
                .drive(onNext: { sink.add($0) })
            let last = hiddenInt(count)
            feeder.async {
                for value in 1...last { relay.accept(value) }
            }
            serveMainQueue(until: { sink.checksum.count >= expectedCount }, name, "Rivulet")
            subscription.dispose()
            return sink.checksum
        },
        openCombine: Variant(run: {
            let sink = Accumulator()
            let subject = Unchecked(CurrentValueSubject<Int, Never>(0))
            let cancellable = subject.value
                .receive(on: DispatchQueue.main.ocombine)
                .map { triple($0) }
                .filter { isEven($0) }
                .sink { sink.add($0) }
            let last = hiddenInt(count)
            feeder.async {
                for value in 1...last { subject.value.send(value) }
            }
            serveMainQueue(until: { sink.checksum.count >= expectedCount }, name, "OpenCombine")
            cancellable.cancel()
            return sink.checksum
        }, note: "CurrentValueSubject → receive(on: DispatchQueue.main) → map → filter → sink"),
        floor: Variant {
            let sink = Accumulator()
            let stages = hidden(ChainStages(sink: sink))
            let first = stages.map.apply(0)
            if stages.filter.apply(first) { stages.sink.apply(first) }
            let last = hiddenInt(count)
            feeder.async {
                for value in 1...last {
                    DispatchQueue.main.async {
                        let mapped = stages.map.apply(value)
                        if stages.filter.apply(mapped) { stages.sink.apply(mapped) }
                    }
                }
            }
            serveMainQueue(until: { sink.checksum.count >= expectedCount }, name, "floor")
            return sink.checksum
        }
    )
}

// MARK: - 19. A slow consumer behind a serial queue

/// The consumer's fixed work per element: a chain of xor-shift-multiply steps, each
/// depending on the one before (`rounds` is hidden from the optimizer; a step is not
/// affine, so it cannot fold several into one as it does a multiply-add chain).
@inline(never)
func slowWork(_ value: Int, rounds: Int) -> Int {
    var state = value
    for _ in 0..<rounds { state = (state ^ (state &>> 31)) &* 0x5851_F42D_4C95_7F2D }
    return state
}

/// How far a slow consumer fell behind: the consumer counts what it delivered; the
/// producer, when sampling, reads the heap in use and the elements in flight (sent and
/// not yet delivered) every 256 elements and once at the end.
final class SlowConsumerProbe: @unchecked Sendable {
    let delivered = AtomicInt()
    let sampling: Bool
    private var baseline: Int64 = 0
    private(set) var peakBytes: Int64 = 0
    private(set) var maxInFlight = 0

    init(sampling: Bool) {
        self.sampling = sampling
        if sampling { baseline = Int64(bench_heap_in_use()) }
    }

    func sample(sent: Int) {
        let inFlight = sent - delivered.load()
        if inFlight > maxInFlight { maxInFlight = inFlight }
        let bytes = Int64(bench_heap_in_use()) - baseline
        if bytes > peakBytes { peakBytes = bytes }
    }

    /// The report line for `implementation`.
    func report(_ implementation: String) -> String {
        let perElement = maxInFlight > 0 ? Double(peakBytes) / Double(maxInFlight) : 0
        let tenths = Int((perElement * 10).rounded())
        return "slow consumer (\(implementation)): peak \(peakBytes) bytes over the run's start, "
            + "\(maxInFlight) elements in flight at most, ~\(tenths / 10).\(abs(tenths % 10)) bytes an element in flight"
    }
}

/// The three implementations of row 19, each taking a probe (sampling or not).
struct SlowConsumer {
    /// Elements a full-size run sends.
    static let fullCount = 50_000
    static let fullRounds = 400

    static let name = "19 slow consumer, serial queue"

    let count: Int
    let rounds: Int
    let queue = DispatchQueue(label: "rivulet-bench.slow-consumer")
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rivulet-bench.slow-consumer.rx")

    init(count: Int, rounds: Int) {
        self.count = count
        self.rounds = rounds
    }

    /// The row's size in a run whose sizes are divided by `scale` (as in the catalog).
    init(scale: Int) {
        self.init(count: max(Self.fullCount / scale, 10), rounds: Self.fullRounds)
    }

    private var name: String { Self.name }

    var expected: Checksum {
        Checksum(of: 0..<count)
    }

    /// Feeds `count` elements through `send`, sampling the probe as it goes.
    private func produce(_ probe: SlowConsumerProbe, _ send: (Int) -> Void) {
        let end = hiddenInt(count)
        if probe.sampling {
            for value in 0..<end {
                send(value)
                if value & 255 == 255 { probe.sample(sent: value &+ 1) }
            }
            probe.sample(sent: end)
        } else {
            for value in 0..<end { send(value) }
        }
    }

    func rivulet(_ probe: SlowConsumerProbe) -> Checksum {
        let sink = Accumulator()
        let done = DispatchSemaphore(value: 0)
        let rounds = hiddenInt(self.rounds)
        let subject = PublishSubject<Int>()
        let subscription = subject.observe(on: scheduler).subscribe(onNext: {
            bench_black_hole(Int64(truncatingIfNeeded: slowWork($0, rounds: rounds)))
            sink.add($0)
            probe.delivered.add(1)
        }, onCompleted: { done.signal() })
        produce(probe) { subject.onNext($0) }
        subject.onCompleted()
        waitOrFail(done, name, "Rivulet")
        subscription.dispose()
        return sink.checksum
    }

    func openCombine(_ probe: SlowConsumerProbe) -> Checksum {
        let sink = Accumulator()
        let done = DispatchSemaphore(value: 0)
        let rounds = hiddenInt(self.rounds)
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.receive(on: queue.ocombine).sink(receiveCompletion: { _ in done.signal() }, receiveValue: {
            bench_black_hole(Int64(truncatingIfNeeded: slowWork($0, rounds: rounds)))
            sink.add($0)
            probe.delivered.add(1)
        })
        produce(probe) { subject.send($0) }
        subject.send(completion: .finished)
        waitOrFail(done, name, "OpenCombine")
        cancellable.cancel()
        return sink.checksum
    }

    func floor(_ probe: SlowConsumerProbe) -> Checksum {
        let sink = Accumulator()
        let done = DispatchSemaphore(value: 0)
        let rounds = hiddenInt(self.rounds)
        let consumer = hidden(Consumer {
            bench_black_hole(Int64(truncatingIfNeeded: slowWork($0, rounds: rounds)))
            sink.add($0)
            probe.delivered.add(1)
        })
        produce(probe) { value in queue.async { consumer.apply(value) } }
        queue.async { done.signal() }
        waitOrFail(done, name, "floor")
        return sink.checksum
    }

    /// The heap the backlog held in one sampled run of each implementation.
    func memoryReport() -> [String] {
        #if os(Linux)
        var lines: [String] = []
        for (implementation, run) in [("Rivulet", rivulet), ("OpenCombine", openCombine), ("floor", floor)] {
            let probe = SlowConsumerProbe(sampling: true)
            let result = run(probe)
            if result != expected { failCheck(name, implementation, expected: expected, got: result) }
            lines.append(probe.report(implementation))
        }
        return lines
        #else
        return ["slow consumer: heap measured on Linux only (glibc's mallinfo2)"]
        #endif
    }
}

/// 19. A serial-queue hand-off to a slow consumer: the calling thread sends `count`
/// elements as fast as it can into `observe(on: SerialDispatchQueueScheduler)`, whose
/// subscriber does `rounds` xor-shift-multiply steps per element, so the elements pile up on the
/// way (there is no back-pressure in Rx). One unit is one element; the check is
/// order-sensitive. The heap the backlog takes is printed after the table
/// (`SlowConsumer.memoryReport`).
func slowConsumerScenario(count: Int, rounds: Int = SlowConsumer.fullRounds) -> Scenario {
    let slow = SlowConsumer(count: count, rounds: rounds)
    return Scenario(
        name: SlowConsumer.name,
        unit: "element",
        units: count,
        expected: slow.expected,
        rivulet: Variant { slow.rivulet(SlowConsumerProbe(sampling: false)) },
        openCombine: Variant(run: { slow.openCombine(SlowConsumerProbe(sampling: false)) },
                             note: "receive(on: DispatchQueue), one async an element"),
        floor: Variant { slow.floor(SlowConsumerProbe(sampling: false)) },
        note: "the consumer does \(rounds) xor-shift-multiply steps an element; the producer does not wait"
    )
}
