#if PropertyTesting
import PropertyBased
import RxSwift
import RxTest
import Testing

/// Laws of the operator catalogue over generated marble inputs (hot, cold, groups of
/// simultaneous events, every ending), each checked with exact virtual times for
/// `OperatorLawTests.cases` inputs of the fixed seed `MarbleLaws.defaultSeed`.
@Suite("Marble laws of the operators")
struct OperatorLawTests {
    /// Inputs per law.
    static let cases = 200

    /// Small elements, so that repeats and equal neighbours are common.
    static let digits = Gen.int(in: 0...9)
    static let source = MarbleGen.any(digits)
    static let cold = MarbleGen.cold(digits)

    /// Events delivered through a queue drained one event per scheduled run: each `delay`
    /// ticks after it arrived, and at least a tick after the one before.
    static func drained(_ events: [Recorded<Event<Int>>], after delay: TestTime) -> [Recorded<Event<Int>>] {
        var last = TestTime.min
        return events.map { event in
            last = max(event.time + delay, last + 1)
            return Recorded(time: last, value: event.value)
        }
    }

    // MARK: Transforming and filtering

    @Test("map(f).map(g) delivers what map(g ∘ f) does")
    func mapFusion() async {
        let f: @Sendable (Int) -> Int = { $0 * 3 + 1 }
        let g: @Sendable (Int) -> Int = { $0 % 7 }
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            source.observable(in: scheduler).map(f).map(g)
        } equals: { source, scheduler in
            source.observable(in: scheduler).map { g(f($0)) }
        }
    }

    @Test("filter(p).filter(q) delivers what filter(p && q) does")
    func filterFusion() async {
        let p: @Sendable (Int) -> Bool = { $0 % 2 == 0 }
        let q: @Sendable (Int) -> Bool = { $0 > 3 }
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            source.observable(in: scheduler).filter(p).filter(q)
        } equals: { source, scheduler in
            source.observable(in: scheduler).filter { p($0) && q($0) }
        }
    }

    @Test("compactMap(h) delivers what map(h), filter for non-nil and unwrapping do")
    func compactMapIsMapThenFilter() async {
        let h: @Sendable (Int) -> String? = { $0 % 3 == 0 ? nil : String(repeating: "x", count: $0) }
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            source.observable(in: scheduler).compactMap(h)
        } equals: { source, scheduler in
            source.observable(in: scheduler).map(h).filter { $0 != nil }.map { $0! }
        }
    }

    @Test("flatMap to just(f(x)) delivers what map(f) does")
    func flatMapOfJustIsMap() async {
        let f: @Sendable (Int) -> Int = { $0 * $0 - 5 }
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            source.observable(in: scheduler).flatMap { Observable.just(f($0)) }
        } equals: { source, scheduler in
            source.observable(in: scheduler).map(f)
        }
    }

    @Test("catch to empty() delivers the source with its error turned into a completion at the same time")
    func catchToEmpty() async {
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            source.observable(in: scheduler).catch { _ in Observable.empty() }
        } delivers: { source in
            source.delivered().map { event in
                event.value.error == nil ? event : .completed(event.time)
            }
        }
    }

    @Test("materialize().dematerialize() delivers the source")
    func materializeRoundTrip() async {
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            source.observable(in: scheduler).materialize().dematerialize()
        } equals: { source, scheduler in
            source.observable(in: scheduler)
        }
    }

    @Test("distinctUntilChanged is idempotent")
    func distinctUntilChangedIdempotent() async {
        await expectMarbleLaw(cases: Self.cases, input: MarbleGen.any(Gen.int(in: 0...2))) { source, scheduler in
            source.observable(in: scheduler).distinctUntilChanged().distinctUntilChanged()
        } equals: { source, scheduler in
            source.observable(in: scheduler).distinctUntilChanged()
        }
    }

    @Test("scan's last accumulation, after the seed, is reduce's result, at the same time")
    func scanLastIsReduce() async {
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            source.observable(in: scheduler).scan(100) { $0 * 2 - $1 }.startWith(100).takeLast(1)
        } equals: { source, scheduler in
            source.observable(in: scheduler).reduce(100) { $0 * 2 - $1 }
        }
    }

    @Test("startWith(x) delivers x at the subscription, then the source")
    func startWith() async {
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            source.observable(in: scheduler).startWith(-1)
        } delivers: { source in
            [.next(TestScheduler.Defaults.subscribed, -1)] + source.delivered()
        }
    }

    // MARK: Taking and skipping

    @Test("take(n) delivers the first n elements and completes with the n-th")
    func takeIsAPrefix() async {
        let input = zip(Self.source, Gen.int(in: 0...5))
        await expectMarbleLaw(cases: Self.cases, input: input) { pair, scheduler in
            pair.0.observable(in: scheduler).take(pair.1)
        } delivers: { pair in
            let (source, count) = pair
            let delivered = source.delivered()
            if count == 0 {
                return [.completed(TestScheduler.Defaults.subscribed)]
            }
            var taken: [Recorded<Event<Int>>] = []
            for event in delivered {
                taken.append(event)
                if event.value.isStopEvent { break }
                if taken.count == count {
                    taken.append(.completed(event.time))
                    break
                }
            }
            return taken
        }
    }

    @Test("take(while: p) delivers the elements before the first that fails p, and completes with it")
    func takeWhileIsAPrefix() async {
        let p: @Sendable (Int) -> Bool = { $0 < 7 }
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            source.observable(in: scheduler).take(while: p)
        } delivers: { source in
            var taken: [Recorded<Event<Int>>] = []
            for event in source.delivered() {
                if let element = event.value.element, !p(element) {
                    taken.append(.completed(event.time))
                    break
                }
                taken.append(event)
            }
            return taken
        }
    }

    @Test("take(n) and skip(n) of one source, merged, deliver the source")
    func takeAndSkipAreComplementary() async {
        let input = zip(Self.source, Gen.int(in: 0...5))
        await expectMarbleLaw(cases: Self.cases, input: input) { pair, scheduler in
            let source = pair.0.observable(in: scheduler)
            return Observable.merge(source.take(pair.1), source.skip(pair.1))
        } equals: { pair, scheduler in
            pair.0.observable(in: scheduler)
        }
    }

    // MARK: Combining

    @Test("merge of one source delivers the source")
    func mergeOfOne() async {
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            Observable.merge(source.observable(in: scheduler).asObservable())
        } equals: { source, scheduler in
            source.observable(in: scheduler)
        }
    }

    @Test("concat with empty() on either side delivers the source")
    func concatIdentity() async {
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            Observable.concat(Observable.empty(), source.observable(in: scheduler).asObservable(), Observable.empty())
        } equals: { source, scheduler in
            source.observable(in: scheduler)
        }
    }

    @Test("amb of one source, and switchLatest of just(source), deliver the source")
    func ambAndSwitchLatestOfOne() async {
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            Observable.amb([source.observable(in: scheduler).asObservable()])
        } equals: { source, scheduler in
            Observable.just(source.observable(in: scheduler).asObservable()).switchLatest()
        }
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            Observable.just(source.observable(in: scheduler).asObservable()).switchLatest()
        } equals: { source, scheduler in
            source.observable(in: scheduler)
        }
    }

    @Test("concat is associative")
    func concatAssociative() async {
        let input = zip(Self.cold, Self.cold, Self.cold)
        await expectMarbleLaw(cases: Self.cases, input: input) { sources, scheduler in
            let (a, b, c) = (sources.0.observable(in: scheduler), sources.1.observable(in: scheduler), sources.2.observable(in: scheduler))
            return Observable.concat(Observable.concat(a.asObservable(), b.asObservable()), c.asObservable())
        } equals: { sources, scheduler in
            let (a, b, c) = (sources.0.observable(in: scheduler), sources.1.observable(in: scheduler), sources.2.observable(in: scheduler))
            return Observable.concat(a.asObservable(), Observable.concat(b.asObservable(), c.asObservable()))
        }
    }

    @Test("zip pairs the i-th elements at the later of their times; its length is the shorter input's")
    func zipLengthIsTheShortest() async {
        // Inputs that never end: zip then delivers exactly one pair per element of the shorter.
        let open = MarbleGen.any(Self.digits, MarbleShape(endings: [.open]))
        await expectMarbleLaw(cases: Self.cases, input: zip(open, open)) { sources, scheduler in
            Observable.zip(sources.0.observable(in: scheduler), sources.1.observable(in: scheduler)) { $0 * 10 + $1 }
        } delivers: { sources in
            let left = sources.0.delivered(), right = sources.1.delivered()
            return zip(left, right).map { pair in
                .next(max(pair.0.time, pair.1.time), pair.0.value.element! * 10 + pair.1.value.element!)
            }
        }
    }

    // MARK: Sharing and scheduling

    @Test("share() with one subscriber delivers the source")
    func shareWithOneSubscriber() async {
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            source.observable(in: scheduler).share()
        } equals: { source, scheduler in
            source.observable(in: scheduler)
        }
    }

    @Test("share(replay: 1) with one subscriber delivers the source")
    func shareReplayWithOneSubscriber() async {
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            source.observable(in: scheduler).share(replay: 1)
        } equals: { source, scheduler in
            source.observable(in: scheduler)
        }
    }

    @Test("observe(on:) a TestScheduler keeps the order, one event per tick, each at least a tick late")
    func observeOnKeepsOrder() async {
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            source.observable(in: scheduler).observe(on: scheduler)
        } delivers: { source in
            // Each event waits for the scheduler's next tick and for the one before it.
            Self.drained(source.delivered(), after: 1)
        }
    }

    @Test("delaySubscription(d) delivers what a subscriber d ticks later gets")
    func delaySubscription() async {
        let due = 2
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            source.observable(in: scheduler).delaySubscription(.seconds(due), scheduler: scheduler)
        } delivers: { source in
            // A hot event due at the subscription itself was scheduled before it, so it is missed.
            source.delivered(subscribedAt: TestScheduler.Defaults.subscribed + due)
        }
    }

    @Test("delay(d) on a source that does not fail delivers each event d ticks later, one per tick")
    func delayWithoutErrors() async {
        let due = 3
        let input = MarbleGen.any(Self.digits, MarbleShape(endings: [.open, .completed]))
        await expectMarbleLaw(cases: Self.cases, input: input) { source, scheduler in
            source.observable(in: scheduler).delay(.seconds(due), scheduler: scheduler)
        } delivers: { source in
            // As in RxSwift: each drain delivers one event and schedules the next for its
            // due time, or, when that has passed, for "now", which a TestScheduler runs a
            // tick later.
            Self.drained(source.delivered(), after: due)
        }
    }

    @Test("retry(2) resubscribes once, at the first error: a cold source starts over, a hot one has nothing left")
    func retryTwice() async {
        await expectMarbleLaw(cases: Self.cases, input: Self.source) { source, scheduler in
            source.observable(in: scheduler).retry(2)
        } delivers: { source in
            var first = source.delivered()
            guard let last = first.last, last.value.error != nil else { return first }
            first.removeLast()
            return first + source.delivered(subscribedAt: last.time).filter { $0.time > last.time }
        }
    }

    @Test("debounce on input spaced wider than its due time delays each element by it")
    func debounceOnSpacedInput() async {
        let due = 2
        let spaced = MarbleGen.any(Self.digits, MarbleShape(gaps: (due + 1)...(due + 3), endingGaps: 0...(due + 2)))
        await expectMarbleLaw(cases: Self.cases, input: spaced) { source, scheduler in
            source.observable(in: scheduler).debounce(.seconds(due), scheduler: scheduler)
        } delivers: { source in
            var expected: [Recorded<Event<Int>>] = []
            let delivered = source.delivered()
            for (index, event) in delivered.enumerated() {
                guard case .next = event.value else {
                    expected.append(event)
                    continue
                }
                let due = event.time + due
                // The element waits out the due time unless the source ends first: a
                // completion delivers it then, an error (even one due at the same time) drops it.
                if index + 1 < delivered.count, delivered[index + 1].value.isStopEvent, delivered[index + 1].time <= due {
                    if case .completed = delivered[index + 1].value {
                        expected.append(Recorded(time: delivered[index + 1].time, value: event.value))
                    }
                } else {
                    expected.append(Recorded(time: due, value: event.value))
                }
            }
            return expected
        }
    }
}
#endif
