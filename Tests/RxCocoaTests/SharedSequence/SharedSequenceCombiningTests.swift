import RxCocoa
import RxSwift
import RxTest
import Testing

/// Runs `body` with shared sequences delivering on `scheduler`; the whole test runs
/// inside, so that sequences made later (in a `flatMap` selector) see the mock too.
func mocked<T>(_ scheduler: TestScheduler, _ body: () -> T) -> T {
    var result: T?
    SharingScheduler.mock(scheduler: scheduler) { result = body() }
    return result!
}

/// The higher-order and combining operators of `Driver` and `Signal`, on a
/// `TestScheduler` that simulates the processing delay: every shared sequence made with
/// `asDriver`/`asSignal` delivers each event of its source one tick later, on the
/// scheduler (a source event at 210 arrives at 211).
@Suite("Driver and Signal flattening and combining", .rxLeakCheck)
struct SharedSequenceCombiningTests {
    /// An outer hot source emitting 1 at 210 and 2 at 225, completing at 300, and the
    /// cold inners `a` (for 1) and `b` (for 2), each `10: x1, 20: x2, 30: completed`.
    private struct Fixture {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int>
        let a: TestableObservable<Int>
        let b: TestableObservable<Int>

        init() {
            xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(225, 2), .completed(300)])
            a = scheduler.createColdObservable([.next(10, 11), .next(20, 12), .completed(30)])
            b = scheduler.createColdObservable([.next(10, 21), .next(20, 22), .completed(30)])
        }

        /// Made inside the mock, like every shared sequence of these tests.
        func drivers() -> (source: Driver<Int>, a: Driver<Int>, b: Driver<Int>) {
            (xs.asDriver(onErrorJustReturn: -1), a.asDriver(onErrorJustReturn: -1), b.asDriver(onErrorJustReturn: -1))
        }
    }

    @Test("flatMap merges every projected driver")
    func flatMap() {
        let f = Fixture()
        let res = mocked(f.scheduler) {
            let (source, a, b) = f.drivers()
            return f.scheduler.start { source.flatMap { $0 == 1 ? a : b } }
        }
        #expect(res.events == [.next(222, 11), .next(232, 12), .next(237, 21), .next(247, 22), .completed(301)])
        #expect(f.xs.subscriptions == [Subscription(200, 300)])
        #expect(f.a.subscriptions == [Subscription(211, 241)])
        #expect(f.b.subscriptions == [Subscription(226, 256)])
    }

    @Test("flatMapLatest ends the previous driver when a new element arrives")
    func flatMapLatest() {
        let f = Fixture()
        let res = mocked(f.scheduler) {
            let (source, a, b) = f.drivers()
            return f.scheduler.start { source.flatMapLatest { $0 == 1 ? a : b } }
        }
        #expect(res.events == [.next(222, 11), .next(237, 21), .next(247, 22), .completed(301)])
        #expect(f.a.subscriptions == [Subscription(211, 226)])
        #expect(f.b.subscriptions == [Subscription(226, 256)])
    }

    @Test("flatMapFirst drops elements while a projected driver runs")
    func flatMapFirst() {
        let f = Fixture()
        var projected: [Int] = []
        let res = mocked(f.scheduler) {
            let (source, a, b) = f.drivers()
            return f.scheduler.start {
                source.flatMapFirst { value -> Driver<Int> in
                    projected.append(value)
                    return value == 1 ? a : b
                }
            }
        }
        #expect(res.events == [.next(222, 11), .next(232, 12), .completed(301)])
        #expect(f.a.subscriptions == [Subscription(211, 241)])
        #expect(f.b.subscriptions == [])
        #expect(projected == [1])
    }

    @Test("switchLatest and merge() on a driver of drivers")
    func higherOrder() {
        let switched = Fixture()
        let switchedRes = mocked(switched.scheduler) {
            let (source, a, b) = switched.drivers()
            return switched.scheduler.start { source.map { $0 == 1 ? a : b }.switchLatest() }
        }
        #expect(switchedRes.events == [.next(222, 11), .next(237, 21), .next(247, 22), .completed(301)])
        #expect(switched.a.subscriptions == [Subscription(211, 226)])

        let merged = Fixture()
        let mergedRes = mocked(merged.scheduler) {
            let (source, a, b) = merged.drivers()
            return merged.scheduler.start { source.map { $0 == 1 ? a : b }.merge() }
        }
        #expect(mergedRes.events == [.next(222, 11), .next(232, 12), .next(237, 21), .next(247, 22), .completed(301)])
        #expect(merged.b.subscriptions == [Subscription(226, 256)])
    }

    @Test("merge(maxConcurrent: 1) subscribes the next driver once the running one completed")
    func mergeMaxConcurrent() {
        let f = Fixture()
        let res = mocked(f.scheduler) {
            let (source, a, b) = f.drivers()
            return f.scheduler.start { source.map { $0 == 1 ? a : b }.merge(maxConcurrent: 1) }
        }
        // a's completion (source 241) reaches the merge at 242, which subscribes b.
        #expect(res.events == [.next(222, 11), .next(232, 12), .next(253, 21), .next(263, 22), .completed(301)])
        #expect(f.a.subscriptions == [Subscription(211, 241)])
        #expect(f.b.subscriptions == [Subscription(242, 272)])
    }

    @Test("disposal before completion disposes the source and the projected drivers")
    func disposal() {
        let f = Fixture()
        let res = mocked(f.scheduler) {
            let (source, a, b) = f.drivers()
            return f.scheduler.start(disposed: 235) { source.flatMap { $0 == 1 ? a : b } }
        }
        #expect(res.events == [.next(222, 11), .next(232, 12)])
        #expect(f.xs.subscriptions == [Subscription(200, 235)])
        #expect(f.a.subscriptions == [Subscription(211, 235)])
        #expect(f.b.subscriptions == [Subscription(226, 235)])
    }

    @Test("the result of flatMapLatest is a driver: shared, replaying its latest element")
    func flatMapLatestIsShared() {
        let f = Fixture()
        let first = f.scheduler.createObserver(Int.self)
        let late = f.scheduler.createObserver(Int.self)
        mocked(f.scheduler) {
            let (source, a, b) = f.drivers()
            let result = source.flatMapLatest { $0 == 1 ? a : b }
            f.scheduler.scheduleAt(200) { _ = result.asObservable().subscribe(first) }
            f.scheduler.scheduleAt(230) { _ = result.asObservable().subscribe(late) }
            f.scheduler.start()
        }
        #expect(first.events == [.next(222, 11), .next(237, 21), .next(247, 22), .completed(301)])
        #expect(late.events == [.next(230, 11), .next(237, 21), .next(247, 22), .completed(301)])
        #expect(f.xs.subscriptions == [Subscription(200, 300)])
    }

    @Test("a signal projected to drivers gives a driver")
    func signalToDriver() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([.next(210, "tap"), .next(240, "tap"), .completed(300)])
        let values = scheduler.createColdObservable([.next(5, 7), .completed(10)])
        let res = mocked(scheduler) {
            let signal = taps.asSignal(onErrorJustReturn: "")
            let driver = values.asDriver(onErrorJustReturn: -1)
            let result: Driver<Int> = signal.flatMapLatest { _ in driver }
            return scheduler.start { result }
        }
        #expect(res.events == [.next(217, 7), .next(247, 7), .completed(301)])
        #expect(values.subscriptions == [Subscription(211, 221), Subscription(241, 251)])
    }

    @Test("Driver.merge: collection, array and variadic forms")
    func staticMerge() {
        func check(_ make: (Driver<Int>, Driver<Int>) -> Driver<Int>) {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
            let ys = scheduler.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
            let res = mocked(scheduler) {
                let merged = make(xs.asDriver(onErrorJustReturn: -1), ys.asDriver(onErrorJustReturn: -1))
                return scheduler.start { merged }
            }
            #expect(res.events == [.next(211, 1), .next(221, 2), .next(231, 3), .next(251, 4), .completed(261)])
            #expect(xs.subscriptions == [Subscription(200, 240)])
            #expect(ys.subscriptions == [Subscription(200, 260)])
        }
        check { Driver.merge(AnyCollection([$0, $1])) }
        check { Driver.merge([$0, $1]) }
        check { Driver.merge($0, $1) }
    }

    @Test("Signal.merge is shared and replays nothing to a late observer")
    func signalMergeIsShared() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
        let ys = scheduler.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
        let first = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        mocked(scheduler) {
            let merged = Signal.merge(xs.asSignal(onErrorJustReturn: -1), ys.asSignal(onErrorJustReturn: -1))
            scheduler.scheduleAt(200) { _ = merged.emit(to: first) }
            scheduler.scheduleAt(225) { _ = merged.emit(to: late) }
            scheduler.start()
        }
        #expect(first.events == [.next(211, 1), .next(221, 2), .next(231, 3), .next(251, 4), .completed(261)])
        #expect(late.events == [.next(231, 3), .next(251, 4), .completed(261)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(ys.subscriptions == [Subscription(200, 260)])
    }

    @Test("Driver.concat: sequence and collection forms")
    func concat() {
        func check(_ make: (Driver<Int>, Driver<Int>) -> Driver<Int>) {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
            let ys = scheduler.createColdObservable([.next(5, 2), .completed(15)])
            let res = mocked(scheduler) {
                let concatenated = make(xs.asDriver(onErrorJustReturn: -1), ys.asDriver(onErrorJustReturn: -1))
                return scheduler.start { concatenated }
            }
            // xs's completion (220) reaches the concatenation at 221, which subscribes ys.
            #expect(res.events == [.next(211, 1), .next(227, 2), .completed(237)])
            #expect(xs.subscriptions == [Subscription(200, 220)])
            #expect(ys.subscriptions == [Subscription(221, 236)])
        }
        check { Driver.concat(AnySequence([$0, $1])) }
        check { Driver.concat([$0, $1]) }
    }

    @Test("withLatestFrom with a result selector")
    func withLatestFromSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(150, "z"), .next(220, "a"), .next(240, "b"), .completed(260)])
        let res = mocked(scheduler) {
            let first = xs.asDriver(onErrorJustReturn: -1)
            let second = ys.asDriver(onErrorJustReturn: "")
            return scheduler.start { first.withLatestFrom(second) { "\($0)\($1)" } }
        }
        #expect(res.events == [.next(231, "2a"), .next(251, "3b"), .completed(301)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(200, 260)])
    }

    @Test("withLatestFrom without a selector, from a signal, and disposal")
    func withLatestFromSignal() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([.next(210, "tap"), .next(230, "tap"), .next(250, "tap"), .completed(300)])
        let names = scheduler.createHotObservable([.next(220, "ann"), .next(240, "bob")])
        let res = mocked(scheduler) {
            let signal = taps.asSignal(onErrorJustReturn: "")
            let name = names.asSignal(onErrorJustReturn: "")
            return scheduler.start(disposed: 260) { signal.withLatestFrom(name) }
        }
        #expect(res.events == [.next(231, "ann"), .next(251, "bob")])
        #expect(taps.subscriptions == [Subscription(200, 260)])
        #expect(names.subscriptions == [Subscription(200, 260)])
    }

    @Test("the login example's signal: taps combined with the latest login and password")
    func loginSignal() {
        let scheduler = TestScheduler(initialClock: 0)
        let logins = scheduler.createHotObservable([.next(210, "user"), .next(230, "username")])
        let passwords = scheduler.createHotObservable([.next(220, "pas"), .next(240, "password")])
        let taps = scheduler.createHotObservable([.next(215, ()), .next(225, ()), .next(245, ())])
        let res = mocked(scheduler) {
            let login = logins.asDriver(onErrorJustReturn: "")
            let password = passwords.asSignal(onErrorJustReturn: "")
            let tap = taps.asSignal(onErrorJustReturn: ())
            let credentials = tap.withLatestFrom(login).withLatestFrom(password) { "\($0):\($1)" }
            return scheduler.start(disposed: 300) { credentials }
        }
        #expect(res.events == [.next(226, "user:pas"), .next(246, "username:password")])
    }

    @Test("zip and combineLatest of a collection take resultSelector: as in RxSwift")
    func collectionSelectors() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
        let ys = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(250)])
        let zipped = scheduler.createObserver(Int.self)
        let combined = scheduler.createObserver(Int.self)
        mocked(scheduler) {
            let a = xs.asDriver(onErrorJustReturn: 0)
            let b = ys.asDriver(onErrorJustReturn: 0)
            let zip = Driver.zip([a, b], resultSelector: { $0.reduce(0, +) })
            let latest = Driver.combineLatest([a, b], resultSelector: { $0.reduce(0, +) })
            scheduler.scheduleAt(200) {
                _ = zip.asObservable().subscribe(zipped)
                _ = latest.asObservable().subscribe(combined)
            }
            scheduler.start()
        }
        #expect(zipped.events == [.next(220, 11), .next(240, 22), .completed(260)])
        #expect(combined.events == [.next(220, 11), .next(230, 12), .next(240, 22), .completed(260)])
    }
}
