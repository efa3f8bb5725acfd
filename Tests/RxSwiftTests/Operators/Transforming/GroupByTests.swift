import Foundation
import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

private func normalized(_ text: String) -> String {
    text.lowercased().trimmingCharacters(in: .whitespaces)
}

/// RxSwift's groupBy source: keys foo, bar, baz, qux; `terminal` at 570.
private func wordSource(_ scheduler: TestScheduler, terminal: Recorded<Event<String>> = .completed(570)) -> TestableObservable<String> {
    scheduler.createHotObservable([
        .next(90, "abc"), .next(110, "zoo"), .next(130, "oof"),
        .next(220, "  foo"), .next(240, " FoO "), .next(270, "baR  "), .next(310, "foO "), .next(350, " Baz   "),
        .next(360, "  qux "), .next(390, "   bar"), .next(420, " BAR  "), .next(470, "FOO "), .next(480, "baz  "),
        .next(510, " bAZ "), .next(530, "    fOo    "),
        terminal,
        .next(580, "error"), .completed(600), .error(650, testError),
    ])
}

/// Subscribes to the groups as they come (optionally `delay` ticks later), recording
/// each group's events; `disposals` lists when to dispose what.
private final class GroupHarness {
    let scheduler = TestScheduler(initialClock: 0)
    let xs: TestableObservable<String>
    let outerResults: TestableObserver<String>
    var results: [String: TestableObserver<String>] = [:]
    var innerSubscriptions: [String: Disposable] = [:]
    var outerSubscription: Disposable?
    var groupCount = 0

    init(terminal: Recorded<Event<String>> = .completed(570), keySelector: @escaping (String) throws -> String = normalized, subscribeGroupsAfter delay: Int? = 0) {
        xs = wordSource(scheduler, terminal: terminal)
        outerResults = scheduler.createObserver(String.self)
        let outer = xs.groupBy(keySelector: keySelector)
        scheduler.scheduleAt(200) { [unowned self] in
            outerSubscription = outer.subscribe(
                onNext: { [unowned self] group in
                    outerResults.onNext(group.key)
                    groupCount += 1
                    let result = scheduler.createObserver(String.self)
                    results[group.key] = result
                    guard let delay else { return }
                    if delay == 0 {
                        innerSubscriptions[group.key] = group.subscribe(result)
                    } else {
                        innerSubscriptions[group.key] = scheduler.scheduleRelative((), dueTime: .seconds(delay)) { _ in
                            group.subscribe(result)
                        }
                    }
                },
                onError: { [unowned self] in outerResults.onError($0) },
                onCompleted: { [unowned self] in outerResults.onCompleted() }
            )
        }
    }

    func disposeOuter(at time: Int) {
        scheduler.scheduleAt(time) { [unowned self] in outerSubscription?.dispose() }
    }

    func disposeInner(_ key: String, at time: Int) {
        scheduler.scheduleAt(time) { [unowned self] in innerSubscriptions[key]?.dispose() }
    }

    func disposeAll(at time: Int) {
        scheduler.scheduleAt(time) { [unowned self] in
            outerSubscription?.dispose()
            for disposable in innerSubscriptions.values { disposable.dispose() }
        }
    }

    func events(_ key: String) -> [Recorded<Event<String>>] {
        results[key]?.events ?? []
    }
}

@Suite("groupBy", .rxLeakCheck)
struct GroupByTests {
    @Test("two groups carry their elements; everything completes with the source")
    func twoGroups() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5),
            .next(350, 6), .next(370, 7), .next(420, 8), .next(470, 9), .completed(600),
        ])
        let inner = scheduler.createObserver(String.self)
        let groupEnds = scheduler.createObserver(Int.self)
        var index = 0
        let res = scheduler.start { () -> Observable<Int> in
            xs.groupBy { $0 % 2 }.map { group -> Int in
                let groupIndex = index
                index += 1
                _ = group.map { "\(groupIndex) \($0)" }.subscribe(
                    onNext: { inner.onNext($0) },
                    onCompleted: { groupEnds.onNext(group.key) }
                )
                return group.key
            }
        }
        #expect(res.events == [.next(205, 1), .next(210, 0), .completed(600)])
        #expect(inner.events == [
            .next(205, "0 1"), .next(210, "1 2"), .next(240, "0 3"), .next(280, "1 4"), .next(320, "0 5"),
            .next(350, "1 6"), .next(370, "0 7"), .next(420, "1 8"), .next(470, "0 9"),
        ])
        #expect(groupEnds.events == [.next(600, 1), .next(600, 0)])
        #expect(xs.subscriptions == [Subscription(200, 600)])
    }

    @Test("the outer sequence completes, fails or is disposed with the source")
    func outer() {
        for (terminal, expectedEnd) in [
            (Recorded<Event<String>>.completed(570), [Recorded<Event<String>>.completed(570)]),
            (.error(570, testError), [.error(570, testError)]),
        ] {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = wordSource(scheduler, terminal: terminal)
            var keyInvoked = 0
            let res = scheduler.start {
                xs.groupBy { text -> String in
                    keyInvoked += 1
                    if text == "error" { throw testError }
                    return normalized(text)
                }.map { $0.key }
            }
            #expect(res.events == [.next(220, "foo"), .next(270, "bar"), .next(350, "baz"), .next(360, "qux")] + expectedEnd)
            #expect(xs.subscriptions == [Subscription(200, 570)])
            #expect(keyInvoked == 12)
        }

        let scheduler = TestScheduler(initialClock: 0)
        let xs = wordSource(scheduler)
        var keyInvoked = 0
        let res = scheduler.start(disposed: 355) {
            xs.groupBy { text -> String in
                keyInvoked += 1
                return normalized(text)
            }.map { $0.key }
        }
        #expect(res.events == [.next(220, "foo"), .next(270, "bar"), .next(350, "baz")])
        #expect(xs.subscriptions == [Subscription(200, 355)])
        #expect(keyInvoked == 5)
    }

    @Test("a throwing key selector fails the outer sequence")
    func outerKeySelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = wordSource(scheduler)
        var keyInvoked = 0
        let res = scheduler.start {
            xs.groupBy { text -> String in
                keyInvoked += 1
                if keyInvoked == 10 { throw testError }
                return normalized(text)
            }.map { $0.key }
        }
        #expect(res.events == [.next(220, "foo"), .next(270, "bar"), .next(350, "baz"), .next(360, "qux"), .error(480, testError)])
        #expect(xs.subscriptions == [Subscription(200, 480)])
        #expect(keyInvoked == 10)
    }

    @Test("groups subscribed 100 ticks late see later elements and the terminal event",
          arguments: [Recorded<Event<String>>.completed(570), .error(570, testError)])
    func innerDelayed(terminal: Recorded<Event<String>>) {
        let harness = GroupHarness(terminal: terminal, subscribeGroupsAfter: 100)
        harness.disposeAll(at: 1000)
        harness.scheduler.start()
        #expect(harness.groupCount == 4)
        #expect(harness.events("foo") == [.next(470, "FOO "), .next(530, "    fOo    "), terminal])
        #expect(harness.events("bar") == [.next(390, "   bar"), .next(420, " BAR  "), terminal])
        #expect(harness.events("baz") == [.next(480, "baz  "), .next(510, " bAZ "), terminal])
        #expect(harness.events("qux") == [terminal])
        #expect(harness.xs.subscriptions == [Subscription(200, 570)])
    }

    @Test("groups subscribed at once see all their elements")
    func innerCompleteAll() {
        let harness = GroupHarness()
        harness.disposeAll(at: 1000)
        harness.scheduler.start()
        #expect(harness.groupCount == 4)
        #expect(harness.events("foo") == [.next(220, "  foo"), .next(240, " FoO "), .next(310, "foO "), .next(470, "FOO "), .next(530, "    fOo    "), .completed(570)])
        #expect(harness.events("bar") == [.next(270, "baR  "), .next(390, "   bar"), .next(420, " BAR  "), .completed(570)])
        #expect(harness.events("baz") == [.next(350, " Baz   "), .next(480, "baz  "), .next(510, " bAZ "), .completed(570)])
        #expect(harness.events("qux") == [.next(360, "  qux "), .completed(570)])
        #expect(harness.outerResults.events == [.next(220, "foo"), .next(270, "bar"), .next(350, "baz"), .next(360, "qux"), .completed(570)])
        #expect(harness.xs.subscriptions == [Subscription(200, 570)])
    }

    @Test("disposing the outer and every group unsubscribes from the source")
    func innerDispose() {
        let harness = GroupHarness()
        harness.disposeAll(at: 400)
        harness.scheduler.start()
        #expect(harness.groupCount == 4)
        #expect(harness.events("foo") == [.next(220, "  foo"), .next(240, " FoO "), .next(310, "foO ")])
        #expect(harness.events("bar") == [.next(270, "baR  "), .next(390, "   bar")])
        #expect(harness.events("baz") == [.next(350, " Baz   ")])
        #expect(harness.events("qux") == [.next(360, "  qux ")])
        #expect(harness.xs.subscriptions == [Subscription(200, 400)])
    }

    @Test("a throwing key selector fails every group")
    func innerKeyThrow() {
        var keyInvoked = 0
        let harness = GroupHarness(keySelector: { text in
            keyInvoked += 1
            if keyInvoked == 6 { throw testError }
            return normalized(text)
        })
        harness.disposeAll(at: 1000)
        harness.scheduler.start()
        #expect(harness.groupCount == 3)
        #expect(harness.events("foo") == [.next(220, "  foo"), .next(240, " FoO "), .next(310, "foO "), .error(360, testError)])
        #expect(harness.events("bar") == [.next(270, "baR  "), .error(360, testError)])
        #expect(harness.events("baz") == [.next(350, " Baz   "), .error(360, testError)])
        #expect(harness.outerResults.events == [.next(220, "foo"), .next(270, "bar"), .next(350, "baz"), .error(360, testError)])
        #expect(harness.xs.subscriptions == [Subscription(200, 360)])
    }

    @Test("groups outlive the outer subscription")
    func outerIndependence() {
        let harness = GroupHarness()
        harness.disposeOuter(at: 320)
        harness.disposeAll(at: 1000)
        harness.scheduler.start()
        #expect(harness.groupCount == 2)
        #expect(harness.outerResults.events == [.next(220, "foo"), .next(270, "bar")])
        #expect(harness.events("foo") == [.next(220, "  foo"), .next(240, " FoO "), .next(310, "foO "), .next(470, "FOO "), .next(530, "    fOo    "), .completed(570)])
        #expect(harness.events("bar") == [.next(270, "baR  "), .next(390, "   bar"), .next(420, " BAR  "), .completed(570)])
        #expect(harness.xs.subscriptions == [Subscription(200, 570)])
    }

    @Test("disposing one group leaves the others")
    func innerIndependence() {
        let harness = GroupHarness()
        harness.disposeInner("foo", at: 320)
        harness.disposeAll(at: 1000)
        harness.scheduler.start()
        #expect(harness.groupCount == 4)
        #expect(harness.events("foo") == [.next(220, "  foo"), .next(240, " FoO "), .next(310, "foO ")])
        #expect(harness.events("bar") == [.next(270, "baR  "), .next(390, "   bar"), .next(420, " BAR  "), .completed(570)])
        #expect(harness.events("baz") == [.next(350, " Baz   "), .next(480, "baz  "), .next(510, " bAZ "), .completed(570)])
        #expect(harness.events("qux") == [.next(360, "  qux "), .completed(570)])
        #expect(harness.xs.subscriptions == [Subscription(200, 570)])
    }

    @Test("disposing every group keeps the source while the outer subscription lasts")
    func innerMultipleIndependence() {
        let harness = GroupHarness()
        harness.disposeInner("bar", at: 280)
        harness.disposeInner("foo", at: 320)
        harness.disposeInner("baz", at: 355)
        harness.disposeInner("qux", at: 400)
        harness.disposeAll(at: 1000)
        harness.scheduler.start()
        #expect(harness.groupCount == 4)
        #expect(harness.events("foo") == [.next(220, "  foo"), .next(240, " FoO "), .next(310, "foO ")])
        #expect(harness.events("bar") == [.next(270, "baR  ")])
        #expect(harness.events("baz") == [.next(350, " Baz   ")])
        #expect(harness.events("qux") == [.next(360, "  qux ")])
        #expect(harness.outerResults.events.last == .completed(570))
        #expect(harness.xs.subscriptions == [Subscription(200, 570)])
    }

    @Test("a group subscribed after the source ended gets its terminal event",
          arguments: [Recorded<Event<String>>.completed(570), .error(570, testError)])
    func innerEscape(terminal: Recorded<Event<String>>) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(220, "  foo"), .next(240, " FoO "), .next(310, "foO "), .next(470, "FOO "), .next(530, "    fOo    "), terminal,
        ])
        let results = scheduler.createObserver(String.self)
        var inner: GroupedObservable<String, String>?
        var outerSubscription: Disposable?
        var innerSubscription: Disposable?
        scheduler.scheduleAt(200) { outerSubscription = xs.groupBy(keySelector: normalized).subscribe(onNext: { inner = $0 }, onError: { _ in }) }
        scheduler.scheduleAt(600) { innerSubscription = inner?.subscribe(results) }
        scheduler.scheduleAt(1000) {
            outerSubscription?.dispose()
            innerSubscription?.dispose()
        }
        scheduler.start()
        #expect(results.events == [Recorded(time: 600, value: terminal.value)])
        #expect(xs.subscriptions == [Subscription(200, 570)])
    }

    @Test("a group nobody subscribed to does not keep the source once the outer is disposed")
    func innerEscapeDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(220, "  foo"), .next(240, " FoO "), .next(310, "foO "), .next(470, "FOO "), .next(530, "    fOo    "), .error(570, testError),
        ])
        let results = scheduler.createObserver(String.self)
        var inner: GroupedObservable<String, String>?
        var outerSubscription: Disposable?
        var innerSubscription: Disposable?
        scheduler.scheduleAt(200) { outerSubscription = xs.groupBy(keySelector: normalized).subscribe(onNext: { inner = $0 }, onError: { _ in }) }
        scheduler.scheduleAt(400) { outerSubscription?.dispose() }
        scheduler.scheduleAt(600) { innerSubscription = inner?.subscribe(results) }
        scheduler.scheduleAt(1000) { innerSubscription?.dispose() }
        scheduler.start()
        #expect(results.events == [])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }

    @Test("an endless synchronous source stops once the outer and every group are gone")
    func endlessSynchronousSource() {
        let finished = DispatchSemaphore(value: 0)
        let keys = LockedBox<[Int]>([])
        let thread = Thread {
            let groups = try? Observable.repeatElement(1).groupBy { $0 }.take(1).toBlocking().toArray()
            keys.value = (groups?.map(\.key) ?? [])
            finished.signal()
        }
        thread.start()
        #expect(finished.wait(timeout: .now() + 30) == .success, "the endless source was never disposed")
        #expect(keys.value == [1])
    }

    @Test("GroupedObservable exposes its key and its elements as an Observable")
    func groupedObservableValue() throws {
        let groups = try Observable.of(1, 2, 3, 4, 5).groupBy { $0 % 2 == 0 ? "even" : "odd" }.toBlocking().toArray()
        #expect(groups.map(\.key) == ["odd", "even"])
        // The source completed: a late subscription sees only the completion.
        let late = try groups[0].asObservable().toBlocking().toArray()
        #expect(late == [])

        var collected: [String: [Int]] = [:]
        _ = Observable.of(1, 2, 3, 4, 5).groupBy { $0 % 2 == 0 ? "even" : "odd" }.subscribe(onNext: { group in
            _ = group.subscribe(onNext: { collected[group.key, default: []].append($0) })
        })
        #expect(collected == ["odd": [1, 3, 5], "even": [2, 4]])

        let made = GroupedObservable(key: 9, source: Observable.of(7, 8))
        #expect(made.key == 9)
        #expect(try made.toBlocking().toArray() == [7, 8])
    }
}

@Suite("groupBy releases its resources", .rxLeakCheck)
struct GroupByResourceTests {
    // Resources.total is process-wide and suites run in parallel, so the check runs in a
    // process of its own; the exit code names the scenario that leaked.
    @Test("groupBy releases everything after a terminal event or disposal")
    func releasesResources() async {
        await #expect(processExitsWith: .success) {
            let scenarios: [() -> Void] = [
                { _ = Observable<Int>.just(1).groupBy { $0 }.subscribe() },
                { _ = Observable<Int>.error(testError).groupBy { $0 }.subscribe(onError: { _ in }) },
                { _ = Observable<Int>.just(1).groupBy { _ -> Int in throw testError }.subscribe(onError: { _ in }) },
                {
                    let subject = PublishSubject<Int>()
                    var groups: [Disposable] = []
                    let outer = subject.groupBy { $0 % 2 }.subscribe(onNext: { groups.append($0.subscribe()) })
                    subject.onNext(1)
                    subject.onNext(2)
                    outer.dispose()
                    subject.onNext(3)
                    for group in groups { group.dispose() }
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

