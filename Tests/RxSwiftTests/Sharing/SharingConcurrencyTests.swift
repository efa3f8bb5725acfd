import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import Testing
import RxTest

// Deadlock regression and concurrency tests for share, multicast/publish/replay,
// refCount and groupBy.
//
// Each deadlock test forces the interleaving of a known lock inversion (RxSwift issues
// 2653, 2698, 2708, 2713): one thread holds a foreign lock and reaches into the
// operator, while another thread is inside a call-out from the operator that needs the
// foreign lock. An operator that called out under its own lock would block the first
// thread on it while the second waits for the foreign lock; here the second thread's
// wait is bounded, so such a deadlock unwinds and fails the test instead of hanging.

/// How long a thread waits for a foreign lock or a signal before giving up.
private let boundedWait: TimeInterval = 5
/// How long a test waits for its threads to finish.
private let finishWait: TimeInterval = 30

/// A one-shot signal between threads with bounded waits.
private final class Signal: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func fire() {
        semaphore.signal()
    }

    /// `true` when fired within the bound.
    func wait(_ seconds: TimeInterval = boundedWait) -> Bool {
        semaphore.wait(timeout: .now() + seconds) == .success
    }
}

/// A lock that belongs to neither Rivulet nor the test harness, with bounded acquisition.
private final class ForeignLock: @unchecked Sendable {
    private let lock = NSLock()

    func lock(within seconds: TimeInterval = boundedWait) -> Bool {
        lock.lock(before: Date(timeIntervalSinceNow: seconds))
    }

    func unlock() {
        lock.unlock()
    }
}

/// Runs `body` on a new thread; the returned signal fires when it returns.
@discardableResult
private func onThread(_ body: @escaping @Sendable () -> Void) -> Signal {
    let done = Signal()
    let thread = Thread {
        body()
        done.fire()
    }
    thread.start()
    return done
}

/// Emits from several threads at once, serialised by a lock of its own so the subject
/// receives a well-formed sequence.
private final class SerializedEmitter: Sendable {
    private let subject: PublishSubject<Int>
    private let next = LockedBox(0)

    init(_ subject: PublishSubject<Int>) {
        self.subject = subject
    }

    func emit() {
        next.mutate { next in
            subject.onNext(next)
            next += 1
        }
    }

    func complete() {
        next.mutate { _ in subject.onCompleted() }
    }
}

/// A connectable written outside Rivulet (so `refCount()` takes its generic path): one
/// subject, subscribed to the source by each `connect()`.
private final class PlainConnectable<Element>: ConnectableObservableType, @unchecked Sendable {
    private let source: Observable<Element>
    private let subject = PublishSubject<Element>()

    init(_ source: Observable<Element>) {
        self.source = source
    }

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    func connect() -> Disposable {
        source.subscribe(subject.asObserver())
    }
}

@Suite("Sharing operators never call out under their locks", .rxLeakCheck)
struct SharingDeadlockTests {
    /// RxSwift issue 2653: `share(replay: 1)` replayed under its lock into `take(1)`, which
    /// reached a zip-like combiner that, under its own lock, subscribes to its second
    /// source and disposes subscriptions to the shared sources.
    @Test("take(1) + share(replay: 1) + a zip-like combiner: replaying does not hold the share lock")
    func takeShareReplayZipLike() {
        let first = BehaviorSubject(value: 1)
        let second = BehaviorSubject(value: 10)
        let left = first.share(replay: 1)
        let right = second.share(replay: 1)
        let keepLeft = left.subscribe { _ in }
        let keepRight = right.subscribe { _ in }
        // A subscription of the combiner's that it disposes under its lock, as zip
        // disposes its sources when one completes.
        let combinerSubscription = LockedBox<Disposable>(left.subscribe { _ in })
        let combinerLock = ForeignLock()
        let combinerHoldsLock = Signal()
        let replaying = Signal()
        let replayedLockTaken = LockedBox<Bool?>(nil)
        let combined = LockedBox<[Int]>([])

        let disposer = onThread {
            guard combinerLock.lock() else { return }
            combinerHoldsLock.fire()
            // Wait until the other thread is inside the share's replay, then dispose.
            _ = replaying.wait()
            combinerSubscription.value.dispose()
            combinerLock.unlock()
        }
        let combiner = onThread {
            _ = combinerHoldsLock.wait()
            _ = left.take(1).subscribe(onNext: { x in
                replaying.fire()
                let taken = combinerLock.lock()
                replayedLockTaken.withLock { $0 = taken }
                guard taken else { return }
                // Combine with the second shared source from inside onNext.
                _ = right.take(1).subscribe(onNext: { y in
                    combined.withLock { $0.append(x + y) }
                })
                combinerLock.unlock()
            })
        }
        #expect(disposer.wait(finishWait))
        #expect(combiner.wait(finishWait))
        #expect(replayedLockTaken.value == true, "deadlock: the replay ran under the share lock")
        #expect(combined.value == [11])
        keepLeft.dispose()
        keepRight.dispose()
    }

    /// The same shape as a stress test: two threads, started together, each combining
    /// the two shared sources under the combiner's lock and disposing subscriptions to
    /// them under it; the test fails (rather than hangs) if a thread gets stuck.
    @Test("two share(replay: 1) sources combined under a foreign lock from two threads")
    func twoSharedSourcesCombined() {
        let iterations = 2_000
        let first = BehaviorSubject(value: 1)
        let second = BehaviorSubject(value: 10)
        let left = first.share(replay: 1)
        let right = second.share(replay: 1)
        let keepLeft = left.subscribe { _ in }
        let keepRight = right.subscribe { _ in }
        let combinerLock = ForeignLock()
        let results = LockedBox(0)
        let failures = LockedBox(0)
        let ready = DispatchGroup()
        let start = Signal()

        @Sendable func combine() {
            ready.leave()
            _ = start.wait()
            for _ in 0..<iterations {
                if failures.value > 0 { return }
                _ = left.take(1).subscribe(onNext: { x in
                    guard combinerLock.lock() else {
                        failures.withLock { $0 += 1 }
                        return
                    }
                    _ = right.take(1).subscribe(onNext: { y in
                        if x + y == 11 { results.withLock { $0 += 1 } }
                    })
                    combinerLock.unlock()
                })
                guard combinerLock.lock() else {
                    failures.withLock { $0 += 1 }
                    continue
                }
                left.subscribe { _ in }.dispose()
                right.subscribe { _ in }.dispose()
                combinerLock.unlock()
            }
        }
        ready.enter()
        ready.enter()
        let a = onThread(combine)
        let b = onThread(combine)
        #expect(ready.wait(timeout: .now() + boundedWait) == .success)
        start.fire()
        start.fire()
        #expect(a.wait(finishWait) && b.wait(finishWait), "a thread got stuck between the shared sources and the combiner")
        #expect(failures.value == 0, "deadlock between the shared sources and the combiner's lock")
        if failures.value == 0 {
            #expect(results.value == 2 * iterations)
        }
        keepLeft.dispose()
        keepRight.dispose()
    }

    /// `share(replay: 0)`: the first subscriber subscribes to the source outside the
    /// share lock, so another thread holding a lock the source needs can still join.
    @Test("share(): connecting does not hold the share lock")
    func shareConnectsOutsideLock() {
        let foreign = ForeignLock()
        let foreignHeld = Signal()
        let inConnect = Signal()
        let subject = PublishSubject<Int>()
        let counter = SubscriptionTally()
        let sourceTookLock = LockedBox<Bool?>(nil)
        let source = Observable<Int>.create { observer in
            inConnect.fire()
            let taken = foreign.lock()
            sourceTookLock.withLock { $0 = taken }
            if taken { foreign.unlock() }
            return subject.subscribe(observer)
        }.counted(counter)
        let shared = source.share()
        let first = GrammarCheckingObserver<Int>()
        let second = GrammarCheckingObserver<Int>()
        let subscriptions = LockedBox<[Disposable]>([])

        let holder = onThread {
            guard foreign.lock() else { return }
            foreignHeld.fire()
            _ = inConnect.wait()
            let subscription = shared.subscribe(second)
            subscriptions.withLock { $0.append(subscription) }
            foreign.unlock()
        }
        let connector = onThread {
            _ = foreignHeld.wait()
            let subscription = shared.subscribe(first)
            subscriptions.withLock { $0.append(subscription) }
        }
        #expect(holder.wait(finishWait))
        #expect(connector.wait(finishWait))
        #expect(sourceTookLock.value == true, "deadlock: share subscribed to its source under its lock")
        #expect(counter.subscribed == 1)
        subject.onNext(1)
        subject.onCompleted()
        #expect(first.events == [.next(1), .completed])
        #expect(second.events == [.next(1), .completed])
        for subscription in subscriptions.value { subscription.dispose() }
        #expect(counter.disposed == 1)
    }

    /// RxSwift issue 2698: a connection disposed its source subscription under the
    /// connectable's lock, and `connect()` subscribed to the source under it.
    @Test("publish(): disposing a connection does not hold the connectable's lock")
    func connectionDisposalOutsideLock() {
        let foreign = ForeignLock()
        let foreignHeld = Signal()
        let inDispose = Signal()
        let disposalTookLock = LockedBox<Bool?>(nil)
        let source = Observable<Int>.create { _ in
            Disposables.create {
                inDispose.fire()
                let taken = foreign.lock()
                disposalTookLock.withLock { $0 = taken }
                if taken { foreign.unlock() }
            }
        }
        let connectable = source.publish()
        let connection = LockedBox<Disposable>(connectable.connect())
        let observer = GrammarCheckingObserver<Int>()

        let holder = onThread {
            guard foreign.lock() else { return }
            foreignHeld.fire()
            _ = inDispose.wait()
            // Both reach into the connectable's state.
            _ = connectable.subscribe(observer)
            foreign.unlock()
        }
        let disposer = onThread {
            _ = foreignHeld.wait()
            connection.value.dispose()
        }
        #expect(holder.wait(finishWait))
        #expect(disposer.wait(finishWait))
        #expect(disposalTookLock.value == true, "deadlock: the connection disposed its subscription under the connectable's lock")
        #expect(observer.violations.isEmpty)
    }

    @Test("publish(): connecting does not hold the connectable's lock")
    func connectOutsideLock() {
        let foreign = ForeignLock()
        let foreignHeld = Signal()
        let inConnect = Signal()
        let subject = PublishSubject<Int>()
        let sourceTookLock = LockedBox<Bool?>(nil)
        let source = Observable<Int>.create { observer in
            inConnect.fire()
            let taken = foreign.lock()
            sourceTookLock.withLock { $0 = taken }
            if taken { foreign.unlock() }
            return subject.subscribe(observer)
        }
        let connectable = source.publish()
        let observer = GrammarCheckingObserver<Int>()
        let connection = LockedBox<Disposable?>(nil)
        let sameConnection = LockedBox<Bool?>(nil)

        let holder = onThread {
            guard foreign.lock() else { return }
            foreignHeld.fire()
            _ = inConnect.wait()
            _ = connectable.subscribe(observer)
            let again = connectable.connect()
            sameConnection.withLock { $0 = again as AnyObject === connection.value as AnyObject? }
            foreign.unlock()
        }
        let connector = onThread {
            _ = foreignHeld.wait()
            let made = connectable.connect()
            connection.withLock { $0 = made }
        }
        #expect(holder.wait(finishWait))
        #expect(connector.wait(finishWait))
        #expect(sourceTookLock.value == true, "deadlock: connect() subscribed to the source under the connectable's lock")
        subject.onNext(5)
        #expect(observer.elements == [5])
        connection.value?.dispose()
        #expect(!subject.hasObservers)
    }

    /// RxSwift issue 2708: refCount called `connect()` under its lock.
    @Test("refCount(): connecting does not hold the refCount lock", arguments: [false, true])
    func refCountConnectsOutsideLock(overHandMadeConnectable: Bool) {
        let foreign = ForeignLock()
        let foreignHeld = Signal()
        let inConnect = Signal()
        let subject = PublishSubject<Int>()
        let counter = SubscriptionTally()
        let sourceTookLock = LockedBox<Bool?>(nil)
        let source = Observable<Int>.create { observer in
            inConnect.fire()
            let taken = foreign.lock()
            sourceTookLock.withLock { $0 = taken }
            if taken { foreign.unlock() }
            return subject.subscribe(observer)
        }.counted(counter)
        let refCounted = overHandMadeConnectable ? PlainConnectable(source).refCount() : source.publish().refCount()
        let first = GrammarCheckingObserver<Int>()
        let passing = GrammarCheckingObserver<Int>()
        let firstSubscription = LockedBox<Disposable?>(nil)

        let holder = onThread {
            guard foreign.lock() else { return }
            foreignHeld.fire()
            _ = inConnect.wait()
            // Another observer comes and goes while the first one is connecting.
            let subscription = refCounted.subscribe(passing)
            subscription.dispose()
            foreign.unlock()
        }
        let connector = onThread {
            _ = foreignHeld.wait()
            let subscription = refCounted.subscribe(first)
            firstSubscription.withLock { $0 = subscription }
        }
        #expect(holder.wait(finishWait))
        #expect(connector.wait(finishWait))
        #expect(sourceTookLock.value == true, "deadlock: refCount connected under its lock")
        // The passing observer did not disconnect the first one's connection.
        #expect(counter.subscribed == 1)
        #expect(counter.disposed == 0)
        subject.onNext(3)
        #expect(first.elements == [3])
        #expect(passing.elements == [])
        firstSubscription.value?.dispose()
        #expect(counter.disposed == 1)
        #expect(!subject.hasObservers)
    }

    /// RxSwift issue 2713: a replay buffer replayed under its lock, so emitting blocked
    /// until a slow observer finished its replay.
    @Test("a replay buffer replays while another thread emits", arguments: SharingReplayVariant.allCases)
    func replayWhileEmitting(kind: SharingReplayVariant) {
        let subject = PublishSubject<Int>()
        let (shared, connection) = kind.make(subject.asObservable())
        let anchor = shared.subscribe { _ in }
        let buffered = kind.bufferSize
        for value in 1...buffered { subject.onNext(value) }

        let replaying = Signal()
        let emitted = Signal()
        let emitterReturned = LockedBox(false)
        let replayedEmitted = LockedBox<Bool?>(nil)
        let observer = GrammarCheckingObserver<Int>()
        let subscription = LockedBox<Disposable?>(nil)

        let subscriber = onThread {
            let made = shared.subscribe(AnyObserver<Int> { event in
                if case .next(let value) = event, value == 1 {
                    replaying.fire()
                    let didEmit = emitted.wait()
                    replayedEmitted.withLock { $0 = didEmit }
                }
                observer.on(event)
            })
            subscription.withLock { $0 = made }
        }
        let emitter = onThread {
            _ = replaying.wait()
            subject.onNext(buffered + 1)
            emitterReturned.withLock { $0 = true }
            emitted.fire()
        }
        #expect(subscriber.wait(finishWait))
        #expect(emitter.wait(finishWait))
        #expect(emitterReturned.value)
        #expect(replayedEmitted.value == true, "deadlock: emitting waited for the replay to finish")
        #expect(observer.elements == Array(1...(buffered + 1)))
        #expect(observer.violations.isEmpty)
        subscription.value?.dispose()
        anchor.dispose()
        connection?.dispose()
    }

    @Test("groupBy: subscribing to a group and emitting do not wait for each other")
    func groupByNoLockAcrossCallouts() {
        let foreign = ForeignLock()
        let subject = PublishSubject<Int>()
        let groups = LockedBox<[GroupedObservable<Int, Int>]>([])
        let outer = subject.groupBy { $0 % 2 }.subscribe(onNext: { group in groups.withLock { $0.append(group) } })
        subject.onNext(1)
        let foreignHeld = Signal()
        let inDelivery = Signal()
        let deliveryTookLock = LockedBox<Bool?>(nil)
        let received = LockedBox<[Int]>([])
        let group = groups.value[0]
        let groupSubscription = group.subscribe(onNext: { value in
            inDelivery.fire()
            let taken = foreign.lock()
            deliveryTookLock.withLock { $0 = taken }
            if taken { foreign.unlock() }
            received.withLock { $0.append(value) }
        })
        let holder = onThread {
            guard foreign.lock() else { return }
            foreignHeld.fire()
            _ = inDelivery.wait()
            // Subscribing to and leaving the group while the source thread delivers.
            let late = group.subscribe { _ in }
            late.dispose()
            foreign.unlock()
        }
        let emitter = onThread {
            _ = foreignHeld.wait()
            subject.onNext(3)
        }
        #expect(holder.wait(finishWait))
        #expect(emitter.wait(finishWait))
        #expect(deliveryTookLock.value == true)
        #expect(received.value == [3])
        groupSubscription.dispose()
        outer.dispose()
        #expect(!subject.hasObservers)
    }
}

/// The replaying variants of the sharing operators.
enum SharingReplayVariant: CaseIterable, CustomStringConvertible, Sendable {
    case shareReplay1
    case shareReplay2
    case shareReplay2Forever
    case replay2Connectable

    var bufferSize: Int {
        self == .shareReplay1 ? 1 : 2
    }

    var description: String {
        switch self {
        case .shareReplay1: return "share(replay: 1)"
        case .shareReplay2: return "share(replay: 2)"
        case .shareReplay2Forever: return "share(replay: 2, scope: .forever)"
        case .replay2Connectable: return "replay(2)"
        }
    }

    /// The shared sequence, and the connection to dispose at the end if any.
    func make(_ source: Observable<Int>) -> (Observable<Int>, Disposable?) {
        switch self {
        case .shareReplay1: return (source.share(replay: 1), nil)
        case .shareReplay2: return (source.share(replay: 2), nil)
        case .shareReplay2Forever: return (source.share(replay: 2, scope: .forever), nil)
        case .replay2Connectable:
            let connectable = source.replay(2)
            return (connectable.asObservable(), connectable.connect())
        }
    }
}

/// refCount over connectables whose subject is made per connection.
enum SharingConnectableVariant: CaseIterable, CustomStringConvertible, Sendable {
    case publish
    case replay2
    case shareReplay2

    var description: String {
        switch self {
        case .publish: return "publish().refCount()"
        case .replay2: return "replay(2).refCount()"
        case .shareReplay2: return "share(replay: 2)"
        }
    }

    func make(_ source: Observable<Int>) -> Observable<Int> {
        switch self {
        case .publish: return source.publish().refCount()
        case .replay2: return source.replay(2).refCount()
        case .shareReplay2: return source.share(replay: 2)
        }
    }
}

@Suite("Sharing operators under concurrent use", .rxLeakCheck)
struct SharingConcurrencyTests {
    @Test("share: concurrent first subscriptions share one source subscription", arguments: [0, 1, 3])
    func concurrentFirstSubscriptions(replay: Int) {
        for _ in 0..<20 {
            let subject = PublishSubject<Int>()
            let counter = SubscriptionTally()
            let shared = subject.asObservable().counted(counter).share(replay: replay)
            let observers = (0..<8).map { _ in GrammarCheckingObserver<Int>() }
            let subscriptions = LockedBox<[Int: Disposable]>([:])
            let done = onThread {
                DispatchQueue.concurrentPerform(iterations: observers.count) { index in
                    let subscription = shared.subscribe(observers[index])
                    subscriptions.withLock { $0[index] = subscription }
                }
            }
            #expect(done.wait(finishWait))
            #expect(counter.subscribed == 1)
            let emitter = SerializedEmitter(subject)
            let emitted = onThread {
                DispatchQueue.concurrentPerform(iterations: 4) { _ in
                    for _ in 0..<25 { emitter.emit() }
                }
                emitter.complete()
            }
            #expect(emitted.wait(finishWait))
            for observer in observers {
                #expect(observer.violations.isEmpty)
                #expect(observer.elements == Array(0..<100))
                #expect(observer.events.last == .completed)
            }
            let disposed = onThread {
                DispatchQueue.concurrentPerform(iterations: observers.count) { index in
                    subscriptions.withLock { $0[index] }?.dispose()
                }
            }
            #expect(disposed.wait(finishWait))
            #expect(counter.disposed == 1)
        }
    }

    @Test("share: observers subscribing and leaving while several threads emit", arguments: [0, 1, 2])
    func subscribeWhileEmitting(replay: Int) {
        let subject = PublishSubject<Int>()
        let counter = SubscriptionTally()
        let shared = subject.asObservable().counted(counter).share(replay: replay)
        let emitter = SerializedEmitter(subject)
        let observers = LockedBox<[GrammarCheckingObserver<Int>]>([])
        let stop = LockedBox(false)
        let churn = onThread {
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<200 {
                    let observer = GrammarCheckingObserver<Int>()
                    observers.withLock { $0.append(observer) }
                    let subscription = shared.subscribe(observer)
                    subscription.dispose()
                }
            }
            stop.withLock { $0 = true }
        }
        let emitting = onThread {
            DispatchQueue.concurrentPerform(iterations: 3) { _ in
                while !stop.value { emitter.emit() }
            }
        }
        #expect(churn.wait(finishWait))
        #expect(emitting.wait(finishWait))
        for observer in observers.value {
            #expect(observer.violations.isEmpty)
            // Elements arrive in emission order (a replayed one included), each once.
            let elements = observer.elements
            #expect(elements == elements.sorted() && Set(elements).count == elements.count)
        }
        #expect(counter.subscribed == counter.disposed)
        #expect(!subject.hasObservers)
    }

    @Test("publish: connections made and disposed on several threads while others subscribe")
    func connectDisposeRace() {
        let subject = PublishSubject<Int>()
        let counter = SubscriptionTally()
        let connectable = subject.asObservable().counted(counter).publish()
        let emitter = SerializedEmitter(subject)
        let observers = LockedBox<[GrammarCheckingObserver<Int>]>([])
        let subscriptions = LockedBox<[Disposable]>([])
        let stop = LockedBox(false)
        let racing = onThread {
            DispatchQueue.concurrentPerform(iterations: 6) { index in
                for _ in 0..<150 {
                    switch index % 3 {
                    case 0:
                        connectable.connect().dispose()
                    case 1:
                        _ = connectable.connect()
                    default:
                        let observer = GrammarCheckingObserver<Int>()
                        observers.withLock { $0.append(observer) }
                        let subscription = connectable.subscribe(observer)
                        subscriptions.withLock { $0.append(subscription) }
                    }
                }
            }
            stop.withLock { $0 = true }
        }
        let emitting = onThread {
            while !stop.value { emitter.emit() }
        }
        #expect(racing.wait(finishWait))
        #expect(emitting.wait(finishWait))
        // Whatever connection is left: disconnect it.
        connectable.connect().dispose()
        #expect(counter.subscribed == counter.disposed)
        #expect(!subject.hasObservers)
        for observer in observers.value {
            #expect(observer.violations.isEmpty)
            let elements = observer.elements
            #expect(elements == elements.sorted() && Set(elements).count == elements.count)
        }
        for subscription in subscriptions.value { subscription.dispose() }
    }

    @Test("refCount: subscribing and disposing on several threads keeps connections balanced", arguments: [false, true])
    func refCountChurn(terminating: Bool) {
        for _ in 0..<5 {
            let subject = PublishSubject<Int>()
            let counter = SubscriptionTally()
            // A terminating source ends every connection now and then.
            let source = terminating
                ? Observable<Int>.deferred { subject.take(3) }.counted(counter)
                : subject.asObservable().counted(counter)
            let refCounted = source.publish().refCount()
            let emitter = SerializedEmitter(subject)
            let observers = LockedBox<[GrammarCheckingObserver<Int>]>([])
            let stop = LockedBox(false)
            let churn = onThread {
                DispatchQueue.concurrentPerform(iterations: 4) { _ in
                    for round in 0..<150 {
                        let observer = GrammarCheckingObserver<Int>()
                        observers.withLock { $0.append(observer) }
                        let subscription = refCounted.subscribe(observer)
                        if round % 3 == 0 { jitter(microseconds: 100) }
                        subscription.dispose()
                    }
                }
                stop.withLock { $0 = true }
            }
            let emitting = onThread {
                while !stop.value { emitter.emit() }
            }
            #expect(churn.wait(finishWait))
            #expect(emitting.wait(finishWait))
            #expect(counter.subscribed == counter.disposed)
            #expect(counter.subscribed >= 1)
            #expect(!subject.hasObservers)
            for observer in observers.value {
                #expect(observer.violations.isEmpty)
            }
        }
    }

    @Test("refCount over a synchronous source on several threads: every observer completes")
    func refCountSynchronousSource() {
        for scope in [SubjectLifetimeScope.whileConnected, .forever] {
            let counter = SubscriptionTally()
            let shared = Observable.of(1, 2, 3).counted(counter).share(replay: 2, scope: scope)
            let observers = (0..<64).map { _ in GrammarCheckingObserver<Int>() }
            let done = onThread {
                DispatchQueue.concurrentPerform(iterations: observers.count) { index in
                    _ = shared.subscribe(observers[index])
                }
            }
            #expect(done.wait(finishWait))
            for observer in observers {
                #expect(observer.violations.isEmpty)
                #expect(observer.isTerminated)
                // A whole run, or (joining a finished connection's subject) its replay.
                let elements = observer.elements
                #expect(elements == [1, 2, 3] || elements == [2, 3])
            }
            #expect(counter.subscribed == counter.disposed)
            if scope == .forever {
                // Rivulet's guarantee (RxSwift can subscribe twice here, see
                // refCountForeverSubscribesOnce).
                #expect(counter.subscribed == 1)
            }
        }
    }

    @Test("share(replay:scope: .forever) over a synchronous source, many rounds of threads: the source is subscribed once")
    func refCountForeverSubscribesOnce() {
        // Rivulet's guarantee, stronger than RxSwift's. The source's events go out
        // through the first subscriber's trampoline after its connection is made, so
        // the terminal event reaches the observers outside any refCount lock. RxSwift
        // can then subscribe the source twice: observer B subscribes to the subject,
        // the terminal event reaches observer A (the count drops to 0), B takes the
        // refCount lock before the terminal event reaches it and connects again (its
        // events go into the completed subject). Rivulet counts B before it subscribes
        // (B's generation ends with the connection, so B does not connect), and an
        // observer counted after the connection ended does not connect for a subject a
        // terminal event went into. Many rounds, as a lost race is rare.
        var rounds: [Int] = []
        for round in 0..<200 {
            let counter = SubscriptionTally()
            let shared = Observable.of(1, 2, 3).counted(counter).share(replay: 2, scope: .forever)
            let completed = LockedBox(0)
            let done = onThread {
                DispatchQueue.concurrentPerform(iterations: 64) { _ in
                    _ = shared.subscribe(onCompleted: { completed.withLock { $0 += 1 } })
                }
            }
            #expect(done.wait(finishWait))
            #expect(completed.value == 64)
            if counter.subscribed != 1 { rounds.append(round) }
        }
        #expect(rounds.isEmpty, "rounds that subscribed the source more than once: \(rounds)")
    }

    @Test("refCount over one subject: an observer that joins while the terminal event is on its way does not reconnect")
    func refCountJoinsDuringTerminal() {
        // RxSwift's refCount forgets its observers only when one of them receives the
        // terminal event; an observer that subscribes after the connection ended but
        // before the subject passed the terminal on is counted with the others and
        // does not connect. The source's disposal runs in exactly that window.
        let upstream = PublishSubject<Int>()
        let counter = SubscriptionTally()
        let late = GrammarCheckingObserver<Int>()
        let lateSubscription = LockedBox<Disposable?>(nil)
        let shared = LockedBox<Observable<Int>?>(nil)
        let source = Observable<Int>.create { observer in
            let subscription = upstream.subscribe(observer)
            return Disposables.create {
                subscription.dispose()
                if let shared = shared.withLock({ current in defer { current = nil }; return current }) {
                    lateSubscription.withLock { $0 = shared.subscribe(late) }
                }
            }
        }.counted(counter)
        let refCounted = source.share(replay: 2, scope: .forever)
        let first = GrammarCheckingObserver<Int>()
        _ = refCounted.subscribe(first)
        upstream.onNext(1)
        upstream.onNext(2)
        upstream.onNext(3)
        shared.withLock { $0 = refCounted }
        upstream.onCompleted()
        #expect(lateSubscription.value != nil, "the late observer did not subscribe inside the source's disposal")
        #expect(counter.subscribed == 1)
        #expect(counter.subscribed == counter.disposed)
        #expect(first.events == [.next(1), .next(2), .next(3), .completed])
        // Subscribed to the live subject: the replay, then the terminal event it was
        // about to receive.
        #expect(late.events == [.next(2), .next(3), .completed])
        #expect(late.violations.isEmpty)
        #expect(first.violations.isEmpty)
    }

    @Test("refCount over a subject made per connection: concurrent observers of a synchronous source all complete",
          arguments: SharingConnectableVariant.allCases)
    func refCountPerConnectionSubjectsComplete(kind: SharingConnectableVariant) {
        for _ in 0..<10 {
            let counter = SubscriptionTally()
            let shared = kind.make(Observable.of(1, 2, 3).counted(counter))
            let observers = (0..<64).map { _ in GrammarCheckingObserver<Int>() }
            let done = onThread {
                DispatchQueue.concurrentPerform(iterations: observers.count) { index in
                    _ = shared.subscribe(observers[index])
                }
            }
            #expect(done.wait(finishWait))
            for observer in observers {
                #expect(observer.violations.isEmpty)
                #expect(observer.isTerminated, "an observer was left on a subject no connection feeds")
            }
            #expect(counter.subscribed == counter.disposed)
        }
    }

    @Test("refCount over a subject made per connection: every observer that stays receives elements",
          arguments: SharingConnectableVariant.allCases)
    func refCountPerConnectionSubjectsLive(kind: SharingConnectableVariant) {
        let subject = PublishSubject<Int>()
        let counter = SubscriptionTally()
        let shared = kind.make(subject.asObservable().counted(counter))
        let emitter = SerializedEmitter(subject)
        let stop = LockedBox(false)
        let starved = LockedBox(0)
        let churn = onThread {
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<150 {
                    let received = Signal()
                    let subscription = shared.subscribe(onNext: { _ in received.fire() })
                    if !received.wait(2) { starved.withLock { $0 += 1 } }
                    subscription.dispose()
                }
            }
            stop.withLock { $0 = true }
        }
        let emitting = onThread {
            while !stop.value {
                emitter.emit()
                jitter(microseconds: 200)
            }
        }
        #expect(churn.wait(120))
        #expect(emitting.wait(finishWait))
        #expect(starved.value == 0, "an observer was left on a subject no connection feeds")
        #expect(counter.subscribed == counter.disposed)
        #expect(!subject.hasObservers)
    }

    @Test("groupBy: groups subscribed and left on several threads while the source emits")
    func groupByConcurrentGroups() {
        let subject = PublishSubject<Int>()
        let counter = SubscriptionTally()
        let emitter = SerializedEmitter(subject)
        let groups = LockedBox<[GroupedObservable<Int, Int>]>([])
        let outer = subject.asObservable().counted(counter).groupBy { $0 % 4 }.subscribe(onNext: { group in
            groups.withLock { $0.append(group) }
        })
        for _ in 0..<4 { emitter.emit() }
        let observers = LockedBox<[(key: Int, observer: GrammarCheckingObserver<Int>)]>([])
        let stop = LockedBox(false)
        let churn = onThread {
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                let group = groups.value[index]
                for _ in 0..<200 {
                    let observer = GrammarCheckingObserver<Int>()
                    observers.withLock { $0.append((group.key, observer)) }
                    group.subscribe(observer).dispose()
                }
            }
            stop.withLock { $0 = true }
        }
        let emitting = onThread {
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                while !stop.value { emitter.emit() }
            }
        }
        #expect(churn.wait(finishWait))
        #expect(emitting.wait(finishWait))
        emitter.complete()
        for (key, observer) in observers.value {
            #expect(observer.violations.isEmpty)
            let elements = observer.elements
            #expect(elements.allSatisfy { $0 % 4 == key })
            #expect(elements == elements.sorted())
        }
        #expect(counter.subscribed == 1)
        #expect(counter.disposed == 1)
        outer.dispose()
    }
}
