import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

/// The four spellings of a two-source combineLatest; all follow the same rules.
enum CombineLatestForm: String, CaseIterable, Sendable {
    case resultSelector, tuple, collectionSelector, collectionArray

    func combine(_ first: TestableObservable<Int>, _ second: TestableObservable<Int>) -> Observable<Int> {
        switch self {
        case .resultSelector: Observable.combineLatest(first, second) { $0 + $1 }
        case .tuple: Observable.combineLatest(first, second).map { $0 + $1 }
        case .collectionSelector: Observable.combineLatest([first, second]) { $0.reduce(0, +) }
        case .collectionArray: Observable.combineLatest([first, second]).map { $0.reduce(0, +) }
        }
    }
}

@Suite("combineLatest", .rxLeakCheck)
struct CombineLatestTests {
    // MARK: two sources, every spelling

    @Test("a never-ending source and an empty one never emit", arguments: CombineLatestForm.allCases)
    func neverEmpty(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start { form.combine(e0, e1) }
        #expect(res.events == [])
        #expect(e0.subscriptions == [Subscription(200, 1000)])
        #expect(e1.subscriptions == [Subscription(200, 210)])
    }

    @Test("an empty source and a never-ending one never emit", arguments: CombineLatestForm.allCases)
    func emptyNever(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let e1 = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { form.combine(e0, e1) }
        #expect(res.events == [])
        #expect(e0.subscriptions == [Subscription(200, 210)])
        #expect(e1.subscriptions == [Subscription(200, 1000)])
    }

    @Test("a value after the other source completed empty completes at once", arguments: CombineLatestForm.allCases)
    func emptyReturn(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let res = scheduler.start { form.combine(e0, e1) }
        #expect(res.events == [.completed(215)])
        #expect(e0.subscriptions == [Subscription(200, 210)])
        #expect(e1.subscriptions == [Subscription(200, 215)])
    }

    @Test("the same with the sources swapped", arguments: CombineLatestForm.allCases)
    func returnEmpty(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start { form.combine(e0, e1) }
        #expect(res.events == [.completed(215)])
        #expect(e0.subscriptions == [Subscription(200, 215)])
        #expect(e1.subscriptions == [Subscription(200, 210)])
    }

    @Test("a single value against a silent source emits nothing", arguments: CombineLatestForm.allCases)
    func neverReturn(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let e1 = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { form.combine(e0, e1) }
        #expect(res.events == [])
        #expect(e0.subscriptions == [Subscription(200, 220)])
        #expect(e1.subscriptions == [Subscription(200, 1000)])
    }

    @Test("one value each combines, completion waits for both", arguments: CombineLatestForm.allCases)
    func returnReturn(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(230)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(240)])
        let res = scheduler.start { form.combine(e0, e1) }
        #expect(res.events == [.next(220, 2 + 3), .completed(240)])
        #expect(e0.subscriptions == [Subscription(200, 230)])
        #expect(e1.subscriptions == [Subscription(200, 240)])
    }

    @Test("an error ends it and disposes both sources", arguments: CombineLatestForm.allCases)
    func emptyError(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .completed(230)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .error(220, testError)])
        let res = scheduler.start { form.combine(e0, e1) }
        #expect(res.events == [.error(220, testError)])
        #expect(e0.subscriptions == [Subscription(200, 220)])
        #expect(e1.subscriptions == [Subscription(200, 220)])
    }

    @Test("the first of two errors wins", arguments: CombineLatestForm.allCases)
    func throwThrow(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .error(230, TestError(code: 2))])
        let e1 = scheduler.createHotObservable([.next(150, 1), .error(220, TestError(code: 3))])
        let res = scheduler.start { form.combine(e0, e1) }
        #expect(res.events == [.error(220, TestError(code: 3))])
        #expect(e0.subscriptions == [Subscription(200, 220)])
        #expect(e1.subscriptions == [Subscription(200, 220)])
    }

    @Test("an error after a value still ends it", arguments: CombineLatestForm.allCases)
    func errorThrow(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .error(220, TestError(code: 2))])
        let e1 = scheduler.createHotObservable([.next(150, 1), .error(230, TestError(code: 3))])
        let res = scheduler.start { form.combine(e0, e1) }
        #expect(res.events == [.error(220, TestError(code: 2))])
        #expect(e0.subscriptions == [Subscription(200, 220)])
        #expect(e1.subscriptions == [Subscription(200, 220)])
    }

    @Test("an error after the other source completed", arguments: CombineLatestForm.allCases)
    func errorAfterCompleted(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .error(230, TestError(code: 3))])
        let res = scheduler.start { form.combine(e0, e1) }
        #expect(res.events == [.error(230, TestError(code: 3))])
        #expect(e0.subscriptions == [Subscription(200, 220)])
        #expect(e1.subscriptions == [Subscription(200, 230)])
    }

    @Test("interleaved values, one source finishing first", arguments: CombineLatestForm.allCases)
    func interleavedWithTail(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .next(225, 4), .completed(230)])
        let e1 = scheduler.createHotObservable([
            .next(150, 1), .next(220, 3), .next(230, 5), .next(235, 6), .next(240, 7), .completed(250),
        ])
        let res = scheduler.start { form.combine(e0, e1) }
        #expect(res.events == [
            .next(220, 2 + 3), .next(225, 3 + 4), .next(230, 4 + 5), .next(235, 4 + 6), .next(240, 4 + 7), .completed(250),
        ])
        #expect(e0.subscriptions == [Subscription(200, 230)])
        #expect(e1.subscriptions == [Subscription(200, 250)])
    }

    @Test("the latest value of a completed source keeps combining", arguments: CombineLatestForm.allCases)
    func consecutive(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .next(225, 4), .completed(230)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(235, 6), .next(240, 7), .completed(250)])
        let res = scheduler.start { form.combine(e0, e1) }
        #expect(res.events == [.next(235, 4 + 6), .next(240, 4 + 7), .completed(250)])
        #expect(e0.subscriptions == [Subscription(200, 230)])
        #expect(e1.subscriptions == [Subscription(200, 250)])
    }

    @Test("an error after some combined values", arguments: CombineLatestForm.allCases)
    func consecutiveWithErrorRight(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .next(225, 4), .completed(250)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(235, 6), .next(240, 7), .error(245, testError)])
        let res = scheduler.start { form.combine(e0, e1) }
        #expect(res.events == [.next(235, 4 + 6), .next(240, 4 + 7), .error(245, testError)])
        #expect(e0.subscriptions == [Subscription(200, 245)])
        #expect(e1.subscriptions == [Subscription(200, 245)])
    }

    @Test("disposal before completion stops everything", arguments: CombineLatestForm.allCases)
    func disposedEarly(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .next(225, 4), .completed(300)])
        let e1 = scheduler.createHotObservable([.next(220, 3), .next(240, 7), .completed(310)])
        let res = scheduler.start(disposed: 230) { form.combine(e0, e1) }
        #expect(res.events == [.next(220, 2 + 3), .next(225, 4 + 3)])
        #expect(e0.subscriptions == [Subscription(200, 230)])
        #expect(e1.subscriptions == [Subscription(200, 230)])
    }

    @Test("cold sources start at the subscription", arguments: CombineLatestForm.allCases)
    func coldSources(form: CombineLatestForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createColdObservable([.next(10, 1), .next(30, 2), .completed(40)])
        let e1 = scheduler.createColdObservable([.next(20, 10), .completed(50)])
        let res = scheduler.start { form.combine(e0, e1) }
        #expect(res.events == [.next(220, 11), .next(230, 12), .completed(250)])
        #expect(e0.subscriptions == [Subscription(200, 240)])
        #expect(e1.subscriptions == [Subscription(200, 250)])
    }

    // MARK: result selector

    @Test("a throwing result selector ends the sequence with its error")
    func selectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(230)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(240)])
        let res = scheduler.start {
            Observable.combineLatest(e0, e1) { _, _ -> Int in throw testError }
        }
        #expect(res.events == [.error(220, testError)])
        #expect(e0.subscriptions == [Subscription(200, 220)])
        #expect(e1.subscriptions == [Subscription(200, 220)])
    }

    @Test("a throwing collection selector ends the sequence with its error")
    func collectionSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(230)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(240)])
        let res = scheduler.start {
            Observable.combineLatest([e0, e1].map { $0.asObservable() }) { _ -> Int in throw testError }
        }
        #expect(res.events == [.error(220, testError)])
        #expect(e0.subscriptions == [Subscription(200, 220)])
        #expect(e1.subscriptions == [Subscription(200, 220)])
    }

    @Test("sources of different element types combine into a tuple")
    func heterogeneousTuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let numbers = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
        let words = scheduler.createHotObservable([.next(220, "a"), .completed(240)])
        let res = scheduler.start {
            Observable.combineLatest(numbers, words).map { number, word in "\(number)\(word)" }
        }
        #expect(res.events == [.next(220, "1a"), .next(230, "2a"), .completed(250)])
    }

    @Test("synchronous sources combine at subscription")
    func immediateSources() throws {
        let result = try Observable.combineLatest(Observable.just(1), Observable.just(2)) { $0 + $1 }
            .toBlocking(timeout: 5).toArray()
        #expect(result == [3])
        // `of` emits through the trampoline once the whole subscription is wired, so both
        // of its elements meet the `just` that emitted during the subscription.
        let tuple = try Observable.combineLatest(Observable.of(1, 2), Observable.just(10)).map { $0 + $1 }
            .toBlocking(timeout: 5).toArray()
        #expect(tuple == [11, 12])
    }

    // MARK: collections

    @Test("an empty collection produces one empty combination, then completes")
    func emptyCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let withSelector = scheduler.start {
            Observable.combineLatest([Observable<Int>]()) { $0.count }
        }
        #expect(withSelector.events == [.next(200, 0), .completed(200)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let asArrays = scheduler2.start {
            Observable<Int>.combineLatest([Observable<Int>]()).map(\.count)
        }
        #expect(asArrays.events == [.next(200, 0), .completed(200)])
    }

    @Test("three sources, in the collection's order")
    func collectionSymmetric() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(420)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 5), .completed(410)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(260, 6), .completed(400)])
        let res = scheduler.start { Observable.combineLatest([e0, e1, e2]) }
        #expect(res.events.map(\.time) == [230, 240, 250, 260, 420])
        #expect(res.events.compactMap(\.value.element) == [[1, 2, 3], [1, 5, 3], [4, 5, 3], [4, 5, 6]])
        #expect(res.events.last?.value.isCompleted == true)
        #expect(e0.subscriptions == [Subscription(200, 420)])
        #expect(e1.subscriptions == [Subscription(200, 410)])
        #expect(e2.subscriptions == [Subscription(200, 400)])
    }

    @Test("a source that can never be joined completes the sequence when it emits")
    func willNeverBeAbleToCombine() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .completed(260)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(500, 2), .completed(800)])
        let res = scheduler.start { Observable.combineLatest([e0, e1, e2]) { _ in 42 } }
        #expect(res.events == [.completed(500)])
        #expect(e0.subscriptions == [Subscription(200, 250)])
        #expect(e1.subscriptions == [Subscription(200, 260)])
        #expect(e2.subscriptions == [Subscription(200, 500)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let f0 = scheduler3.createHotObservable([.next(150, 1), .completed(250)])
        let f1 = scheduler3.createHotObservable([.next(150, 1), .completed(260)])
        let f2 = scheduler3.createHotObservable([.next(150, 1), .next(500, 2), .completed(800)])
        let arity = scheduler3.start { Observable.combineLatest(f0, f1, f2) { _, _, _ in 42 } }
        #expect(arity.events == [.completed(500)])
        #expect(f2.subscriptions == [Subscription(200, 500)])
    }

    // MARK: arities 3 to 8

    /// `count` hot sources: source `i` emits `i + 1` at `210 + 10 * i`, then `100 * (i + 1)`
    /// at `400 + 10 * i`, and completes at `600 + 10 * i`.
    private func staggeredSources(_ scheduler: TestScheduler, count: Int) -> [TestableObservable<Int>] {
        (0..<count).map { index in
            scheduler.createHotObservable([
                .next(150, -1),
                .next(210 + 10 * index, index + 1),
                .next(400 + 10 * index, 100 * (index + 1)),
                .completed(600 + 10 * index),
            ])
        }
    }

    /// What combining `count` staggered sources by summing gives.
    private func staggeredExpectation(count: Int) -> [Recorded<Event<Int>>] {
        var values = (1...count).map { $0 }
        var events: [Recorded<Event<Int>>] = [.next(210 + 10 * (count - 1), values.reduce(0, +))]
        for index in 0..<count {
            values[index] = 100 * (index + 1)
            events.append(.next(400 + 10 * index, values.reduce(0, +)))
        }
        events.append(.completed(600 + 10 * (count - 1)))
        return events
    }

    @Test("every arity from 3 to 8 combines its sources in order", arguments: 3...8)
    func arities(count: Int) {
        for tupleForm in [false, true] {
            let scheduler = TestScheduler(initialClock: 0)
            let s = staggeredSources(scheduler, count: count)
            let res = scheduler.start { () -> Observable<Int> in
                switch (count, tupleForm) {
                case (3, false): Observable.combineLatest(s[0], s[1], s[2]) { $0 + $1 + $2 }
                case (3, true): Observable.combineLatest(s[0], s[1], s[2]).map { $0 + $1 + $2 }
                case (4, false): Observable.combineLatest(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }
                case (4, true): Observable.combineLatest(s[0], s[1], s[2], s[3]).map { $0 + $1 + $2 + $3 }
                case (5, false): Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 }
                case (5, true): Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]).map { $0 + $1 + $2 + $3 + $4 }
                case (6, false):
                    Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { a, b, c, d, e, f in a + b + c + d + e + f }
                case (6, true):
                    Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map { a, b, c, d, e, f in a + b + c + d + e + f }
                case (7, false):
                    Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { a, b, c, d, e, f, g in
                        a + b + c + d + e + f + g
                    }
                case (7, true):
                    Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { a, b, c, d, e, f, g in
                        a + b + c + d + e + f + g
                    }
                case (8, false):
                    Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { a, b, c, d, e, f, g, h in
                        a + b + c + d + e + f + g + h
                    }
                default:
                    Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { a, b, c, d, e, f, g, h in
                        a + b + c + d + e + f + g + h
                    }
                }
            }
            #expect(res.events == staggeredExpectation(count: count), "arity \(count), tuple form: \(tupleForm)")
            for (index, source) in s.enumerated() {
                #expect(source.subscriptions == [Subscription(200, 600 + 10 * index)])
            }
        }
    }

    @Test("the last argument of every arity is wired to the last slot", arguments: 3...8)
    func lastSlotErrors(count: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let s = (0..<count).map { index in
            scheduler.createHotObservable(index == count - 1
                ? [.next(210, 1), .error(250, testError)]
                : [.next(210, 1)] as [Recorded<Event<Int>>])
        }
        let res = scheduler.start { () -> Observable<Int> in
            switch count {
            case 3: Observable.combineLatest(s[0], s[1], s[2]) { _, _, c in c }
            case 4: Observable.combineLatest(s[0], s[1], s[2], s[3]) { _, _, _, d in d }
            case 5: Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { _, _, _, _, e in e }
            case 6: Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { _, _, _, _, _, f in f }
            case 7: Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { _, _, _, _, _, _, g in g }
            default: Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { _, _, _, _, _, _, _, h in h }
            }
        }
        #expect(res.events == [.next(210, 1), .error(250, testError)])
        for source in s {
            #expect(source.subscriptions == [Subscription(200, 250)])
        }
    }

    // MARK: re-entrancy

    @Test("an element sent back into a source while delivering is delivered after, not inside")
    func reentrantEmission() {
        let left = PublishSubject<Int>()
        let right = PublishSubject<Int>()
        var received: [Int] = []
        var depth = 0
        var maxDepth = 0
        let subscription = Observable.combineLatest(left, right) { $0 * 10 + $1 }
            .subscribe(onNext: { value in
                depth += 1
                maxDepth = max(maxDepth, depth)
                received.append(value)
                if value == 11 { left.onNext(2) }
                depth -= 1
            })
        left.onNext(1)
        right.onNext(1)
        #expect(received == [11, 21])
        #expect(maxDepth == 1)
        subscription.dispose()
    }

    @Test("each set of values queued behind a delivery keeps the values it had when it was due")
    func reentrantSetsKeepTheirValues() {
        let left = PublishSubject<Int>()
        let right = PublishSubject<String>()
        var received: [String] = []
        let subscription = Observable.combineLatest(left, right) { "\($0)\($1)" }
            .subscribe(onNext: { value in
                received.append(value)
                if value == "1a" {
                    left.onNext(2)
                    right.onNext("b")
                    left.onNext(3)
                }
            })
        left.onNext(1)
        right.onNext("a")
        right.onNext("c")
        #expect(received == ["1a", "2a", "2b", "3b", "3c"])
        subscription.dispose()
    }

    @Test("the collection form queues sets of values behind a delivery with their values too")
    func reentrantCollectionSets() {
        let sources = [PublishSubject<Int>(), PublishSubject<Int>(), PublishSubject<Int>()]
        var received: [[Int]] = []
        let subscription = Observable.combineLatest(sources)
            .subscribe(onNext: { values in
                received.append(values)
                if values == [1, 1, 1] {
                    sources[1].onNext(2)
                    sources[2].onNext(3)
                }
            })
        for source in sources { source.onNext(1) }
        sources[0].onNext(4)
        #expect(received == [[1, 1, 1], [1, 2, 1], [1, 2, 3], [4, 2, 3]])
        subscription.dispose()
    }
}
