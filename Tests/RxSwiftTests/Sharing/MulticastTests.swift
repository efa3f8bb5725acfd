import Foundation
import RivuletTestSupport
@testable import RxSwift
import RxTest
import Testing

extension ObservableType {
    /// Runs `action` on a terminal event before passing it on (RxSwift's
    /// `do(onCompleted:)` / `do(onError:)` order).
    fileprivate func beforeTerminal(_ action: @escaping (Event<Element>) -> Void) -> Observable<Element> {
        Observable.create { observer in
            self.subscribe { event in
                if event.isStopEvent { action(event) }
                observer.on(event)
            }
        }
    }
}

/// A subject with one observer at a time that counts subscriptions and records the
/// disposal of the last one (RxSwift's test subject).
private final class CountingSubject<Element>: ObservableType, ObserverType, SubjectType, @unchecked Sendable {
    private let lock = NSLock()
    private var observer: ((Event<Element>) -> Void)?
    private var subscriptions = 0
    private var disposed = false

    var subscribeCount: Int { lock.withLock { subscriptions } }
    var isDisposed: Bool { lock.withLock { disposed } }

    func on(_ event: Event<Element>) {
        let current = lock.withLock { observer }
        current?(event)
    }

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.withLock {
            subscriptions += 1
            self.observer = observer.on
        }
        return Disposables.create {
            self.lock.withLock {
                self.observer = nil
                self.disposed = true
            }
        }
    }

    func asObserver() -> CountingSubject<Element> { self }
}

/// The hot source of RxSwift's multicast connection tests; `ending` replaces the
/// events from 435 on when given.
private func connectionSource(_ scheduler: TestScheduler, terminalAt435 terminal: Event<Int>? = nil) -> TestableObservable<Int> {
    var events: [Recorded<Event<Int>>] = [
        .next(110, 7), .next(220, 3), .next(280, 4), .next(290, 1), .next(340, 8), .next(360, 5),
        .next(370, 6), .next(390, 7), .next(410, 13), .next(430, 2),
    ]
    if let terminal { events.append(Recorded(time: 435, value: terminal)) }
    events += [
        .next(450, 9), .next(520, 11), .next(560, 20), .next(570, 21), .next(580, 23), .next(590, 24),
        .next(600, 25), .next(610, 26), .next(620, 27), .next(630, 28), .error(800, testError),
    ]
    return scheduler.createHotObservable(events)
}

/// Connects at 300, disconnects at 400; connects at 420 and 440 (the same connection),
/// disposes the latter at 530; connects at 575, disposes the 420 one again at 590 and
/// the last at 621 (RxSwift's schedule).
private func scheduleConnections(_ scheduler: TestScheduler, _ ys: @escaping () -> ConnectableObservable<Int>) {
    var connection: Disposable?
    var inner: Disposable?
    var last: Disposable?
    scheduler.scheduleAt(300) { connection = ys().connect() }
    scheduler.scheduleAt(400) { connection?.dispose() }
    scheduler.scheduleAt(420) { connection = ys().connect() }
    scheduler.scheduleAt(440) { inner = ys().connect() }
    scheduler.scheduleAt(530) { inner?.dispose() }
    scheduler.scheduleAt(575) { last = ys().connect() }
    scheduler.scheduleAt(590) { connection?.dispose() }
    scheduler.scheduleAt(621) { last?.dispose() }
}

@Suite("multicast(makeSubject:) and multicast(_:)", .rxLeakCheck)
struct MulticastConnectableTests {
    @Test("makeSubject: connect controls the source subscription; a new connection gets a new subject")
    func whileConnectedConnectControlsSourceSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = connectionSource(scheduler)
        var ys: ConnectableObservable<Int>!
        var subscription: Disposable?
        let res = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { ys = xs.multicast(makeSubject: { ReplaySubject.create(bufferSize: 3) }) }
        scheduler.scheduleAt(405) { subscription = ys.subscribe(res) }
        scheduler.scheduleAt(1000) { subscription?.dispose() }
        scheduleConnections(scheduler) { ys }
        scheduler.start()

        #expect(res.events == [.next(430, 2), .next(450, 9), .next(520, 11)])
        #expect(xs.subscriptions == [Subscription(300, 400), Subscription(420, 530), Subscription(575, 621)])
    }

    @Test("makeSubject: a late observer gets the current connection's replay")
    func whileConnectedConnectFirstThenSubscribe() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = connectionSource(scheduler)
        var ys: ConnectableObservable<Int>!
        var subscription: Disposable?
        let res = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { ys = xs.multicast(makeSubject: { ReplaySubject.create(bufferSize: 1) }) }
        scheduler.scheduleAt(470) { subscription = ys.subscribe(res) }
        scheduler.scheduleAt(1000) { subscription?.dispose() }
        scheduleConnections(scheduler) { ys }
        scheduler.start()

        #expect(res.events == [.next(470, 9), .next(520, 11)])
        #expect(xs.subscriptions == [Subscription(300, 400), Subscription(420, 530), Subscription(575, 621)])
    }

    @Test("makeSubject: completion drops the subject, so resubscribing and reconnecting from the handler works",
          arguments: [Event<Int>.completed, .error(testError)])
    func whileConnectedTerminal(terminal: Event<Int>) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = connectionSource(scheduler, terminalAt435: terminal)
        var ys: ConnectableObservable<Int>!
        var subscription: Disposable?
        let res = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { ys = xs.multicast(makeSubject: { ReplaySubject.create(bufferSize: 1) }) }
        scheduler.scheduleAt(405) {
            subscription = ys.beforeTerminal { _ in
                subscription = ys.subscribe(res)
                _ = ys.connect()
            }.subscribe(res)
        }
        scheduler.scheduleAt(1000) { subscription?.dispose() }
        scheduleConnections(scheduler) { ys }
        scheduler.start()

        #expect(res.events == [.next(430, 2), Recorded(time: 435, value: terminal), .next(450, 9), .next(520, 11)])
        #expect(xs.subscriptions == [Subscription(300, 400), Subscription(420, 435), Subscription(435, 530), Subscription(575, 621)])
    }

    @Test("subject: one subject serves every connection")
    func foreverConnectControlsSourceSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = connectionSource(scheduler)
        var ys: ConnectableObservable<Int>!
        var subscription: Disposable?
        let res = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { ys = xs.multicast(ReplaySubject.create(bufferSize: 3)) }
        scheduler.scheduleAt(405) { subscription = ys.subscribe(res) }
        scheduler.scheduleAt(1000) { subscription?.dispose() }
        scheduleConnections(scheduler) { ys }
        scheduler.start()

        #expect(res.events == [
            .next(405, 5), .next(405, 6), .next(405, 7), .next(430, 2), .next(450, 9), .next(520, 11),
            .next(580, 23), .next(590, 24), .next(600, 25), .next(610, 26), .next(620, 27),
        ])
        #expect(xs.subscriptions == [Subscription(300, 400), Subscription(420, 530), Subscription(575, 621)])
    }

    @Test("subject: connecting first, then subscribing")
    func foreverConnectFirstThenSubscribe() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = connectionSource(scheduler)
        var ys: ConnectableObservable<Int>!
        var subscription: Disposable?
        let res = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { ys = xs.multicast(ReplaySubject.create(bufferSize: 1)) }
        scheduler.scheduleAt(470) { subscription = ys.subscribe(res) }
        scheduler.scheduleAt(1000) { subscription?.dispose() }
        scheduleConnections(scheduler) { ys }
        scheduler.start()

        #expect(res.events == [
            .next(470, 9), .next(520, 11), .next(580, 23), .next(590, 24), .next(600, 25), .next(610, 26), .next(620, 27),
        ])
        #expect(xs.subscriptions == [Subscription(300, 400), Subscription(420, 530), Subscription(575, 621)])
    }

    @Test("subject: after a terminal event the subject replays it to later observers",
          arguments: [Event<Int>.completed, .error(testError)])
    func foreverTerminal(terminal: Event<Int>) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = connectionSource(scheduler, terminalAt435: terminal)
        var ys: ConnectableObservable<Int>!
        var subscription: Disposable?
        let res = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { ys = xs.multicast(ReplaySubject.create(bufferSize: 1)) }
        scheduler.scheduleAt(405) {
            subscription = ys.beforeTerminal { _ in
                subscription = ys.subscribe(res)
                _ = ys.connect()
            }.subscribe(res)
        }
        scheduler.scheduleAt(1000) { subscription?.dispose() }
        scheduleConnections(scheduler) { ys }
        scheduler.start()

        #expect(res.events == [
            .next(405, 7), .next(430, 2), .next(435, 2), Recorded(time: 435, value: terminal), Recorded(time: 435, value: terminal),
        ])
        #expect(xs.subscriptions == [Subscription(300, 400), Subscription(420, 435), Subscription(435, 530), Subscription(575, 621)])
    }

    @Test("connect() returns the live connection until it ends")
    func connectReturnsSameConnection() {
        let subject = PublishSubject<Int>()
        let connectable = subject.publish()
        let first = connectable.connect()
        let second = connectable.connect()
        let reused = (first as AnyObject) === (second as AnyObject)
        #expect(reused)
        first.dispose()
        #expect(!subject.hasObservers)
        let third = connectable.connect()
        let renewed = (third as AnyObject) !== (first as AnyObject)
        #expect(renewed)
        #expect(subject.hasObservers)
        third.dispose()
        #expect(!subject.hasObservers)
    }

    @Test("a synchronous source delivers to observers subscribed before connect")
    func synchronousSourceOnConnect() {
        let connectable = Observable.of(1, 2, 3).publish()
        var received: [Int] = []
        var completed = 0
        let subscription = connectable.subscribe(onNext: { received.append($0) }, onCompleted: { completed += 1 })
        let connection = connectable.connect()
        #expect(received == [1, 2, 3])
        #expect(completed == 1)
        connection.dispose()
        subscription.dispose()
    }
}

@Suite("multicast(_:selector:)", .rxLeakCheck)
struct MulticastSelectorTests {
    private func source(_ scheduler: TestScheduler, _ terminal: Recorded<Event<Int>>?) -> TestableObservable<Int> {
        var events: [Recorded<Event<Int>>] = [
            .next(40, 0), .next(90, 1), .next(150, 2), .next(210, 3), .next(240, 4), .next(270, 5), .next(330, 6), .next(340, 7),
        ]
        if let terminal { events.append(terminal) }
        return scheduler.createHotObservable(events)
    }

    @Test("passes the source through the subject", arguments: [
        Recorded<Event<Int>>.completed(390), .error(390, testError),
    ])
    func coldTerminal(terminal: Recorded<Event<Int>>) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, terminal)
        let res = scheduler.start { xs.multicast({ PublishSubject<Int>() }) { $0 } }
        #expect(res.events == [.next(210, 3), .next(240, 4), .next(270, 5), .next(330, 6), .next(340, 7), terminal])
        #expect(xs.subscriptions == [Subscription(200, 390)])
    }

    @Test("disposal disconnects")
    func coldDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, nil)
        let res = scheduler.start(disposed: 300) { xs.multicast({ PublishSubject<Int>() }) { $0 } }
        #expect(res.events == [.next(210, 3), .next(240, 4), .next(270, 5)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test("the selector can use the shared source twice over one source subscription")
    func selectorUsesSourceTwice() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, .completed(390))
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }) { shared in
                Observable<Int>.create { observer in
                    let tens = shared.map { $0 * 10 }.subscribe(onNext: { observer.onNext($0) })
                    let ones = shared.subscribe(observer)
                    return Disposables.create(tens, ones)
                }
            }
        }
        #expect(res.events == [
            .next(210, 30), .next(210, 3), .next(240, 40), .next(240, 4), .next(270, 50), .next(270, 5),
            .next(330, 60), .next(330, 6), .next(340, 70), .next(340, 7), .completed(390),
        ])
        #expect(xs.subscriptions == [Subscription(200, 390)])
    }

    @Test("a throwing subject selector is an error at subscription")
    func subjectSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let res = scheduler.start {
            xs.multicast({ () throws -> PublishSubject<Int> in throw testError }) { $0 }
        }
        #expect(res.events == [.error(200, testError)])
        #expect(xs.subscriptions == [])
    }

    @Test("a throwing selector is an error at subscription")
    func selectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let res = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }) { _ -> Observable<Int> in throw testError }
        }
        #expect(res.events == [.error(200, testError)])
        #expect(xs.subscriptions == [])
    }
}

@Suite("refCount", .rxLeakCheck)
struct RefCountOperatorTests {
    private func synchronousSource(_ values: [Int], then terminal: Event<Int>) -> Observable<Int> {
        Observable.create { observer in
            for value in values { observer.onNext(value) }
            observer.on(terminal)
            return Disposables.create()
        }
    }

    @Test("a synchronous source on connect does not deadlock")
    func synchronousSources() {
        var nexts = 0
        var terminals = 0
        let cases: [(Observable<Int>, Int, Int)] = [
            (Observable.of(0, 1, 2), 3, 1),
            (synchronousSource([0, 1, 2], then: .error(testError)), 3, 1),
            (Observable.error(testError), 0, 1),
            (Observable.empty(), 0, 1),
        ]
        for (source, expectedNexts, expectedTerminals) in cases {
            nexts = 0
            terminals = 0
            let connectable = source.multicast(CountingSubject<Int>())
            let subscription = connectable.subscribe(onNext: { _ in nexts += 1 }, onError: { _ in terminals += 1 }, onCompleted: { terminals += 1 })
            connectable.connect().dispose()
            subscription.dispose()
            #expect(nexts == expectedNexts)
            #expect(terminals == expectedTerminals)
        }
    }

    @Test("connects on the first observer")
    func connectsOnFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        let subject = CountingSubject<Int>()
        let connectable = xs.asObservable().multicast(subject)
        let res = scheduler.start { connectable.refCount() }
        #expect(res.events == [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(subject.isDisposed)
    }

    @Test("does not connect when the subject already terminated", arguments: [Event<Int>.completed, .error(testError)])
    func doesNotConnectOnSynchronousTerminal(terminal: Event<Int>) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let subject = PublishSubject<Int>()
        subject.on(terminal)
        let connectable = xs.asObservable().multicast(subject)
        let res = scheduler.start { connectable.refCount() }
        #expect(res.events == [Recorded(time: 200, value: terminal)])
        #expect(xs.subscriptions == [])
    }

    @Test("disconnects when the last observer leaves and connects again for the next")
    func notConnected() {
        var disconnected = false
        var count = 0
        let xs: Observable<Int> = Observable.deferred {
            count += 1
            return Observable.create { _ in Disposables.create { disconnected = true } }
        }
        let subject = CountingSubject<Int>()
        let refCounted = xs.multicast(subject).refCount()

        let first = refCounted.subscribe { _ in }
        #expect(count == 1)
        #expect(subject.subscribeCount == 1)
        #expect(!disconnected)

        let second = refCounted.subscribe { _ in }
        #expect(count == 1)
        #expect(subject.subscribeCount == 2)
        #expect(!disconnected)

        first.dispose()
        #expect(!disconnected)
        second.dispose()
        #expect(disconnected)
        disconnected = false

        let third = refCounted.subscribe { _ in }
        #expect(count == 2)
        #expect(subject.subscribeCount == 3)
        #expect(!disconnected)
        third.dispose()
        #expect(disconnected)
    }

    @Test("an erroring source reaches every observer")
    func error() {
        let refCounted = Observable<Int>.error(testError).publish().refCount()
        for _ in 0..<2 {
            var events: [Event<Int>] = []
            _ = refCounted.subscribe { events.append($0) }
            #expect(events == [.error(testError)])
        }
    }

    @Test("publish().refCount() shares while anyone observes")
    func publish() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5),
            .next(260, 6), .next(270, 7), .next(280, 8), .next(290, 9), .completed(300),
        ])
        let res = xs.publish().refCount()
        var disposables: [Int: Disposable] = [:]
        let observers = (0..<4).map { _ in scheduler.createObserver(Int.self) }
        for (index, (subscribeAt, disposeAt)) in [(215, 235), (225, 275), (255, 265), (285, 320)].enumerated() {
            scheduler.scheduleAt(subscribeAt) { disposables[index] = res.subscribe(observers[index]) }
            scheduler.scheduleAt(disposeAt) { disposables[index]?.dispose() }
        }
        scheduler.start()

        #expect(observers[0].events == [.next(220, 2), .next(230, 3)])
        #expect(observers[1].events == [.next(230, 3), .next(240, 4), .next(250, 5), .next(260, 6), .next(270, 7)])
        #expect(observers[2].events == [.next(260, 6)])
        #expect(observers[3].events == [.next(290, 9), .completed(300)])
        #expect(xs.subscriptions == [Subscription(215, 275), Subscription(285, 300)])
    }

    @Test("resubscribing from a terminal handler connects anew", arguments: [true, false])
    func synchronousResubscribing(withError: Bool) {
        let scheduler = TestScheduler(initialClock: 0)
        func terminal(_ time: Int) -> Recorded<Event<Int>> {
            withError ? .error(time, testError) : .completed(time)
        }
        let xs1 = scheduler.createColdObservable([.next(10, 1), terminal(20)])
        let xs2 = scheduler.createColdObservable([.next(10, 2), terminal(30)])
        let xs3 = scheduler.createColdObservable([.next(10, 3), terminal(40)])
        var attempts = 0
        let xs = Observable.deferred { () -> Observable<Int> in
            defer { attempts += 1 }
            switch attempts {
            case 0: return xs1.asObservable()
            case 1: return xs2.asObservable()
            default: return xs3.asObservable()
            }
        }
        let res = xs.multicast(makeSubject: { PublishSubject() }).refCount()
        let o1 = scheduler.createObserver(Int.self)
        let o2 = scheduler.createObserver(Int.self)
        let o3 = scheduler.createObserver(Int.self)
        for (time, observer) in [(215, o1), (220, o2)] {
            scheduler.scheduleAt(time) {
                _ = res.subscribe { event in
                    observer.on(event)
                    if event.isStopEvent { _ = res.subscribe(observer) }
                }
            }
        }
        scheduler.scheduleAt(400) { _ = res.subscribe(o3) }
        scheduler.start()

        #expect(o1.events == [.next(225, 1), terminal(235), .next(245, 2), terminal(265)])
        #expect(o2.events == [.next(225, 1), terminal(235), .next(245, 2), terminal(265)])
        #expect(o3.events == [.next(410, 3), terminal(440)])
        #expect(xs1.subscriptions == [Subscription(215, 235)])
        #expect(xs2.subscriptions == [Subscription(235, 265)])
        #expect(xs3.subscriptions == [Subscription(400, 440)])
    }

    @Test("the state machine hands connecting to one subscriber and remembers disconnection")
    func stateMachineConnecting() {
        var state = RefCountState()
        let first = state.register()
        #expect(first.mustConnect)
        let second = state.register()
        #expect(!second.mustConnect)
        #expect(state.unregister(generation: first.generation) == nil)
        #expect(state.unregister(generation: second.generation) == nil)
        // Everyone left while connecting: the connector disposes what connect() returned.
        let connection = BooleanDisposable()
        guard case .dispose = state.connectFinished(connection) else {
            Issue.record("expected the connection to be disposed")
            return
        }
        #expect(state.count == 0)
        guard case .idle = state.connection else {
            Issue.record("expected no connection")
            return
        }
    }

    @Test("the state machine reconnects after a terminal event during connect")
    func stateMachineStaleConnect() {
        var state = RefCountState()
        let first = state.register()
        #expect(first.mustConnect)
        #expect(state.terminate(generation: first.generation) == nil)
        let late = state.register()
        #expect(!late.mustConnect)
        #expect(late.generation == first.generation + 1)
        guard case .disposeAndReconnect = state.connectFinished(BooleanDisposable()) else {
            Issue.record("expected a reconnection")
            return
        }
        let connection = BooleanDisposable()
        guard case .keep = state.connectFinished(connection) else {
            Issue.record("expected the new connection to be kept")
            return
        }
        // An observer of the ended generation leaving changes nothing.
        #expect(state.unregister(generation: first.generation) == nil)
        #expect(state.count == 1)
        let toDispose = state.unregister(generation: late.generation)
        let disposesConnection = (toDispose as AnyObject?) === connection
        #expect(disposesConnection)
    }
}

private final class FakeConnection {}

@Suite("The multicast state machine", .rxLeakCheck)
struct MulticastStateTests {
    @Test("refCount observers: counted before subscribing; the last one leaving drops the subject")
    func refCountLifecycle() {
        var state = MulticastState<String, FakeConnection>()
        #expect(state.reserve() == nil)
        state.install("first subject")
        guard let a = state.reserve() else {
            Issue.record("expected a subject")
            return
        }
        #expect(a.pair == "first subject")
        let b = state.reserve()
        // The first to confirm connects; the other joins.
        guard case .connect(let connection) = state.confirm(generation: a.generation, ended: false, make: { _ in FakeConnection() }) else {
            Issue.record("expected a connection")
            return
        }
        guard case .none = state.confirm(generation: a.generation, ended: false, make: { _ in FakeConnection() }) else {
            Issue.record("expected to join the connection")
            return
        }
        #expect(state.refCount == 2)
        #expect(state.release(generation: a.generation) == nil)
        let disconnected = state.release(generation: b?.generation ?? 0)
        #expect(disconnected === connection)
        // Dropped in the same transition: a new observer gets a new subject.
        #expect(state.subject == nil)
        #expect(state.generation == a.generation + 1)
        // The connection's own end afterwards changes nothing.
        state.connectionEnded(connection)
        #expect(state.generation == a.generation + 1)
    }

    @Test("a connection that ends forgets its generation's observers")
    func connectionEndForgetsObservers() {
        var state = MulticastState<String, FakeConnection>()
        state.install("subject")
        let a = state.reserve()!
        guard case .connect(let connection) = state.confirm(generation: a.generation, ended: false, make: { _ in FakeConnection() }) else {
            Issue.record("expected a connection")
            return
        }
        let late = state.reserve()!
        state.connectionEnded(connection)
        #expect(state.refCount == 0)
        // The late observer's subject terminated with the connection: it neither
        // connects nor counts, and leaving changes nothing.
        guard case .none = state.confirm(generation: late.generation, ended: false, make: { _ in FakeConnection() }) else {
            Issue.record("a stale observer must not connect")
            return
        }
        #expect(state.release(generation: a.generation) == nil)
        #expect(state.refCount == 0)
        state.install("next subject")
        let next = state.reserve()!
        #expect(next.pair == "next subject")
        #expect(next.generation == a.generation + 1)
    }

    @Test("an observer whose subject had terminated is uncounted at once")
    func endedWhileSubscribing() {
        var state = MulticastState<String, FakeConnection>()
        state.install("terminated subject")
        let a = state.reserve()!
        guard case .none = state.confirm(generation: a.generation, ended: true, make: { _ in FakeConnection() }) else {
            Issue.record("an ended observer must not connect")
            return
        }
        #expect(state.refCount == 0)
        guard case .idle = state.phase else {
            Issue.record("expected no connection")
            return
        }
    }
}

/// A subject as the multicast state sees it: only its identity matters.
private final class FakeSubject {}

extension MulticastState where Pair == FakeSubject, Connection == FakeConnection {
    /// A state that recognises a subject by its identity.
    fileprivate static func byIdentity() -> Self {
        Self(subjectIdentity: { $0 })
    }

    /// Installs `subject` unless one is installed, then counts one refCount observer of
    /// the installed subject and confirms its subscription.
    fileprivate mutating func observe(_ subject: FakeSubject) -> (generation: UInt64, confirmation: Confirmation) {
        install(subject)
        guard let reserved = reserve() else {
            rxFatalError("a subject was just installed")
        }
        #expect(reserved.pair === subject)
        return (reserved.generation, confirm(generation: reserved.generation, ended: false, make: { _ in FakeConnection() }))
    }

    /// Connects a first observer of `subject` and ends that connection.
    fileprivate mutating func connectAndEnd(_ subject: FakeSubject, byTerminalEvent: Bool) -> UInt64? {
        let first = observe(subject)
        guard case .connect(let connection) = first.confirmation else {
            Issue.record("the first observer did not connect")
            return nil
        }
        connectionEnded(connection, byTerminalEvent: byTerminalEvent)
        #expect(self.subject == nil)
        return first.generation
    }
}

@Suite("The multicast state machine over one fixed subject", .rxLeakCheck)
struct MulticastStateFixedSubjectTests {
    @Test("an observer of the subject a terminal event went into is counted and does not connect")
    func terminatedSubjectNeverReconnects() {
        let fixed = FakeSubject()
        var state = MulticastState.byIdentity()
        // The source terminates: the connection ends before the subject passes the
        // terminal event on, and the same subject is installed again meanwhile.
        guard let ended = state.connectAndEnd(fixed, byTerminalEvent: true) else { return }
        let late = state.observe(fixed)
        #expect(late.generation == ended + 1)
        guard case .none = late.confirmation else {
            Issue.record("an observer of a terminated subject must not connect")
            return
        }
        #expect(state.refCount == 1)
        // Its terminal event arrives: it leaves, and there is nothing to disconnect.
        #expect(state.release(generation: late.generation) == nil)
        #expect(state.refCount == 0)
    }

    @Test("after a terminal event, an observer of a new subject connects")
    func newSubjectConnects() {
        var state = MulticastState.byIdentity()
        guard state.connectAndEnd(FakeSubject(), byTerminalEvent: true) != nil else { return }
        let next = state.observe(FakeSubject())
        #expect(state.terminatedSubject == nil)
        guard case .connect = next.confirmation else {
            Issue.record("an observer of a new subject must connect")
            return
        }
    }

    @Test("a connection disposed without a terminal event leaves its subject reconnectable")
    func disposedSubjectReconnects() {
        let fixed = FakeSubject()
        var state = MulticastState.byIdentity()
        guard state.connectAndEnd(fixed, byTerminalEvent: false) != nil else { return }
        guard case .connect = state.observe(fixed).confirmation else {
            Issue.record("the subject did not terminate: its next observer connects again")
            return
        }
    }
}

/// A connectable written outside Rivulet: one subject; each `connect()` subscribes it to
/// the source again.
private final class HandMadeConnectable<Element>: ConnectableObservableType, @unchecked Sendable {
    private let source: Observable<Element>
    private let subject = PublishSubject<Element>()
    private let lock = NSLock()
    private var connections = 0

    init(_ source: Observable<Element>) {
        self.source = source
    }

    var connectCount: Int { lock.withLock { connections } }

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    func connect() -> Disposable {
        lock.withLock { connections += 1 }
        return source.subscribe(subject.asObserver())
    }
}

@Suite("refCount over a connectable made elsewhere", .rxLeakCheck)
struct GenericRefCountTests {
    @Test("connects on the first observer and disconnects after the last")
    func connectsAndDisconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(260, 6),
        ])
        let connectable = HandMadeConnectable(xs.asObservable())
        let refCounted = connectable.refCount()
        let o1 = scheduler.createObserver(Int.self)
        let o2 = scheduler.createObserver(Int.self)
        var d1: Disposable?
        var d2: Disposable?
        scheduler.scheduleAt(205) { d1 = refCounted.subscribe(o1) }
        scheduler.scheduleAt(215) { d2 = refCounted.subscribe(o2) }
        scheduler.scheduleAt(225) { d1?.dispose() }
        scheduler.scheduleAt(235) { d2?.dispose() }
        scheduler.scheduleAt(245) { d1 = refCounted.subscribe(o1) }
        scheduler.scheduleAt(255) { d1?.dispose() }
        scheduler.start()

        #expect(o1.events == [.next(210, 1), .next(220, 2), .next(250, 5)])
        #expect(o2.events == [.next(220, 2), .next(230, 3)])
        #expect(xs.subscriptions == [Subscription(205, 235), Subscription(245, 255)])
        #expect(connectable.connectCount == 2)
    }

    @Test("a terminal event ends the connection; resubscribing to a completed subject does not connect")
    func terminalAndResubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let connectable = HandMadeConnectable(xs.asObservable())
        let refCounted = connectable.refCount()
        let res = scheduler.createObserver(Int.self)
        let again = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = refCounted.subscribe { event in
                res.on(event)
                if event.isStopEvent { _ = refCounted.subscribe(again) }
            }
        }
        scheduler.start()
        // The hand-made connectable's subject stays completed: the resubscription gets
        // the terminal event at once and does not connect.
        #expect(res.events == [.next(210, 1), .completed(220)])
        #expect(again.events == [.completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(connectable.connectCount == 1)
    }

    @Test("observers subscribing and leaving on several threads keep the connections balanced")
    func concurrentChurn() {
        let subject = PublishSubject<Int>()
        let connectable = HandMadeConnectable(subject.asObservable())
        let refCounted = connectable.refCount()
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread {
                for _ in 0..<300 {
                    refCounted.subscribe { _ in }.dispose()
                }
                group.leave()
            }.start()
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(!subject.hasObservers)
        #expect(connectable.connectCount >= 1)
    }

    @Test("a synchronous source, threads subscribing at once: every observer gets part of the sequence in order, then completed")
    func synchronousSourceConcurrentObservers() {
        // The number of connections is not fixed: this refCount counts an observer after
        // it subscribed to the connectable, as RxSwift's does, and one that is counted
        // after the terminal event reached another observer but before it reached
        // itself connects again (feeding a subject that has completed), in RxSwift too.
        let valid: [[Int]] = [[1, 2, 3], [2, 3], [3], []]
        for _ in 0..<50 {
            let connectable = HandMadeConnectable(Observable.of(1, 2, 3))
            let refCounted = connectable.refCount()
            let observers = (0..<64).map { _ in LockedState<[Event<Int>]>([]) }
            let group = DispatchGroup()
            group.enter()
            Thread {
                DispatchQueue.concurrentPerform(iterations: observers.count) { index in
                    _ = refCounted.subscribe { event in observers[index].withLock { $0.append(event) } }
                }
                group.leave()
            }.start()
            #expect(group.wait(timeout: .now() + 30) == .success)
            for observer in observers {
                let events = observer.current
                #expect(events.last == .completed)
                #expect(events.filter(\.isStopEvent).count == 1)
                #expect(valid.contains(events.compactMap(\.element)))
            }
            #expect(connectable.connectCount >= 1)
        }
    }
}

@Suite("replay(_:) and replayAll()", .rxLeakCheck)
struct ReplayOperatorTests {
    private func source(_ scheduler: TestScheduler, _ terminal: Recorded<Event<Int>>) -> TestableObservable<Int> {
        scheduler.createColdObservable([
            .next(10, 5), .next(20, 9), .next(30, 11), .next(40, 20), .next(50, 22), .next(60, 23), .next(70, 24), .next(80, 25), terminal,
        ])
    }

    /// Connects at 400 (disposed 520) and 650 (disposed 700); subscribes at 450.
    private func run(
        _ make: @escaping (TestableObservable<Int>) -> ConnectableObservable<Int>,
        terminal: Recorded<Event<Int>>,
        disposeAt: Int = 1000
    ) -> (events: [Recorded<Event<Int>>], subscriptions: [Subscription]) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, terminal)
        var ys: ConnectableObservable<Int>!
        var subscription: Disposable?
        var connection: Disposable?
        let res = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { ys = make(xs) }
        scheduler.scheduleAt(450) { subscription = ys.subscribe(res) }
        scheduler.scheduleAt(disposeAt) { subscription?.dispose() }
        scheduler.scheduleAt(400) { connection = ys.connect() }
        scheduler.scheduleAt(520) { connection?.dispose() }
        scheduler.scheduleAt(650) { connection = ys.connect() }
        scheduler.scheduleAt(700) { connection?.dispose() }
        scheduler.start()
        return (res.events, xs.subscriptions)
    }

    @Test("replay(3): replays three, then forwards until the connection ends")
    func replayCount() {
        let basic = run({ $0.replay(3) }, terminal: .error(130, testError))
        #expect(basic.events == [.next(450, 9), .next(450, 11), .next(450, 20), .next(450, 22), .next(460, 23), .next(470, 24), .next(480, 25)])
        #expect(basic.subscriptions == [Subscription(400, 520), Subscription(650, 700)])

        let failing = run({ $0.replay(3) }, terminal: .error(90, testError))
        #expect(failing.events == [
            .next(450, 9), .next(450, 11), .next(450, 20), .next(450, 22), .next(460, 23), .next(470, 24), .next(480, 25), .error(490, testError),
        ])
        #expect(failing.subscriptions == [Subscription(400, 490), Subscription(650, 700)])

        let completing = run({ $0.replay(3) }, terminal: .completed(90))
        #expect(completing.events == [
            .next(450, 9), .next(450, 11), .next(450, 20), .next(450, 22), .next(460, 23), .next(470, 24), .next(480, 25), .completed(490),
        ])
        #expect(completing.subscriptions == [Subscription(400, 490), Subscription(650, 700)])

        let disposed = run({ $0.replay(3) }, terminal: .completed(130), disposeAt: 475)
        #expect(disposed.events == [.next(450, 9), .next(450, 11), .next(450, 20), .next(450, 22), .next(460, 23), .next(470, 24)])
        #expect(disposed.subscriptions == [Subscription(400, 520), Subscription(650, 700)])
    }

    @Test("replay(1): replays the latest element")
    func replayOne() {
        let basic = run({ $0.replay(1) }, terminal: .completed(130))
        #expect(basic.events == [.next(450, 20), .next(450, 22), .next(460, 23), .next(470, 24), .next(480, 25)])
        #expect(basic.subscriptions == [Subscription(400, 520), Subscription(650, 700)])

        let failing = run({ $0.replay(1) }, terminal: .error(90, testError))
        #expect(failing.events == [.next(450, 20), .next(450, 22), .next(460, 23), .next(470, 24), .next(480, 25), .error(490, testError)])
        #expect(failing.subscriptions == [Subscription(400, 490), Subscription(650, 700)])

        let completing = run({ $0.replay(1) }, terminal: .completed(90))
        #expect(completing.events == [.next(450, 20), .next(450, 22), .next(460, 23), .next(470, 24), .next(480, 25), .completed(490)])
        #expect(completing.subscriptions == [Subscription(400, 490), Subscription(650, 700)])

        let disposed = run({ $0.replay(1) }, terminal: .completed(90), disposeAt: 475)
        #expect(disposed.events == [.next(450, 20), .next(450, 22), .next(460, 23), .next(470, 24)])
        #expect(disposed.subscriptions == [Subscription(400, 490), Subscription(650, 700)])
    }

    @Test("replayAll(): replays everything of the connection")
    func replayAll() {
        let all: [Recorded<Event<Int>>] = [.next(450, 5), .next(450, 9), .next(450, 11), .next(450, 20), .next(450, 22)]
        let basic = run({ $0.replayAll() }, terminal: .completed(130))
        #expect(basic.events == all + [.next(460, 23), .next(470, 24), .next(480, 25)])
        #expect(basic.subscriptions == [Subscription(400, 520), Subscription(650, 700)])

        let failing = run({ $0.replayAll() }, terminal: .error(90, testError))
        #expect(failing.events == all + [.next(460, 23), .next(470, 24), .next(480, 25), .error(490, testError)])
        #expect(failing.subscriptions == [Subscription(400, 490), Subscription(650, 700)])

        let completing = run({ $0.replayAll() }, terminal: .completed(90))
        #expect(completing.events == all + [.next(460, 23), .next(470, 24), .next(480, 25), .completed(490)])
        #expect(completing.subscriptions == [Subscription(400, 490), Subscription(650, 700)])

        let disposed = run({ $0.replayAll() }, terminal: .completed(130), disposeAt: 475)
        #expect(disposed.events == all + [.next(460, 23), .next(470, 24)])
        #expect(disposed.subscriptions == [Subscription(400, 520), Subscription(650, 700)])
    }
}

@Suite("Connectable operators release their resources", .rxLeakCheck)
struct MulticastResourceTests {
    // Resources.total is process-wide and suites run in parallel, so each check runs in
    // a process of its own; the exit code names the scenario that leaked.
    @Test("multicast, publish, replay and refCount release everything after a terminal event")
    func releasesResources() async {
        await #expect(processExitsWith: .success) {
            let scenarios: [() -> Void] = [
                {
                    let connectable = Observable<Int>.just(1).multicast(makeSubject: { PublishSubject() })
                    _ = connectable.subscribe()
                    _ = connectable.connect()
                },
                {
                    let connectable = Observable<Int>.error(testError).multicast(makeSubject: { PublishSubject() })
                    _ = connectable.subscribe(onError: { _ in })
                    _ = connectable.connect()
                },
                {
                    let connectable = Observable<Int>.just(1).multicast(PublishSubject())
                    _ = connectable.subscribe()
                    _ = connectable.connect()
                },
                {
                    let connectable = Observable<Int>.error(testError).multicast(PublishSubject())
                    _ = connectable.subscribe(onError: { _ in })
                    _ = connectable.connect()
                },
                { _ = Observable<Int>.just(1).multicast({ PublishSubject<Int>() }) { $0 }.subscribe() },
                { _ = Observable<Int>.error(testError).multicast({ PublishSubject<Int>() }) { $0 }.subscribe(onError: { _ in }) },
                {
                    let connectable = Observable<Int>.just(1).publish()
                    _ = connectable.subscribe()
                    _ = connectable.connect()
                },
                { _ = Observable<Int>.just(1).publish().refCount().subscribe() },
                { _ = Observable<Int>.error(testError).publish().refCount().subscribe(onError: { _ in }) },
                {
                    let connectable = Observable<Int>.just(1).replay(1)
                    _ = connectable.connect()
                    _ = connectable.subscribe()
                },
                {
                    let connectable = Observable<Int>.error(testError).replayAll()
                    _ = connectable.connect()
                    _ = connectable.subscribe(onError: { _ in })
                },
                {
                    // Disposing the connection and the subscription of a live source.
                    let subject = PublishSubject<Int>()
                    let shared = subject.publish().refCount()
                    let subscription = shared.subscribe()
                    subject.onNext(1)
                    subscription.dispose()
                },
            ]
            for (index, scenario) in scenarios.enumerated() {
                let before = Resources.total
                scenario()
                if Resources.total != before { exit(Int32(index + 1)) }
            }
        }
    }
}

