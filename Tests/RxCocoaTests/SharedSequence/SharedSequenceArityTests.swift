import RxCocoa
import RxSwift
import RxTest
import Testing

/// The elements of a tuple of `Int`s, in order.
private func elements<Tuple>(_ tuple: Tuple) -> [Int] {
    Mirror(reflecting: tuple).children.compactMap { $0.value as? Int }
}

/// The tuple forms of `zip` and `combineLatest` over the first `count` of `sources`,
/// each tuple read as an array.
private func tupleForms(_ s: [Driver<Int>], count: Int) -> (zip: Driver<[Int]>, combineLatest: Driver<[Int]>) {
    switch count {
    case 2: return (Driver.zip(s[0], s[1]).map(elements), Driver.combineLatest(s[0], s[1]).map(elements))
    case 3: return (Driver.zip(s[0], s[1], s[2]).map(elements), Driver.combineLatest(s[0], s[1], s[2]).map(elements))
    case 4: return (Driver.zip(s[0], s[1], s[2], s[3]).map(elements), Driver.combineLatest(s[0], s[1], s[2], s[3]).map(elements))
    case 5: return (Driver.zip(s[0], s[1], s[2], s[3], s[4]).map(elements), Driver.combineLatest(s[0], s[1], s[2], s[3], s[4]).map(elements))
    case 6: return (Driver.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map(elements), Driver.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map(elements))
    case 7: return (Driver.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map(elements), Driver.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map(elements))
    default: return (Driver.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map(elements), Driver.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map(elements))
    }
}

/// Zips two signals through `SharedSequenceConvertibleType`, as code generic over shared
/// sequences can in RxSwift, where the tuple forms belong to the protocol.
private func zipThroughProtocol<Shared: SharedSequenceConvertibleType>(
    _: Shared.Type, _ a: Signal<Int>, _ b: Signal<String>
) -> Signal<(Int, String)> where Shared.Element == Any, Shared.SharingStrategy == SignalSharingStrategy {
    Shared.zip(a, b)
}

/// Combines the latest elements of two signals through `SharedSequenceConvertibleType`.
private func combineThroughProtocol<Shared: SharedSequenceConvertibleType>(
    _: Shared.Type, _ a: Signal<Int>, _ b: Signal<String>
) -> Signal<(Int, String)> where Shared.Element == Any, Shared.SharingStrategy == SignalSharingStrategy {
    Shared.combineLatest(a, b)
}

/// The tuple forms of `zip` and `combineLatest` for 2 to 8 shared sequences, on a
/// `TestScheduler` without processing delay: the drivers deliver each event of their
/// sources at the source's tick.
@Suite("Driver and Signal zip and combineLatest into tuples, 2 to 8 sources", .rxLeakCheck)
struct SharedSequenceArityTests {
    /// Runs the tuple form `pick` chooses over `count` hot drivers, subscribed at 200, and
    /// checks that each source is unsubscribed when it completes. Hot source k emits k at
    /// 210 + k and 10 k at 240 + k, and completes at 300 + k.
    private static func runHot(
        count: Int, _ pick: @escaping ((zip: Driver<[Int]>, combineLatest: Driver<[Int]>)) -> Driver<[Int]>
    ) -> [Recorded<Event<[Int]>>] {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let sources = (1...count).map { k in
            scheduler.createHotObservable([.next(150, -k), .next(210 + k, k), .next(240 + k, 10 * k), .completed(300 + k)])
        }
        let res = mocked(scheduler) {
            scheduler.start { pick(tupleForms(sources.map { $0.asDriver(onErrorJustReturn: 0) }, count: count)) }
        }
        for (index, source) in sources.enumerated() {
            #expect(source.subscriptions == [Subscription(200, 301 + index)])
        }
        return res.events
    }

    @Test("zip pairs the n-th elements; it completes when every source has", arguments: 2...8)
    func zipHot(count: Int) {
        #expect(Self.runHot(count: count) { $0.zip } == [
            .next(210 + count, Array(1...count)),
            .next(240 + count, (1...count).map { 10 * $0 }),
            .completed(300 + count),
        ])
    }

    @Test("combineLatest combines the latest elements once every source has emitted", arguments: 2...8)
    func combineLatestHot(count: Int) {
        // After the first complete tuple, each source's second element replaces its first.
        let updates = (1...count).map { k in
            Recorded.next(240 + k, (1...count).map { $0 <= k ? 10 * $0 : $0 })
        }
        #expect(Self.runHot(count: count) { $0.combineLatest } == [.next(210 + count, Array(1...count))] + updates + [.completed(300 + count)])
    }

    @Test("cold sources are subscribed once, shared by both results; disposal before the end unsubscribes them", arguments: 2...8)
    func coldDisposedEarly(count: Int) {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let sources = (1...count).map { k in
            scheduler.createColdObservable([.next(5 * k, k), .next(100, 100 + k), .completed(200)])
        }
        let zipped = scheduler.createObserver([Int].self)
        let combined = scheduler.createObserver([Int].self)
        let subscriptions = CompositeDisposable()
        SharingScheduler.mock(scheduler: scheduler) {
            let forms = tupleForms(sources.map { $0.asDriver(onErrorJustReturn: 0) }, count: count)
            scheduler.scheduleAt(250) {
                _ = subscriptions.insert(forms.zip.asObservable().subscribe(zipped))
                _ = subscriptions.insert(forms.combineLatest.asObservable().subscribe(combined))
            }
            scheduler.scheduleAt(320) { subscriptions.dispose() }
        }
        scheduler.start()
        #expect(zipped.events == [.next(250 + 5 * count, Array(1...count))])
        #expect(combined.events == [.next(250 + 5 * count, Array(1...count))])
        for source in sources {
            // The drivers are shared: one subscription serves both results, and it ends
            // when the last of them is disposed, before the cold sources end.
            #expect(source.subscriptions == [Subscription(250, 320)])
        }
    }

    @Test("the tuple forms belong to SharedSequenceConvertibleType, as in RxSwift")
    func throughTheProtocol() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
        let ys = scheduler.createColdObservable([.next(20, "a"), .next(40, "b"), .completed(50)])
        let zipped = scheduler.createObserver(String.self)
        let combined = scheduler.createObserver(String.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let a = xs.asSignal(onErrorJustReturn: 0)
            let b = ys.asSignal(onErrorJustReturn: "")
            let zip = zipThroughProtocol(Signal<Any>.self, a, b).map { "\($0.0)\($0.1)" }
            let latest = combineThroughProtocol(Signal<Any>.self, a, b).map { "\($0.0)\($0.1)" }
            scheduler.scheduleAt(200) {
                _ = zip.emit(to: zipped)
                _ = latest.emit(to: combined)
            }
        }
        scheduler.start()
        #expect(zipped.events == [.next(220, "1a"), .next(240, "2b"), .completed(260)])
        #expect(combined.events == [.next(220, "1a"), .next(230, "2a"), .next(240, "2b"), .completed(260)])
        // The signals are shared: one subscription to each source serves both results.
        #expect(xs.subscriptions == [Subscription(200, 260)])
        #expect(ys.subscriptions == [Subscription(200, 250)])
    }
}
