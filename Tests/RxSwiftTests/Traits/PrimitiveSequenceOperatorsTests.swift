import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("Single, Maybe and Completable operators", .rxLeakCheck)
struct PrimitiveSequenceOperatorsTests {
    @Test("Single.zip of two and three, with a selector and as a tuple")
    func singleZipArity() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([.next(215, 10), .completed(230)])
        let res = scheduler.start { Single.zip(xs.asSingle(), ys.asSingle()) { $0 + $1 } }
        #expect(res.events == [.next(230, 11), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(200, 230)])

        let tuples = TestScheduler(initialClock: 0)
        let a = tuples.createColdObservable([.next(10, 1), .completed(10)])
        let b = tuples.createColdObservable([.next(20, "b"), .completed(20)])
        let c = tuples.createColdObservable([.next(5, true), .completed(5)])
        let zipped = tuples.start { Single.zip(a.asSingle(), b.asSingle(), c.asSingle()).map { "\($0.0)\($0.1)\($0.2)" } }
        #expect(zipped.events == [.next(220, "1btrue"), .completed(220)])
    }

    @Test("Single.zip: the first failure fails it and unsubscribes the others")
    func singleZipFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>.error(220, testError)])
        let res = scheduler.start { Single.zip(xs.asSingle(), ys.asSingle()) { $0 + $1 } }
        #expect(res.events == [.error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(ys.subscriptions == [Subscription(200, 220)])
    }

    @Test("Single.zip of every arity up to eight")
    func singleZipEight() {
        let scheduler = TestScheduler(initialClock: 0)
        let s: [Single<Int>] = (1...8).map { Single.just($0) }
        let sum: (Int, Int, Int, Int, Int, Int, Int, Int) throws -> Int = { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
        let eight: Single<Int> = Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], resultSelector: sum)
        let res = scheduler.start { eight }
        #expect(res.events == [.next(200, 36), .completed(200)])
        var tuple: (Int, Int, Int, Int, Int, Int, Int)?
        let seven: Single<(Int, Int, Int, Int, Int, Int, Int)> = Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6])
        _ = seven.subscribe(onSuccess: { tuple = $0 })
        #expect(tuple.map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6] } == [1, 2, 3, 4, 5, 6, 7])
    }

    @Test("Single.zip of a collection, and of an empty one")
    func singleZipCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([.next(215, 2), .completed(225)])
        let res = scheduler.start { Single.zip([xs.asSingle(), ys.asSingle()]) }
        #expect(res.events == [.next(225, [1, 2]), .completed(225)])

        let summed = TestScheduler(initialClock: 0)
        #expect(summed.start { Single.zip([Single.just(1), .just(2)]) { $0.reduce(0, +) } }.events == [.next(200, 3), .completed(200)])
        let empty = TestScheduler(initialClock: 0)
        #expect(empty.start { Single<Int>.zip([Single<Int>]()) }.events == [.next(200, []), .completed(200)])
        let emptySelector = TestScheduler(initialClock: 0)
        #expect(emptySelector.start { Single<Int>.zip([Single<Int>]()) { $0.count } }.events == [.next(200, 0), .completed(200)])
    }

    @Test("Maybe.zip: an empty maybe completes it")
    func maybeZip() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>.completed(230)])
        let res = scheduler.start { Maybe.zip(xs.asMaybe(), ys.asMaybe()) { $0 + $1 } }
        #expect(res.events == [.completed(230)])
        #expect(ys.subscriptions == [Subscription(200, 230)])

        var pair: (Int, String)?
        _ = Maybe.zip(Maybe.just(1), Maybe.just("a")).subscribe(onSuccess: { pair = $0 })
        #expect(pair?.0 == 1 && pair?.1 == "a")
        var values: [Int]?
        _ = Maybe.zip([Maybe.just(1), Maybe.just(2)]).subscribe(onSuccess: { values = $0 })
        #expect(values == [1, 2])
    }

    @Test("Single.compactMap and Maybe.compactMap")
    func compactMap() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(scheduler.start { Single.just("7").compactMap { Int($0) } }.events == [.next(200, 7), .completed(200)])
        let other = TestScheduler(initialClock: 0)
        #expect(other.start { Single.just("x").compactMap { Int($0) } }.events == [.completed(200)])
        let maybe = TestScheduler(initialClock: 0)
        #expect(maybe.start { Maybe.just("8").compactMap { Int($0) } }.events == [.next(200, 8), .completed(200)])
    }

    @Test("Maybe.ifEmpty forms")
    func ifEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.completed(250)])
        #expect(scheduler.start { xs.asMaybe().ifEmpty(default: 9) }.events == [.next(250, 9), .completed(250)])

        let switching = TestScheduler(initialClock: 0)
        let ys = switching.createHotObservable([Recorded<Event<Int>>.completed(250)])
        let other = switching.createColdObservable([.next(10, 5), .completed(10)])
        #expect(switching.start { ys.asMaybe().ifEmpty(switchTo: other.asSingle()) }.events == [.next(260, 5), .completed(260)])
        #expect(other.subscriptions == [Subscription(250, 260)])

        let maybe = TestScheduler(initialClock: 0)
        #expect(maybe.start { Maybe<Int>.empty().ifEmpty(switchTo: Maybe.just(4)) }.events == [.next(200, 4), .completed(200)])
        let present = TestScheduler(initialClock: 0)
        #expect(present.start { Maybe.just(1).ifEmpty(default: 9) }.events == [.next(200, 1), .completed(200)])
    }

    @Test("do on Single, Maybe and Completable calls the actions in order")
    func doActions() {
        var log: [String] = []
        _ = Single.just(1).do(
            onSuccess: { log.append("onSuccess \($0)") },
            afterSuccess: { log.append("afterSuccess \($0)") },
            onSubscribe: { log.append("onSubscribe") },
            onSubscribed: { log.append("onSubscribed") },
            onDispose: { log.append("onDispose") }
        ).subscribe(onSuccess: { log.append("success \($0)") })
        #expect(log == ["onSubscribe", "onSuccess 1", "success 1", "afterSuccess 1", "onDispose", "onSubscribed"]
            || log == ["onSubscribe", "onSuccess 1", "success 1", "afterSuccess 1", "onSubscribed", "onDispose"])

        log = []
        _ = Maybe<Int>.empty().do(onCompleted: { log.append("onCompleted") }, afterCompleted: { log.append("afterCompleted") })
            .subscribe(onCompleted: { log.append("completed") })
        #expect(log == ["onCompleted", "completed", "afterCompleted"])

        log = []
        _ = Completable.error(testError).do(onError: { _ in log.append("onError") }, afterError: { _ in log.append("afterError") })
            .subscribe(onError: { _ in log.append("error") })
        #expect(log == ["onError", "error", "afterError"])

        let scheduler = TestScheduler(initialClock: 0)
        let thrown = scheduler.start { Single.just(1).do(onSuccess: { _ in throw testError }) }
        #expect(thrown.events == [.error(200, testError)])
    }

    @Test("catch, catchAndReturn and retry on a single")
    func errors() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([Recorded<Event<Int>>.error(10, testError)])
        let fallback = scheduler.createColdObservable([.next(5, 9), .completed(5)])
        let caught = scheduler.start { failing.asSingle().catch { _ in fallback.asSingle() } }
        #expect(caught.events == [.next(215, 9), .completed(215)])
        #expect(failing.subscriptions == [Subscription(200, 210)])
        #expect(fallback.subscriptions == [Subscription(210, 215)])

        let returning = TestScheduler(initialClock: 0)
        let xs = returning.createHotObservable([Recorded<Event<Int>>.error(220, testError)])
        #expect(returning.start { xs.asMaybe().catchAndReturn(1) }.events == [.next(220, 1), .completed(220)])

        let retrying = TestScheduler(initialClock: 0)
        let ys = retrying.createColdObservable([Recorded<Event<Int>>.error(10, testError)])
        #expect(retrying.start { ys.asSingle().retry(3) }.events == [.error(230, testError)])
        #expect(ys.subscriptions == [Subscription(200, 210), Subscription(210, 220), Subscription(220, 230)])

        var attempts = 0
        let eventually = Single<Int>.deferred {
            attempts += 1
            return attempts < 3 ? .error(testError) : .just(attempts)
        }
        var value: Int?
        _ = eventually.retry(when: { (errors: Observable<Error>) in errors }).subscribe(onSuccess: { value = $0 })
        #expect(value == 3)
    }

    @Test("delay on Single, Maybe and Completable: RxSwift's timings, one event per turn")
    func delayOnTraits() {
        let single = TestScheduler(initialClock: 0)
        #expect(single.start { Single.just(1).delay(.seconds(2), scheduler: single) }.events == [.next(202, 1), .completed(203)])

        let maybe = TestScheduler(initialClock: 0)
        #expect(maybe.start { Maybe.just(1).delay(.seconds(2), scheduler: maybe) }.events == [.next(202, 1), .completed(203)])

        let emptyMaybe = TestScheduler(initialClock: 0)
        #expect(emptyMaybe.start { Maybe<Int>.empty().delay(.seconds(2), scheduler: emptyMaybe) }.events == [.completed(202)])

        let completable = TestScheduler(initialClock: 0)
        #expect(completable.start { Completable.empty().delay(.seconds(2), scheduler: completable) }.events == [.completed(202)])
    }

    @Test("delay on the traits sends a failure at once")
    func delayOnTraitsFailure() {
        let single = TestScheduler(initialClock: 0)
        #expect(single.start { Single<Int>.error(testError).delay(.seconds(2), scheduler: single) }.events == [.error(200, testError)])

        let maybe = TestScheduler(initialClock: 0)
        #expect(maybe.start { Maybe<Int>.error(testError).delay(.seconds(2), scheduler: maybe) }.events == [.error(200, testError)])

        let completable = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Never> = completable.createHotObservable([.error(210, testError)])
        #expect(completable.start { xs.asCompletable().delay(.seconds(2), scheduler: completable) }.events == [.error(210, testError)])
    }

    @Test("timeout, delay and delaySubscription on a single")
    func time() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        #expect(scheduler.start { slow.asSingle().timeout(.seconds(20), scheduler: scheduler) }.events == [.error(220, RxError.timeout)])
        #expect(slow.subscriptions == [Subscription(200, 220)])

        let other = TestScheduler(initialClock: 0)
        let late = other.createColdObservable([.next(50, 1), .completed(50)])
        let replacement = other.start { late.asSingle().timeout(.seconds(20), other: Single.just(2), scheduler: other) }
        #expect(replacement.events == [.next(220, 2), .completed(220)])

        let delaying = TestScheduler(initialClock: 0)
        let quick = delaying.createColdObservable([.next(10, 1), .completed(10)])
        // The success and the completion arrive together at 210; as in RxSwift, delay
        // sends one per turn, so the completion follows a tick later.
        #expect(delaying.start { quick.asSingle().delay(.seconds(5), scheduler: delaying) }.events == [.next(215, 1), .completed(216)])

        let subscribing = TestScheduler(initialClock: 0)
        let zs = subscribing.createColdObservable([.next(10, 1), .completed(10)])
        #expect(subscribing.start { zs.asSingle().delaySubscription(.seconds(30), scheduler: subscribing) }.events == [.next(240, 1), .completed(240)])
        #expect(zs.subscriptions == [Subscription(230, 240)])
    }

    @Test("asInfallible forms")
    func asInfallible() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        #expect(scheduler.start { xs.asInfallible(onErrorJustReturn: -1) }.events == [.next(210, 1), .next(220, -1), .completed(220)])

        let fallback = TestScheduler(initialClock: 0)
        let ys = fallback.createHotObservable([.next(210, 1), .error(220, testError)])
        #expect(fallback.start { ys.asInfallible(onErrorFallbackTo: Infallible.of(7, 8)) }.events == [.next(210, 1), .next(220, 7), .next(220, 8), .completed(220)])

        let recover = TestScheduler(initialClock: 0)
        let zs = recover.createHotObservable([Recorded<Event<Int>>.error(230, testError)])
        var recovered: Error?
        let res = recover.start { zs.asInfallible(onErrorRecover: { error in
            recovered = error
            return .just(5)
        }) }
        #expect(res.events == [.next(230, 5), .completed(230)])
        #expect(recovered is TestError)
        #expect(zs.subscriptions == [Subscription(200, 230)])
    }

    @Test("debug passes the events on")
    func debug() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(scheduler.start { Single.just(3).debug("single") }.events == [.next(200, 3), .completed(200)])
    }
}

@Suite("Infallible operators", .rxLeakCheck)
struct InfallibleOperatorsTests {
    private func infallible(_ xs: TestableObservable<Int>) -> Infallible<Int> {
        Infallible<Int>.create { observer in
            xs.subscribe { event in
                switch event {
                case .next(let value): observer(.next(value))
                case .completed: observer(.completed)
                case .error: break
                }
            }
        }
    }

    @Test("compactMap, distinctUntilChanged, scan and startWith")
    func transforming() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .next(230, 2), .next(240, 3), .completed(250)])
        let source = infallible(xs)
        let res = scheduler.start {
            source.distinctUntilChanged().compactMap { $0 == 2 ? nil : $0 * 10 }.scan(0, accumulator: +).startWith(-1)
        }
        #expect(res.events == [.next(200, -1), .next(210, 10), .next(240, 40), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])

        let other = TestScheduler(initialClock: 0)
        let keyed = other.start {
            Infallible.of("a", "ab", "b", "bc").distinctUntilChanged { $0.first }.scan(into: "") { $0 += $1 }
        }
        #expect(keyed.events == [.next(200, "a"), .next(200, "ab"), .completed(200)])
    }

    @Test("take(until:), take(while:), skip(while:) and share")
    func takeSkipShare() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        let stop = scheduler.createHotObservable([.next(235, ())])
        let res = scheduler.start { self.infallible(xs).skip(while: { $0 < 2 }).take(until: stop) }
        #expect(res.events == [.next(220, 2), .next(230, 3), .completed(235)])
        #expect(stop.subscriptions == [Subscription(200, 235)])

        let other = TestScheduler(initialClock: 0)
        let inclusive = other.start { Infallible.of(1, 2, 3, 4).take(while: { $0 < 3 }, behavior: .inclusive) }
        #expect(inclusive.events == [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])

        var subscriptions = 0
        let shared = Infallible<Int>.create { observer in
            subscriptions += 1
            observer(.next(1))
            return Disposables.create()
        }.share(replay: 1)
        var received: [Int] = []
        let first = shared.subscribe(onNext: { received.append($0) })
        let second = shared.subscribe(onNext: { received.append($0) })
        #expect(subscriptions == 1)
        #expect(received == [1, 1])
        first.dispose()
        second.dispose()
    }

    @Test("combineLatest and zip of infallibles")
    func combining() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
        let ys = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(250)])
        let combined = scheduler.start { Infallible.combineLatest(self.infallible(xs), self.infallible(ys)) { $0 + $1 } }
        #expect(combined.events == [.next(220, 11), .next(230, 12), .next(240, 22), .completed(260)])

        let zipping = TestScheduler(initialClock: 0)
        let zs = zipping.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
        let ws = zipping.createHotObservable([.next(220, 10), .next(240, 20), .completed(250)])
        let zipped = zipping.start { Infallible.zip(self.infallible(zs), self.infallible(ws)).map { $0.0 + $0.1 } }
        #expect(zipped.events == [.next(220, 11), .next(240, 22), .completed(260)])

        var arrays: [[Int]] = []
        _ = Infallible.zip([Infallible.of(1, 2), Infallible.of(3, 4)]).subscribe(onNext: { arrays.append($0) })
        #expect(arrays == [[1, 3], [2, 4]])
        var latest: [Int] = []
        _ = Infallible.combineLatest([Infallible.just(1), Infallible.just(2)]) { $0.reduce(0, +) }.subscribe(onNext: { latest.append($0) })
        #expect(latest == [3])
    }

    @Test("debounce, throttle and take(for:) on infallibles")
    func time() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3), .completed(300)])
        #expect(scheduler.start { self.infallible(xs).debounce(.seconds(10), scheduler: scheduler) }.events == [.next(225, 2), .next(250, 3), .completed(300)])

        let throttling = TestScheduler(initialClock: 0)
        let ys = throttling.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3), .completed(300)])
        let throttled = throttling.start { self.infallible(ys).throttle(.seconds(20), latest: false, scheduler: throttling) }
        #expect(throttled.events == [.next(210, 1), .next(240, 3), .completed(300)])

        let taking = TestScheduler(initialClock: 0)
        let zs = taking.createHotObservable([.next(210, 1), .next(240, 3), .completed(300)])
        #expect(taking.start { self.infallible(zs).take(for: .seconds(30), scheduler: taking) }.events == [.next(210, 1), .completed(230)])
    }

    @Test("do and withUnretained")
    func sideEffects() {
        var log: [String] = []
        let owner = Owner()
        _ = Infallible.of(1, 2)
            .do(onNext: { log.append("do \($0)") }, onCompleted: { log.append("do completed") })
            .withUnretained(owner)
            .subscribe(onNext: { object, value in
                #expect(object === owner)
                log.append("next \(value)")
            })
        #expect(log == ["do 1", "next 1", "do 2", "next 2", "do completed"])
    }
}
