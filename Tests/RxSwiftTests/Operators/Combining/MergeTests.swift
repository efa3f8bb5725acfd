import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

@Suite("merge, flatMap, flatMapFirst, concatMap", .rxLeakCheck)
struct MergeTests {
    // MARK: synchronous sources

    @Test("synchronous inner sequences all arrive", arguments: [0, 1])
    func synchronousInners(maxConcurrent: Int) throws {
        let outer = Observable.of(Observable.of(0, 1, 2), Observable.of(0, 1, 2), Observable.of(0, 1, 2))
        let merged = maxConcurrent == 0 ? outer.merge() : outer.merge(maxConcurrent: maxConcurrent)
        #expect(try merged.toBlocking(timeout: 5).toArray().count == 9)
    }

    @Test("an error after some synchronous elements arrives once", arguments: [0, 1])
    func synchronousErrorAfterElements(maxConcurrent: Int) {
        let outer = Observable.of(
            Observable.of(0, 1, 2),
            Observable.concat([Observable.of(0, 1), Observable.error(testError)]),
            Observable.of(0, 1, 2)
        )
        let merged = maxConcurrent == 0 ? outer.merge() : outer.merge(maxConcurrent: maxConcurrent)
        var errors = 0
        _ = merged.subscribe(onError: { _ in errors += 1 })
        #expect(errors == 1)
    }

    @Test("an inner error at once, an empty outer, an empty inner", arguments: [0, 1])
    func synchronousEdgeCases(maxConcurrent: Int) {
        func merged(_ outer: Observable<Observable<Int>>) -> Observable<Int> {
            maxConcurrent == 0 ? outer.merge() : outer.merge(maxConcurrent: maxConcurrent)
        }
        var errors = 0
        _ = merged(Observable.just(Observable.error(testError))).subscribe(onError: { _ in errors += 1 })
        #expect(errors == 1)
        var completions = 0
        _ = merged(Observable<Observable<Int>>.empty()).subscribe(onCompleted: { completions += 1 })
        _ = merged(Observable.just(Observable.empty())).subscribe(onCompleted: { completions += 1 })
        #expect(completions == 2)
    }

    // MARK: merge() on an observable of observables

    @Test("inner sequences interleave; completion waits for the last one")
    func observableOfObservableData() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([
            .next(10, 101), .next(20, 102), .next(110, 103), .next(120, 104), .next(210, 105), .next(220, 106), .completed(230),
        ])
        let ys2 = scheduler.createColdObservable([.next(10, 201), .next(20, 202), .next(30, 203), .next(40, 204), .completed(50)])
        let ys3 = scheduler.createColdObservable([
            .next(10, 301), .next(20, 302), .next(30, 303), .next(40, 304), .next(120, 305), .completed(150),
        ])
        let xs = scheduler.createHotObservable([.next(300, ys1), .next(400, ys2), .next(500, ys3), .completed(600)])
        let res = scheduler.start { xs.merge() }
        #expect(res.events == [
            .next(310, 101), .next(320, 102), .next(410, 103), .next(410, 201), .next(420, 104), .next(420, 202),
            .next(430, 203), .next(440, 204), .next(510, 105), .next(510, 301), .next(520, 106), .next(520, 302),
            .next(530, 303), .next(540, 304), .next(620, 305), .completed(650),
        ])
        #expect(xs.subscriptions == [Subscription(200, 600)])
        #expect(ys1.subscriptions == [Subscription(300, 530)])
        #expect(ys2.subscriptions == [Subscription(400, 450)])
        #expect(ys3.subscriptions == [Subscription(500, 650)])
    }

    @Test("an inner error ends everything and later inners are never subscribed")
    func observableOfObservableInnerThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([
            .next(10, 101), .next(20, 102), .next(110, 103), .next(120, 104), .next(210, 105), .next(220, 106), .completed(230),
        ])
        let ys2 = scheduler.createColdObservable([
            .next(10, 201), .next(20, 202), .next(30, 203), .next(40, 204), .error(50, TestError(code: 2)),
        ])
        let ys3 = scheduler.createColdObservable([.next(10, 301), .completed(150)])
        let xs = scheduler.createHotObservable([.next(300, ys1), .next(400, ys2), .next(500, ys3), .completed(600)])
        let res = scheduler.start { xs.merge() }
        #expect(res.events == [
            .next(310, 101), .next(320, 102), .next(410, 103), .next(410, 201), .next(420, 104), .next(420, 202),
            .next(430, 203), .next(440, 204), .error(450, TestError(code: 2)),
        ])
        #expect(xs.subscriptions == [Subscription(200, 450)])
        #expect(ys1.subscriptions == [Subscription(300, 450)])
        #expect(ys2.subscriptions == [Subscription(400, 450)])
        #expect(ys3.subscriptions == [])
    }

    @Test("an outer error ends everything")
    func observableOfObservableOuterThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([
            .next(10, 101), .next(20, 102), .next(110, 103), .next(120, 104), .next(210, 105), .next(220, 106), .completed(230),
        ])
        let ys2 = scheduler.createColdObservable([.next(10, 201), .next(20, 202), .next(30, 203), .next(40, 204), .completed(50)])
        let xs = scheduler.createHotObservable([.next(300, ys1), .next(400, ys2), .error(500, TestError(code: 2))])
        let res = scheduler.start { xs.merge() }
        #expect(res.events == [
            .next(310, 101), .next(320, 102), .next(410, 103), .next(410, 201), .next(420, 104), .next(420, 202),
            .next(430, 203), .next(440, 204), .error(500, TestError(code: 2)),
        ])
        #expect(xs.subscriptions == [Subscription(200, 500)])
        #expect(ys1.subscriptions == [Subscription(300, 500)])
        #expect(ys2.subscriptions == [Subscription(400, 450)])
    }

    // MARK: merge(maxConcurrent:)

    private struct MergeConcatFixture {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1: TestableObservable<Int>
        let ys2: TestableObservable<Int>
        let ys3: TestableObservable<Int>
        let ys4: TestableObservable<Int>
        let xs: TestableObservable<TestableObservable<Int>>

        init(ys2Completion: TestTime = 200, ys3Terminal: Recorded<Event<Int>> = .completed(130), fourthAt: TestTime = 320,
             outerTerminal: Recorded<Event<TestableObservable<Int>>> = .completed(400)) {
            ys1 = scheduler.createColdObservable([.next(50, 1), .next(100, 2), .next(120, 3), .completed(140)])
            ys2 = scheduler.createColdObservable([.next(20, 4), .next(70, 5), .completed(ys2Completion)])
            ys3 = scheduler.createColdObservable([.next(10, 6), .next(90, 7), .next(110, 8), ys3Terminal])
            ys4 = scheduler.createColdObservable([.next(210, 9), .next(240, 10), .completed(300)])
            xs = scheduler.createHotObservable([.next(210, ys1), .next(260, ys2), .next(270, ys3), .next(fourthAt, ys4), outerTerminal])
        }
    }

    @Test("two at a time: the third waits for the first to complete")
    func mergeConcatBasic() {
        let f = MergeConcatFixture()
        let res = f.scheduler.start { f.xs.merge(maxConcurrent: 2) }
        #expect(res.events == [
            .next(260, 1), .next(280, 4), .next(310, 2), .next(330, 3), .next(330, 5), .next(360, 6),
            .next(440, 7), .next(460, 8), .next(670, 9), .next(700, 10), .completed(760),
        ])
        #expect(f.xs.subscriptions == [Subscription(200, 400)])
        #expect(f.ys1.subscriptions == [Subscription(210, 350)])
        #expect(f.ys2.subscriptions == [Subscription(260, 460)])
        #expect(f.ys3.subscriptions == [Subscription(350, 480)])
        #expect(f.ys4.subscriptions == [Subscription(460, 760)])
    }

    @Test("two at a time with a long second sequence")
    func mergeConcatBasicLong() {
        let f = MergeConcatFixture(ys2Completion: 300)
        let res = f.scheduler.start { f.xs.merge(maxConcurrent: 2) }
        #expect(res.events == [
            .next(260, 1), .next(280, 4), .next(310, 2), .next(330, 3), .next(330, 5), .next(360, 6),
            .next(440, 7), .next(460, 8), .next(690, 9), .next(720, 10), .completed(780),
        ])
        #expect(f.ys2.subscriptions == [Subscription(260, 560)])
        #expect(f.ys3.subscriptions == [Subscription(350, 480)])
        #expect(f.ys4.subscriptions == [Subscription(480, 780)])
    }

    @Test("three at a time, the outer completing before the last inner")
    func mergeConcatBasicWide() {
        let f = MergeConcatFixture(ys2Completion: 300, fourthAt: 420, outerTerminal: .completed(450))
        let res = f.scheduler.start { f.xs.merge(maxConcurrent: 3) }
        #expect(res.events == [
            .next(260, 1), .next(280, 4), .next(280, 6), .next(310, 2), .next(330, 3), .next(330, 5),
            .next(360, 7), .next(380, 8), .next(630, 9), .next(660, 10), .completed(720),
        ])
        #expect(f.xs.subscriptions == [Subscription(200, 450)])
        #expect(f.ys1.subscriptions == [Subscription(210, 350)])
        #expect(f.ys2.subscriptions == [Subscription(260, 560)])
        #expect(f.ys3.subscriptions == [Subscription(270, 400)])
        #expect(f.ys4.subscriptions == [Subscription(420, 720)])
    }

    @Test("three at a time, the outer completing last")
    func mergeConcatBasicLate() {
        let f = MergeConcatFixture(ys2Completion: 300, fourthAt: 420, outerTerminal: .completed(750))
        let res = f.scheduler.start { f.xs.merge(maxConcurrent: 3) }
        #expect(res.events.last == .completed(750))
        #expect(f.xs.subscriptions == [Subscription(200, 750)])
        #expect(f.ys4.subscriptions == [Subscription(420, 720)])
    }

    @Test("disposal stops the running and the waiting sequences")
    func mergeConcatDisposed() {
        let f = MergeConcatFixture()
        let res = f.scheduler.start(disposed: 450) { f.xs.merge(maxConcurrent: 2) }
        #expect(res.events == [
            .next(260, 1), .next(280, 4), .next(310, 2), .next(330, 3), .next(330, 5), .next(360, 6), .next(440, 7),
        ])
        #expect(f.xs.subscriptions == [Subscription(200, 400)])
        #expect(f.ys1.subscriptions == [Subscription(210, 350)])
        #expect(f.ys2.subscriptions == [Subscription(260, 450)])
        #expect(f.ys3.subscriptions == [Subscription(350, 450)])
        #expect(f.ys4.subscriptions == [])
    }

    @Test("an outer error drops the waiting sequences")
    func mergeConcatOuterError() {
        let f = MergeConcatFixture(outerTerminal: .error(400, TestError(code: 2)))
        let res = f.scheduler.start { f.xs.merge(maxConcurrent: 2) }
        #expect(res.events == [
            .next(260, 1), .next(280, 4), .next(310, 2), .next(330, 3), .next(330, 5), .next(360, 6),
            .error(400, TestError(code: 2)),
        ])
        #expect(f.ys2.subscriptions == [Subscription(260, 400)])
        #expect(f.ys3.subscriptions == [Subscription(350, 400)])
        #expect(f.ys4.subscriptions == [])
    }

    @Test("an inner error ends everything")
    func mergeConcatInnerError() {
        let f = MergeConcatFixture(ys3Terminal: .error(140, TestError(code: 2)))
        let res = f.scheduler.start { f.xs.merge(maxConcurrent: 2) }
        #expect(res.events == [
            .next(260, 1), .next(280, 4), .next(310, 2), .next(330, 3), .next(330, 5), .next(360, 6),
            .next(440, 7), .next(460, 8), .error(490, TestError(code: 2)),
        ])
        #expect(f.xs.subscriptions == [Subscription(200, 400)])
        #expect(f.ys3.subscriptions == [Subscription(350, 490)])
        #expect(f.ys4.subscriptions == [Subscription(460, 490)])
    }

    @Test("concat() on an observable of observables is merge(maxConcurrent: 1)")
    func concatOfObservables() {
        let f = MergeConcatFixture()
        let res = f.scheduler.start { f.xs.concat() }
        #expect(res.events == [
            .next(260, 1), .next(310, 2), .next(330, 3), .next(370, 4), .next(420, 5), .next(560, 6),
            .next(640, 7), .next(660, 8), .next(890, 9), .next(920, 10), .completed(980),
        ])
        #expect(f.ys1.subscriptions == [Subscription(210, 350)])
        #expect(f.ys2.subscriptions == [Subscription(350, 550)])
        #expect(f.ys3.subscriptions == [Subscription(550, 680)])
        #expect(f.ys4.subscriptions == [Subscription(680, 980)])
    }

    // MARK: static merge

    enum StaticForm: CaseIterable, Sendable {
        case variadic, collection, array

        func merge(_ sources: [Observable<Int>]) -> Observable<Int> {
            switch self {
            case .variadic:
                switch sources.count {
                case 0: Observable.merge()
                case 2: Observable.merge(sources[0], sources[1])
                default: Observable.merge(sources[0], sources[1], sources[2])
                }
            case .collection: Observable.merge(AnyCollection(sources))
            case .array: Observable.merge(sources)
            }
        }
    }

    @Test("no sources complete at once", arguments: StaticForm.allCases)
    func staticEmpty(form: StaticForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { form.merge([]) }
        #expect(res.events == [.completed(200)])
    }

    @Test("an empty source does not complete the merge early", arguments: StaticForm.allCases)
    func staticEmptyData(form: StaticForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let ys2 = scheduler.createColdObservable([.next(10, 201), .next(20, 202), .completed(50)])
        let res = scheduler.start { form.merge([Observable<Int>.empty(), ys2.asObservable()]) }
        #expect(res.events == [.next(210, 201), .next(220, 202), .completed(250)])
        #expect(ys2.subscriptions == [Subscription(200, 250)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let both = scheduler2.start { form.merge([Observable<Int>.empty(), Observable<Int>.empty()]) }
        #expect(both.events == [.completed(200)])
    }

    @Test("three sources interleave and complete with the last", arguments: StaticForm.allCases)
    func staticData(form: StaticForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 101), .next(20, 102), .completed(230)])
        let ys2 = scheduler.createColdObservable([.next(10, 201), .next(20, 202), .completed(50)])
        let ys3 = scheduler.createColdObservable([.next(10, 301), .next(20, 302), .completed(150)])
        let res = scheduler.start { form.merge([ys1.asObservable(), ys2.asObservable(), ys3.asObservable()]) }
        #expect(res.events == [
            .next(210, 101), .next(210, 201), .next(210, 301), .next(220, 102), .next(220, 202), .next(220, 302),
            .completed(430),
        ])
        #expect(ys1.subscriptions == [Subscription(200, 430)])
        #expect(ys2.subscriptions == [Subscription(200, 250)])
        #expect(ys3.subscriptions == [Subscription(200, 350)])
    }

    @Test("an error of one source disposes all", arguments: StaticForm.allCases)
    func staticInnerThrows(form: StaticForm) {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 101), .next(20, 102), .completed(230)])
        let ys2 = scheduler.createColdObservable([.next(10, 201), .error(15, testError)])
        let ys3 = scheduler.createColdObservable([.next(10, 301), .next(20, 302), .completed(150)])
        let res = scheduler.start { form.merge([ys1.asObservable(), ys2.asObservable(), ys3.asObservable()]) }
        #expect(res.events == [.next(210, 101), .next(210, 201), .next(210, 301), .error(215, testError)])
        for ys in [ys1, ys2, ys3] {
            #expect(ys.subscriptions == [Subscription(200, 215)])
        }
    }

    // MARK: flatMap and flatMapFirst

    /// RxSwift's fixture for flatMap and flatMapFirst: inner sequences at 5, 105 (before the
    /// subscription), 300, 400, 550, 750, 850, then `terminal`.
    private func innerSequences(
        _ scheduler: TestScheduler,
        terminal: Recorded<Event<TestableObservable<Int>>>? = .completed(900),
        firstInnerEnd: Recorded<Event<Int>> = .completed(460),
        secondInnerEnd: Recorded<Event<Int>>? = .completed(205)
    ) -> TestableObservable<TestableObservable<Int>> {
        var events: [Recorded<Event<TestableObservable<Int>>>] = [
            .next(5, scheduler.createColdObservable([.error(1, testError)])),
            .next(105, scheduler.createColdObservable([.error(1, testError)])),
            .next(300, scheduler.createColdObservable([
                .next(10, 102), .next(90, 103), .next(110, 104), .next(190, 105), .next(440, 106), firstInnerEnd,
            ])),
            .next(400, scheduler.createColdObservable([.next(180, 202), .next(190, 203)] + (secondInnerEnd.map { [$0] } ?? []))),
            .next(550, scheduler.createColdObservable([
                .next(10, 301), .next(50, 302), .next(70, 303), .next(260, 304), .next(310, 305), .completed(410),
            ])),
            .next(750, scheduler.createColdObservable([.completed(40)])),
            .next(850, scheduler.createColdObservable([.next(80, 401), .next(90, 402), .completed(100)])),
        ]
        if let terminal { events.append(terminal) }
        return scheduler.createHotObservable(events)
    }

    private func innerSubscriptions(_ xs: TestableObservable<TestableObservable<Int>>) -> [[Subscription]] {
        xs.recordedEvents[2...6].map { $0.value.element!.subscriptions }
    }

    @Test("flatMap merges every projected sequence")
    func flatMapComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = innerSequences(scheduler)
        let res = scheduler.start { xs.flatMap(\.self) }
        #expect(res.events == [
            .next(310, 102), .next(390, 103), .next(410, 104), .next(490, 105), .next(560, 301), .next(580, 202),
            .next(590, 203), .next(600, 302), .next(620, 303), .next(740, 106), .next(810, 304), .next(860, 305),
            .next(930, 401), .next(940, 402), .completed(960),
        ])
        #expect(xs.subscriptions == [Subscription(200, 900)])
        #expect(innerSubscriptions(xs) == [
            [Subscription(300, 760)], [Subscription(400, 605)], [Subscription(550, 960)],
            [Subscription(750, 790)], [Subscription(850, 950)],
        ])
    }

    @Test("flatMap without an outer completion never completes")
    func flatMapInnerNotComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = innerSequences(scheduler, terminal: nil)
        let res = scheduler.start { xs.flatMap(\.self) }
        #expect(res.events.last == .next(940, 402))
        #expect(res.events.count == 14)
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test("flatMap with an inner sequence that never completes")
    func flatMapOuterNotComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = innerSequences(scheduler, secondInnerEnd: nil)
        let res = scheduler.start { xs.flatMap(\.self) }
        #expect(res.events.last == .next(940, 402))
        #expect(xs.subscriptions == [Subscription(200, 900)])
        #expect(innerSubscriptions(xs)[1] == [Subscription(400, 1000)])
    }

    @Test("flatMap: an outer error disposes every inner sequence")
    func flatMapErrorOuter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = innerSequences(scheduler, terminal: .error(900, testError), secondInnerEnd: nil)
        let res = scheduler.start { xs.flatMap(\.self) }
        #expect(res.events.suffix(2) == [.next(860, 305), .error(900, testError)])
        #expect(xs.subscriptions == [Subscription(200, 900)])
        #expect(innerSubscriptions(xs) == [
            [Subscription(300, 760)], [Subscription(400, 900)], [Subscription(550, 900)],
            [Subscription(750, 790)], [Subscription(850, 900)],
        ])
    }

    @Test("flatMap: an inner error ends everything")
    func flatMapErrorInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = innerSequences(scheduler, firstInnerEnd: .error(460, testError))
        let res = scheduler.start { xs.flatMap(\.self) }
        #expect(res.events.suffix(2) == [.next(740, 106), .error(760, testError)])
        #expect(xs.subscriptions == [Subscription(200, 760)])
        #expect(innerSubscriptions(xs) == [
            [Subscription(300, 760)], [Subscription(400, 605)], [Subscription(550, 760)], [Subscription(750, 760)], [],
        ])
    }

    @Test("flatMap: disposal before completion")
    func flatMapDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = innerSequences(scheduler)
        let res = scheduler.start(disposed: 700) { xs.flatMap(\.self) }
        #expect(res.events == [
            .next(310, 102), .next(390, 103), .next(410, 104), .next(490, 105), .next(560, 301), .next(580, 202),
            .next(590, 203), .next(600, 302), .next(620, 303),
        ])
        #expect(xs.subscriptions == [Subscription(200, 700)])
        #expect(innerSubscriptions(xs) == [[Subscription(300, 700)], [Subscription(400, 605)], [Subscription(550, 700)], [], []])
    }

    @Test("flatMap: a throwing selector ends the sequence")
    func flatMapSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = innerSequences(scheduler)
        var invoked = 0
        let res = scheduler.start {
            xs.flatMap { (x: TestableObservable<Int>) -> TestableObservable<Int> in
                invoked += 1
                if invoked == 3 { throw testError }
                return x
            }
        }
        #expect(res.events == [.next(310, 102), .next(390, 103), .next(410, 104), .next(490, 105), .error(550, testError)])
        #expect(xs.subscriptions == [Subscription(200, 550)])
        #expect(innerSubscriptions(xs) == [[Subscription(300, 550)], [Subscription(400, 550)], [], [], []])
    }

    @Test("flatMap with timers")
    func flatMapUseFunction() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 4), .next(220, 3), .next(250, 5), .next(270, 1), .completed(290)])
        let res = scheduler.start {
            xs.flatMap { x in Observable<Int64>.interval(.seconds(10), scheduler: scheduler).map { _ in x }.take(x) }
        }
        #expect(res.events == [
            .next(220, 4), .next(230, 3), .next(230, 4), .next(240, 3), .next(240, 4), .next(250, 3), .next(250, 4),
            .next(260, 5), .next(270, 5), .next(280, 1), .next(280, 5), .next(290, 5), .next(300, 5), .completed(300),
        ])
        #expect(xs.subscriptions == [Subscription(200, 290)])
    }

    @Test("flatMapFirst ignores elements while a sequence runs")
    func flatMapFirstComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = innerSequences(scheduler)
        let res = scheduler.start { xs.flatMapFirst { $0 } }
        #expect(res.events == [
            .next(310, 102), .next(390, 103), .next(410, 104), .next(490, 105), .next(740, 106), .next(930, 401),
            .next(940, 402), .completed(950),
        ])
        #expect(xs.subscriptions == [Subscription(200, 900)])
        #expect(innerSubscriptions(xs) == [[Subscription(300, 760)], [], [], [], [Subscription(850, 950)]])
    }

    @Test("flatMapFirst: an outer error")
    func flatMapFirstErrorOuter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = innerSequences(scheduler, terminal: .error(900, testError), secondInnerEnd: nil)
        let res = scheduler.start { xs.flatMapFirst { $0 } }
        #expect(res.events.suffix(2) == [.next(740, 106), .error(900, testError)])
        #expect(innerSubscriptions(xs) == [[Subscription(300, 760)], [], [], [], [Subscription(850, 900)]])
    }

    @Test("flatMapFirst: an inner error")
    func flatMapFirstErrorInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = innerSequences(scheduler, firstInnerEnd: .error(460, testError))
        let res = scheduler.start { xs.flatMapFirst { $0 } }
        #expect(res.events.suffix(2) == [.next(740, 106), .error(760, testError)])
        #expect(xs.subscriptions == [Subscription(200, 760)])
        #expect(innerSubscriptions(xs) == [[Subscription(300, 760)], [], [], [], []])
    }

    @Test("flatMapFirst: disposal")
    func flatMapFirstDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = innerSequences(scheduler)
        let res = scheduler.start(disposed: 700) { xs.flatMapFirst { $0 } }
        #expect(res.events == [.next(310, 102), .next(390, 103), .next(410, 104), .next(490, 105)])
        #expect(xs.subscriptions == [Subscription(200, 700)])
        #expect(innerSubscriptions(xs) == [[Subscription(300, 700)], [], [], [], []])
    }

    @Test("flatMapFirst does not call the selector for ignored elements")
    func flatMapFirstSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = innerSequences(scheduler)
        var invoked = 0
        let res = scheduler.start {
            xs.flatMapFirst { (x: TestableObservable<Int>) -> TestableObservable<Int> in
                invoked += 1
                if invoked == 2 { throw testError }
                return x
            }
        }
        #expect(res.events.suffix(2) == [.next(740, 106), .error(850, testError)])
        #expect(xs.subscriptions == [Subscription(200, 850)])
        #expect(innerSubscriptions(xs) == [[Subscription(300, 760)], [], [], [], []])
    }

    @Test("flatMapFirst with timers")
    func flatMapFirstUseFunction() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 4), .next(220, 3), .next(250, 5), .next(270, 1), .completed(290)])
        let res = scheduler.start {
            xs.flatMapFirst { x in Observable<Int64>.interval(.seconds(10), scheduler: scheduler).map { _ in x }.take(x) }
        }
        #expect(res.events == [.next(220, 4), .next(230, 4), .next(240, 4), .next(250, 4), .next(280, 1), .completed(290)])
        #expect(xs.subscriptions == [Subscription(200, 290)])
    }

    // MARK: concatMap

    @Test("concatMap: inner sequences faster than the outer")
    func concatMapInnerFaster() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 102), .completed(20)])
        let ys2 = scheduler.createColdObservable([.next(20, 202), .completed(25)])
        let xs = scheduler.createHotObservable([.next(250, ys1), .next(300, ys2), .completed(900)])
        let res = scheduler.start { xs.concatMap { $0 } }
        #expect(res.events == [.next(260, 102), .next(320, 202), .completed(900)])
        #expect(xs.subscriptions == [Subscription(200, 900)])
        #expect(ys1.subscriptions == [Subscription(250, 270)])
        #expect(ys2.subscriptions == [Subscription(300, 325)])
    }

    @Test("concatMap: disposal")
    func concatMapDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 102), .completed(20)])
        let ys2 = scheduler.createColdObservable([.next(20, 202), .completed(25)])
        let xs = scheduler.createHotObservable([.next(250, ys1), .next(300, ys2), .completed(900)])
        let res = scheduler.start(disposed: 310) { xs.concatMap { $0 } }
        #expect(res.events == [.next(260, 102)])
        #expect(xs.subscriptions == [Subscription(200, 310)])
        #expect(ys2.subscriptions == [Subscription(300, 310)])
    }

    private struct ConcatMapFixture {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1: TestableObservable<Int>
        let ys2: TestableObservable<Int>
        let ys3: TestableObservable<Int>
        let xs: TestableObservable<TestableObservable<Int>>

        init(firstEnd: Recorded<Event<Int>> = .completed(460), secondEnd: Recorded<Event<Int>>? = nil,
             outerTerminal: Recorded<Event<TestableObservable<Int>>>? = .completed(900)) {
            ys1 = scheduler.createColdObservable([
                .next(10, 102), .next(90, 103), .next(110, 104), .next(190, 105), .next(440, 106), firstEnd,
            ])
            ys2 = scheduler.createColdObservable([.next(180, 202), .next(190, 203)] + (secondEnd.map { [$0] } ?? []))
            ys3 = scheduler.createColdObservable([.next(10, 301), .next(50, 302), .completed(60)])
            var outer: [Recorded<Event<TestableObservable<Int>>>] = [.next(300, ys1), .next(400, ys2), .next(550, ys3)]
            if let outerTerminal { outer.append(outerTerminal) }
            xs = scheduler.createHotObservable(outer)
        }
    }

    @Test("concatMap: the outer completes while an inner never does")
    func concatMapOuterCompleteInnerNotComplete() {
        let f = ConcatMapFixture()
        let res = f.scheduler.start { f.xs.concatMap { $0 } }
        #expect(res.events == [
            .next(310, 102), .next(390, 103), .next(410, 104), .next(490, 105), .next(740, 106), .next(940, 202), .next(950, 203),
        ])
        #expect(f.xs.subscriptions == [Subscription(200, 900)])
        #expect(f.ys1.subscriptions == [Subscription(300, 760)])
        #expect(f.ys2.subscriptions == [Subscription(760, 1000)])
        #expect(f.ys3.subscriptions == [])
    }

    @Test("concatMap: the outer completes before the last inner")
    func concatMapOuterCompleteBeforeInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([
            .next(10, 102), .next(90, 103), .next(110, 104), .next(190, 105), .next(440, 106), .completed(460),
        ])
        let ys2 = scheduler.createColdObservable([.next(180, 202), .next(190, 203), .completed(195)])
        let xs = scheduler.createHotObservable([.next(300, ys1), .next(400, ys2), .completed(405)])
        let res = scheduler.start { xs.concatMap { $0 } }
        #expect(res.events.suffix(3) == [.next(940, 202), .next(950, 203), .completed(955)])
        #expect(xs.subscriptions == [Subscription(200, 405)])
        #expect(ys1.subscriptions == [Subscription(300, 760)])
        #expect(ys2.subscriptions == [Subscription(760, 955)])
    }

    @Test("concatMap: an outer error drops the waiting sequences")
    func concatMapErrorOuter() {
        let f = ConcatMapFixture(secondEnd: .completed(205), outerTerminal: .error(900, testError))
        let res = f.scheduler.start { f.xs.concatMap { $0 } }
        #expect(res.events.suffix(2) == [.next(740, 106), .error(900, testError)])
        #expect(f.ys2.subscriptions == [Subscription(760, 900)])
        #expect(f.ys3.subscriptions == [])
    }

    @Test("concatMap: an inner error ends everything")
    func concatMapErrorInner() {
        let f = ConcatMapFixture(firstEnd: .error(460, testError), secondEnd: .completed(205))
        let res = f.scheduler.start { f.xs.concatMap { $0 } }
        #expect(res.events.suffix(2) == [.next(740, 106), .error(760, testError)])
        #expect(f.xs.subscriptions == [Subscription(200, 760)])
        #expect(f.ys1.subscriptions == [Subscription(300, 760)])
        #expect(f.ys2.subscriptions == [])
    }

    @Test("concatMap runs the selector when the element arrives, even if it must wait")
    func concatMapSelectorTiming() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        var calls: [TestTime] = []
        let res = scheduler.start {
            xs.concatMap { x -> Observable<Int> in
                calls.append(scheduler.clock)
                if x == 2 { throw testError }
                return Observable<Int>.never()
            }
        }
        #expect(calls == [210, 220])
        #expect(res.events == [.error(220, testError)])
    }

    // MARK: re-entrancy and stack depth

    @Test("an element fed back while delivering is delivered after, not inside")
    func reentrantFlatMap() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var depth = 0
        var maxDepth = 0
        let subscription = subject.flatMap { Observable.just($0) }
            .subscribe(onNext: { value in
                depth += 1
                maxDepth = max(maxDepth, depth)
                received.append(value)
                if value < 5 { subject.onNext(value + 1) }
                depth -= 1
            })
        subject.onNext(1)
        #expect(received == [1, 2, 3, 4, 5])
        #expect(maxDepth == 1)
        subscription.dispose()
    }

    @Test("100,000 synchronous inner sequences do not overflow the stack")
    func manySynchronousInners() throws {
        let count = 100_000
        let merged = try Observable.range(start: 0, count: count).flatMap { Observable.just($0) }
            .toBlocking(timeout: 60).toArray()
        #expect(merged.count == count)
        #expect(merged.last == count - 1)

        let staticMerged = try Observable.merge((0..<count).map { Observable.just($0) })
            .toBlocking(timeout: 60).toArray()
        #expect(staticMerged == Array(0..<count))

        let concatMapped = try Observable.range(start: 0, count: count).concatMap { Observable.just($0) }
            .toBlocking(timeout: 60).toArray()
        #expect(concatMapped == Array(0..<count))
    }

    @Test("100,000 waiting sequences that complete synchronously are subscribed in a loop")
    func manyQueuedSynchronousInners() {
        let count = 100_000
        let outer = PublishSubject<Observable<Int>>()
        let gate = PublishSubject<Int>()
        var received = 0
        var last = -1
        var completed = false
        let subscription = outer.merge(maxConcurrent: 1).subscribe(
            onNext: { received += 1; last = $0 },
            onCompleted: { completed = true }
        )
        outer.onNext(gate)
        for value in 0..<count {
            outer.onNext(Observable.just(value))
        }
        outer.onCompleted()
        #expect(received == 0)
        gate.onCompleted()
        #expect(received == count)
        #expect(last == count - 1)
        #expect(completed)
        subscription.dispose()
    }
}
