import Foundation
import RivuletTestSupport
import RxBlocking
@testable import RxSwift
import RxTest
import Testing

/// A source that keeps every observer it was given, and can still send to it after the
/// subscription is disposed.
private final class RawSource: ObservableType, @unchecked Sendable {
    typealias Element = Int
    private(set) var observers: [AnyObserver<Int>] = []
    private(set) var subscriptions = 0
    private(set) var disposals = 0

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
        subscriptions += 1
        observers.append(AnyObserver(observer))
        return Disposables.create { [self] in disposals += 1 }
    }
}

/// RxSwift's share scenario: observers at 200–350 and 300–400 (with optional
/// resubscription from their terminal handler), a third at 500–600.
private struct ShareScenario {
    let res1: TestableObserver<Int>
    let res2: TestableObserver<Int>
    let res1Again: TestableObserver<Int>
    let res2Again: TestableObserver<Int>
    let res3: TestableObserver<Int>
    let subscriptions: [Subscription]

    init(replay: Int, scope: SubjectLifetimeScope, terminal: Event<Int>? = nil, defaultArguments: Bool = false) {
        let scheduler = TestScheduler(initialClock: 0)
        var events: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6)]
        if let terminal {
            events += [Recorded(time: 330, value: terminal), .next(340, -1)]
        }
        events.append(.next(550, 7))
        let xs = scheduler.createHotObservable(events)

        let res1 = scheduler.createObserver(Int.self)
        let res2 = scheduler.createObserver(Int.self)
        let res1Again = scheduler.createObserver(Int.self)
        let res2Again = scheduler.createObserver(Int.self)
        let res3 = scheduler.createObserver(Int.self)
        var ys: Observable<Int>!
        var subscription1: Disposable?
        var subscription2: Disposable?
        var subscription3: Disposable?

        scheduler.scheduleAt(100) { ys = defaultArguments ? xs.share() : xs.share(replay: replay, scope: scope) }
        scheduler.scheduleAt(200) {
            subscription1 = ys.subscribe { event in
                res1.on(event)
                if event.isStopEvent { subscription1 = ys.subscribe(res1Again) }
            }
        }
        scheduler.scheduleAt(300) {
            subscription2 = ys.subscribe { event in
                res2.on(event)
                if event.isStopEvent { subscription2 = ys.subscribe(res2Again) }
            }
        }
        scheduler.scheduleAt(350) { subscription1?.dispose() }
        scheduler.scheduleAt(400) { subscription2?.dispose() }
        scheduler.scheduleAt(500) { subscription3 = ys.subscribe(res3) }
        scheduler.scheduleAt(600) { subscription3?.dispose() }
        scheduler.start()

        self.res1 = res1
        self.res2 = res2
        self.res1Again = res1Again
        self.res2Again = res2Again
        self.res3 = res3
        self.subscriptions = xs.subscriptions
    }
}

/// `count` replayed elements at `time`, the last being `last`.
private func replayed(_ count: Int, at time: Int, endingWith last: Int) -> [Recorded<Event<Int>>] {
    (0..<count).map { .next(time, last - count + 1 + $0) }
}

@Suite("share(replay:scope:)", .rxLeakCheck)
struct ShareReplayScopeTests {
    private let firstElements: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6)]

    @Test("share() shares without replay while connected")
    func defaultArguments() {
        let scenario = ShareScenario(replay: 0, scope: .whileConnected, defaultArguments: true)
        #expect(scenario.res1.events == firstElements)
        #expect(scenario.res2.events == [.next(320, 6)])
        #expect(scenario.res3.events == [.next(550, 7)])
        #expect(scenario.subscriptions == [Subscription(200, 400), Subscription(500, 600)])
    }

    @Test(".forever keeps the replay buffer across connections", arguments: 0..<5)
    func foreverReceivesCorrectElements(replay: Int) {
        let scenario = ShareScenario(replay: replay, scope: .forever)
        #expect(scenario.res1.events == firstElements)
        #expect(scenario.res2.events == replayed(replay, at: 300, endingWith: 5) + [.next(320, 6)])
        #expect(scenario.res3.events == replayed(replay, at: 500, endingWith: 6) + [.next(550, 7)])
        #expect(scenario.subscriptions == [Subscription(200, 400), Subscription(500, 600)])
    }

    @Test(".whileConnected drops the replay buffer with the connection", arguments: 0..<5)
    func whileConnectedReceivesCorrectElements(replay: Int) {
        let scenario = ShareScenario(replay: replay, scope: .whileConnected)
        #expect(scenario.res1.events == firstElements)
        #expect(scenario.res2.events == replayed(replay, at: 300, endingWith: 5) + [.next(320, 6)])
        #expect(scenario.res3.events == [.next(550, 7)])
        #expect(scenario.subscriptions == [Subscription(200, 400), Subscription(500, 600)])
    }

    @Test(".forever: after a terminal event, later observers get the replay and the terminal event",
          arguments: [Event<Int>.completed, .error(testError)], 0..<5)
    func foreverTerminal(terminal: Event<Int>, replay: Int) {
        let scenario = ShareScenario(replay: replay, scope: .forever, terminal: terminal)
        #expect(scenario.res1.events == firstElements + [Recorded(time: 330, value: terminal)])
        #expect(scenario.res1Again.events == replayed(replay, at: 330, endingWith: 6) + [Recorded(time: 330, value: terminal)])
        #expect(scenario.res2Again.events == replayed(replay, at: 330, endingWith: 6) + [Recorded(time: 330, value: terminal)])
        #expect(scenario.res2.events == replayed(replay, at: 300, endingWith: 5) + [.next(320, 6), Recorded(time: 330, value: terminal)])
        #expect(scenario.res3.events == replayed(replay, at: 500, endingWith: 6) + [Recorded(time: 500, value: terminal)])
        #expect(scenario.subscriptions == [Subscription(200, 330)])
    }

    @Test(".whileConnected: after a terminal event, the next observer subscribes to the source again",
          arguments: [Event<Int>.completed, .error(testError)], 0..<5)
    func whileConnectedTerminal(terminal: Event<Int>, replay: Int) {
        let scenario = ShareScenario(replay: replay, scope: .whileConnected, terminal: terminal)
        #expect(scenario.res1.events == firstElements + [Recorded(time: 330, value: terminal)])
        #expect(scenario.res1Again.events == [.next(340, -1)])
        #expect(scenario.res2Again.events == [.next(340, -1)])
        #expect(scenario.res2.events == replayed(replay, at: 300, endingWith: 5) + [.next(320, 6), Recorded(time: 330, value: terminal)])
        #expect(scenario.res3.events == [.next(550, 7)])
        #expect(scenario.subscriptions == [Subscription(200, 330), Subscription(330, 400), Subscription(500, 600)])
    }

    @Test("disposal before completion unsubscribes from the source", arguments: 0..<3)
    func disposeBeforeCompletion(replay: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3), .completed(40)])
        let res = scheduler.start(disposed: 225) { xs.share(replay: replay) }
        #expect(res.events == [.next(210, 1), .next(220, 2)])
        #expect(xs.subscriptions == [Subscription(200, 225)])
    }

    @Test("a cold source completes and errors through share", arguments: 0..<3)
    func coldSource(replay: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let res = scheduler.start { xs.share(replay: replay) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])

        let failing = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let observer = scheduler.createObserver(Int.self)
        let shared = failing.share(replay: replay)
        scheduler.scheduleAt(1100) { _ = shared.subscribe(observer) }
        scheduler.start()
        #expect(observer.events == [.next(1110, 1), .error(1120, testError)])
        #expect(failing.subscriptions == [Subscription(1100, 1120)])
    }

    @Test("whileConnected repeats the work per connection; forever does it once")
    func workPerConnection() {
        for (scope, expectedWork) in [(SubjectLifetimeScope.whileConnected, 3), (.forever, 1)] {
            var work = 0
            let xs = Observable<Int>.deferred {
                work += 1
                return Observable.just(work)
            }.share(replay: 1, scope: scope)
            var received: [[Event<Int>]] = []
            for _ in 0..<3 {
                var events: [Event<Int>] = []
                _ = xs.subscribe { events.append($0) }
                received.append(events)
            }
            #expect(work == expectedWork)
            if scope == .forever {
                #expect(received == Array(repeating: [.next(1), .completed], count: 3))
            } else {
                #expect(received == [[.next(1), .completed], [.next(2), .completed], [.next(3), .completed]])
            }
        }
    }

    @Test("replay 1 replays the latest element before newer ones")
    func replayOneOrder() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        var first: [Int] = []
        var second: [Int] = []
        let d1 = shared.subscribe(onNext: { first.append($0) })
        subject.onNext(1)
        subject.onNext(2)
        let d2 = shared.subscribe(onNext: { second.append($0) })
        subject.onNext(3)
        #expect(first == [1, 2, 3])
        #expect(second == [2, 3])
        d1.dispose()
        d2.dispose()
        #expect(!subject.hasObservers)
        // The connection ended: the latest element is gone.
        var third: [Int] = []
        let d3 = shared.subscribe(onNext: { third.append($0) })
        #expect(third.isEmpty)
        subject.onNext(4)
        #expect(third == [4])
        d3.dispose()
    }

    @Test("disposing twice and after the connection ended changes nothing")
    func idempotentDisposal() {
        let subject = PublishSubject<Int>()
        let shared = subject.share()
        var first: [Int] = []
        var second: [Int] = []
        let d1 = shared.subscribe(onNext: { first.append($0) })
        let d2 = shared.subscribe(onNext: { second.append($0) })
        d1.dispose()
        d1.dispose()
        subject.onNext(1)
        #expect(first.isEmpty)
        #expect(second == [1])
        d2.dispose()
        let d3 = shared.subscribe(onNext: { first.append($0) })
        d2.dispose()
        subject.onNext(2)
        #expect(first == [2])
        d3.dispose()
    }

    @Test("the connection: connect once, replay to joiners, disconnect with the last observer, ignore an ended connection's events")
    func connectionLifecycle() {
        let source = RawSource()
        let shared = source.asObservable().share(replay: 2)
        var first: [Int] = []
        var second: [Int] = []
        var joiner: [Int] = []
        var third: [Int] = []
        let d1 = shared.subscribe(onNext: { first.append($0) })
        #expect(source.subscriptions == 1)
        source.observers[0].onNext(7)
        let d2 = shared.subscribe(onNext: { second.append($0) })
        #expect(source.subscriptions == 1)
        #expect(second == [7])
        source.observers[0].onNext(8)
        source.observers[0].onNext(9)
        let d3 = shared.subscribe(onNext: { joiner.append($0) })
        #expect(joiner == [8, 9])
        d3.dispose()
        d1.dispose()
        d1.dispose()
        #expect(source.disposals == 0)
        d2.dispose()
        #expect(source.disposals == 1)
        // A new connection: a new subscription to the source, and no replay of the
        // ended connection's buffer.
        let d4 = shared.subscribe(onNext: { third.append($0) })
        #expect(source.subscriptions == 2)
        #expect(third.isEmpty)
        // The ended connection's source is ignored; the live one is passed on.
        source.observers[0].onNext(10)
        #expect(third.isEmpty)
        source.observers[1].onNext(11)
        #expect(third == [11])
        #expect(first == [7, 8, 9])
        #expect(second == [7, 8, 9])
        d4.dispose()
        #expect(source.disposals == 2)
    }

    @Test("an endless synchronous source stops when the last observer leaves")
    func endlessSynchronousSource() {
        let finished = DispatchSemaphore(value: 0)
        let results = LockedBox<[[Int]]>([])
        let thread = Thread {
            for scope in [SubjectLifetimeScope.whileConnected, .forever] {
                for replay in 0..<3 {
                    let values = try? Observable.repeatElement(1).share(replay: replay, scope: scope).take(3).toBlocking().toArray()
                    results.append(values ?? [])
                }
            }
            finished.signal()
        }
        thread.start()
        #expect(finished.wait(timeout: .now() + 30) == .success, "the endless source was never disposed")
        #expect(results.value == Array(repeating: [1, 1, 1], count: 6))
    }

    @Test("observers that leave, join or end the source while an element is delivered", arguments: 0..<3)
    func changesDuringDelivery(replay: Int) {
        let source = PublishSubject<Int>()
        let log = logChangesDuringDelivery(of: source.share(replay: replay), send: source.onNext, complete: source.onCompleted)
        // The joiner gets the replay (the last `replay` of 1, 2) and, once 3 ended the
        // source from inside its own delivery, the completion; 3 comes to it after that
        // and is dropped.
        let joined = ["c1", "c2"].suffix(replay)
        #expect(log.filter { !$0.hasPrefix("b") } == ["a1", "a2"] + joined + ["a3", "a|", "c|"])
        #expect(log.filter { $0.hasPrefix("b") }.prefix(1) == ["b1"])
        #expect(!log.contains("b3") && !log.contains("b|"))
        #expect(!log.contains { $0.hasSuffix("4") })
    }

    @Test("a negative replay count is a clear crash")
    func negativeReplay() async {
        await #expect(processExitsWith: .failure) {
            _ = Observable<Int>.never().share(replay: -1)
        }
    }
}

@Suite("share releases its resources", .rxLeakCheck)
struct ShareResourceTests {
    // Resources.total is process-wide and suites run in parallel, so the check runs in a
    // process of its own; the exit code names the scenario that leaked.
    @Test("share(replay:scope:) releases everything after a terminal event or disposal")
    func releasesResources() async {
        await #expect(processExitsWith: .success) {
            var code: Int32 = 0
            for scope in [SubjectLifetimeScope.whileConnected, .forever] {
                for replay in 0..<5 {
                    let scenarios: [() -> Void] = [
                        { _ = Observable<Int>.just(1).share(replay: replay, scope: scope).subscribe() },
                        { _ = Observable<Int>.error(testError).share(replay: replay, scope: scope).subscribe(onError: { _ in }) },
                        {
                            let subject = PublishSubject<Int>()
                            let shared = subject.share(replay: replay, scope: scope)
                            let first = shared.subscribe()
                            subject.onNext(1)
                            let second = shared.subscribe()
                            first.dispose()
                            second.dispose()
                        },
                    ]
                    for scenario in scenarios {
                        code += 1
                        let before = Resources.total
                        scenario()
                        if Resources.total != before { exit(code) }
                    }
                }
            }
        }
    }
}

/// Subscribes observers a and b to `sequence`, sends 1, 2, 3 and (after disposing every
/// subscription) 4 with `send`, and returns what the observers saw: "a1" for an element,
/// "a|" for completion. While 2 is delivered, a disposes b's subscription and
/// subscribes c; while 3 is, a completes the source with `complete`.
func logChangesDuringDelivery(of sequence: Observable<Int>, send: (Int) -> Void, complete: @escaping () -> Void) -> [String] {
    var log: [String] = []
    var later: Disposable?
    var second: Disposable?
    let first = sequence.subscribe(onNext: { value in
        log.append("a\(value)")
        if value == 2 {
            second?.dispose()
            later = sequence.subscribe(onNext: { log.append("c\($0)") }, onCompleted: { log.append("c|") })
        }
        if value == 3 { complete() }
    }, onCompleted: { log.append("a|") })
    second = sequence.subscribe(onNext: { log.append("b\($0)") }, onCompleted: { log.append("b|") })
    for value in 1...3 { send(value) }
    first.dispose()
    later?.dispose()
    send(4)
    return log
}
