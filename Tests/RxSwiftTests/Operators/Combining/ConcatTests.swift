import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

@Suite("concat", .rxLeakCheck)
struct ConcatTests {
    @Test("synchronous sources one after another")
    func defaultScheduler() throws {
        var sum = 0
        _ = Observable.concat([Observable.just(1), Observable.just(2), Observable.just(3)]).subscribe(onNext: { sum += $0 })
        #expect(sum == 6)
        #expect(try Observable.concat(Observable.just(1)).toBlocking(timeout: 5).toArray() == [1])
    }

    @Test("cold sources are subscribed when the previous one completes")
    func coldSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3), .completed(40)])
        let xs2 = scheduler.createColdObservable([.next(10, 4), .next(20, 5), .completed(30)])
        let xs3 = scheduler.createColdObservable([.next(10, 6), .next(20, 7), .next(30, 8), .next(40, 9), .completed(50)])
        let res = scheduler.start { Observable.concat([xs1, xs2, xs3].map { $0.asObservable() }) }
        #expect(res.events == [
            .next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4), .next(260, 5),
            .next(280, 6), .next(290, 7), .next(300, 8), .next(310, 9), .completed(320),
        ])
        #expect(xs1.subscriptions == [Subscription(200, 240)])
        #expect(xs2.subscriptions == [Subscription(240, 270)])
        #expect(xs3.subscriptions == [Subscription(270, 320)])
    }

    /// Two hot sources through every spelling of concat.
    enum Form: CaseIterable, Sendable {
        case array, variadic, sequence, collection, instance

        func concat(_ first: TestableObservable<Int>, _ second: TestableObservable<Int>) -> Observable<Int> {
            let sources = [first.asObservable(), second.asObservable()]
            switch self {
            case .array: return Observable.concat(sources)
            case .variadic: return Observable.concat(sources[0], sources[1])
            case .sequence: return Observable.concat(AnySequence(sources))
            case .collection: return Observable.concat(AnyCollection(sources))
            case .instance: return first.concat(second)
            }
        }
    }

    @Test("empty then empty", arguments: Form.allCases)
    func emptyEmpty(form: Form) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.next(150, 1), .completed(230)])
        let xs2 = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { form.concat(xs1, xs2) }
        #expect(res.events == [.completed(250)])
        #expect(xs1.subscriptions == [Subscription(200, 230)])
        #expect(xs2.subscriptions == [Subscription(230, 250)])
    }

    @Test("a never-ending first source keeps the second unsubscribed", arguments: Form.allCases)
    func neverReturn(form: Form) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.next(150, 1)])
        let xs2 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(230)])
        let res = scheduler.start { form.concat(xs1, xs2) }
        #expect(res.events == [])
        #expect(xs1.subscriptions == [Subscription(200, 1000)])
        #expect(xs2.subscriptions == [])
    }

    @Test("an element, then a never-ending source", arguments: Form.allCases)
    func returnNever(form: Form) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(230)])
        let xs2 = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { form.concat(xs1, xs2) }
        #expect(res.events == [.next(210, 2)])
        #expect(xs1.subscriptions == [Subscription(200, 230)])
        #expect(xs2.subscriptions == [Subscription(230, 1000)])
    }

    @Test("an error stops before the next source", arguments: Form.allCases)
    func throwReturn(form: Form) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.next(150, 1), .error(230, TestError(code: 2))])
        let xs2 = scheduler.createHotObservable([.next(150, 1), .next(240, 2), .completed(250)])
        let res = scheduler.start { form.concat(xs1, xs2) }
        #expect(res.events == [.error(230, TestError(code: 2))])
        #expect(xs1.subscriptions == [Subscription(200, 230)])
        #expect(xs2.subscriptions == [])
    }

    @Test("an error of the second source", arguments: Form.allCases)
    func returnThrow(form: Form) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(230)])
        let xs2 = scheduler.createHotObservable([.next(150, 1), .error(250, TestError(code: 3))])
        let res = scheduler.start { form.concat(xs1, xs2) }
        #expect(res.events == [.next(220, 2), .error(250, TestError(code: 3))])
        #expect(xs1.subscriptions == [Subscription(200, 230)])
        #expect(xs2.subscriptions == [Subscription(230, 250)])
    }

    @Test("elements of both sources", arguments: Form.allCases)
    func someDataSomeData(form: Form) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(225)])
        let xs2 = scheduler.createHotObservable([.next(150, 1), .next(230, 4), .next(240, 5), .completed(250)])
        let res = scheduler.start { form.concat(xs1, xs2) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250)])
        #expect(xs1.subscriptions == [Subscription(200, 225)])
        #expect(xs2.subscriptions == [Subscription(225, 250)])
    }

    @Test("disposal before completion", arguments: Form.allCases)
    func disposed(form: Form) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.next(210, 2), .completed(225)])
        let xs2 = scheduler.createHotObservable([.next(230, 4), .next(240, 5), .completed(250)])
        let res = scheduler.start(disposed: 235) { form.concat(xs1, xs2) }
        #expect(res.events == [.next(210, 2), .next(230, 4)])
        #expect(xs2.subscriptions == [Subscription(225, 235)])
    }

    @Test("the same cold source twice, hot and cold mixed")
    func enumerableTiming() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(230)])
        let xs2 = scheduler.createColdObservable([.next(50, 4), .next(60, 5), .next(70, 6), .completed(80)])
        let xs3 = scheduler.createHotObservable([
            .next(150, 1), .next(200, 2), .next(210, 3), .next(220, 4), .next(230, 5), .next(270, 6),
            .next(320, 7), .next(330, 8), .completed(340),
        ])
        let res = scheduler.start { Observable.concat([xs1, xs2, xs3, xs2].map { $0.asObservable() }) }
        #expect(res.events == [
            .next(210, 2), .next(220, 3), .next(280, 4), .next(290, 5), .next(300, 6), .next(320, 7),
            .next(330, 8), .next(390, 4), .next(400, 5), .next(410, 6), .completed(420),
        ])
        #expect(xs1.subscriptions == [Subscription(200, 230)])
        #expect(xs2.subscriptions == [Subscription(230, 310), Subscription(340, 420)])
        #expect(xs3.subscriptions == [Subscription(310, 340)])
    }

    @Test("the sequence is iterated lazily, one source at a time")
    func lazyIteration() {
        let scheduler = TestScheduler(initialClock: 0)
        var made: [TestTime] = []
        let sources = (0..<3).lazy.map { index -> Observable<Int> in
            made.append(scheduler.clock)
            return scheduler.createColdObservable([.next(10, index), .completed(20)]).asObservable()
        }
        let res = scheduler.start { Observable.concat(sources) }
        #expect(res.events == [.next(210, 0), .next(230, 1), .next(250, 2), .completed(260)])
        #expect(made == [200, 220, 240])
    }

    // MARK: stack depth

    @Test("100,000 sources that complete during their subscription do not overflow the stack")
    func manySynchronousSources() throws {
        let count = 100_000
        let values = try Observable.concat((0..<count).map { Observable.just($0) }).toBlocking(timeout: 60).toArray()
        #expect(values == Array(0..<count))
        let ofObservables = try Observable.from((0..<count).map { Observable.just($0) }).concat()
            .toBlocking(timeout: 60).toArray()
        #expect(ofObservables == Array(0..<count))
    }

    /// `[generator(0), [generator(1), [generator(2), ...].concat()].concat()].concat()`
    private static func nestedCollection(_ start: Int) -> Observable<Int> {
        Observable.concat([0, 1].lazy.map { $0 == 0 ? Observable.just(start) : nestedCollection(start + 1) })
    }

    private static func nestedSequence(_ start: Int) -> Observable<Int> {
        Observable.concat(AnySequence([0, 1].lazy.map { $0 == 0 ? Observable.just(start) : nestedSequence(start + 1) }))
    }

    @Test("nested concatenations of collections are flattened instead of nesting subscriptions")
    func tailRecursionCollection() throws {
        let count = 10_000
        #expect(try Self.nestedCollection(0).take(count).toBlocking(timeout: 60).toArray() == Array(0..<count))
    }

    @Test("nested concatenations of sequences are flattened instead of nesting subscriptions")
    func tailRecursionSequence() throws {
        let count = 10_000
        #expect(try Self.nestedSequence(0).take(count).toBlocking(timeout: 60).toArray() == Array(0..<count))
    }
}
