import RivuletTestSupport
import RxSwift
import RxTest
import Testing

/// The flattening and combining operators of `Infallible`: each must behave as the
/// `Observable` operator of the same name, at the same virtual times.
@Suite("Infallible flattening and combining", .rxLeakCheck)
struct InfallibleCombiningTests {
    /// An outer hot source emitting 1 at 210 and 2 at 225, and two cold inners made for
    /// them: `a` (for 1) and `b` (for 2), each `--x1--x2|` in steps of 10.
    private struct Fixture {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int>
        let a: TestableObservable<Int>
        let b: TestableObservable<Int>

        init(outerCompletes: TestTime = 300) {
            xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(225, 2), .completed(outerCompletes)])
            a = scheduler.createColdObservable([.next(10, 11), .next(20, 12), .completed(30)])
            b = scheduler.createColdObservable([.next(10, 21), .next(20, 22), .completed(30)])
        }

        var source: Infallible<Int> { xs.asInfallible(onErrorJustReturn: -1) }

        func inner(_ value: Int) -> Infallible<Int> {
            (value == 1 ? a : b).asInfallible(onErrorJustReturn: -1)
        }
    }

    @Test("flatMap merges every projected sequence")
    func flatMap() {
        let f = Fixture()
        let res = f.scheduler.start { f.source.flatMap { f.inner($0) } }
        #expect(res.events == [.next(220, 11), .next(230, 12), .next(235, 21), .next(245, 22), .completed(300)])
        #expect(f.xs.subscriptions == [Subscription(200, 300)])
        #expect(f.a.subscriptions == [Subscription(210, 240)])
        #expect(f.b.subscriptions == [Subscription(225, 255)])
    }

    @Test("flatMap waits for a running inner sequence before completing")
    func flatMapCompletesAfterInners() {
        let f = Fixture(outerCompletes: 230)
        let res = f.scheduler.start { f.source.flatMap { f.inner($0) } }
        #expect(res.events == [.next(220, 11), .next(230, 12), .next(235, 21), .next(245, 22), .completed(255)])
        #expect(f.xs.subscriptions == [Subscription(200, 230)])
    }

    @Test("flatMapLatest ends the previous inner sequence when a new element arrives")
    func flatMapLatest() {
        let f = Fixture()
        let res = f.scheduler.start { f.source.flatMapLatest { f.inner($0) } }
        #expect(res.events == [.next(220, 11), .next(235, 21), .next(245, 22), .completed(300)])
        #expect(f.a.subscriptions == [Subscription(210, 225)])
        #expect(f.b.subscriptions == [Subscription(225, 255)])
    }

    @Test("flatMapFirst drops elements while an inner sequence runs")
    func flatMapFirst() {
        let f = Fixture()
        var projected: [Int] = []
        let res = f.scheduler.start {
            f.source.flatMapFirst { value -> Infallible<Int> in
                projected.append(value)
                return f.inner(value)
            }
        }
        #expect(res.events == [.next(220, 11), .next(230, 12), .completed(300)])
        #expect(f.a.subscriptions == [Subscription(210, 240)])
        #expect(f.b.subscriptions == [])
        #expect(projected == [1])
    }

    @Test("concatMap subscribes each projected sequence after the previous one completed")
    func concatMap() {
        let f = Fixture()
        let res = f.scheduler.start { f.source.concatMap { f.inner($0) } }
        #expect(res.events == [.next(220, 11), .next(230, 12), .next(250, 21), .next(260, 22), .completed(300)])
        #expect(f.a.subscriptions == [Subscription(210, 240)])
        #expect(f.b.subscriptions == [Subscription(240, 270)])
    }

    @Test("flatMap accepts any sequence; an inner error passes through, as in RxSwift")
    func flatMapInnerError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let ys = scheduler.createColdObservable([.next(5, 7), .error(10, testError)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).flatMap { _ in ys } }
        #expect(res.events == [.next(215, 7), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test("disposal before completion disposes the outer and the inner sequences")
    func disposal() {
        let f = Fixture()
        let res = f.scheduler.start(disposed: 232) { f.source.flatMap { f.inner($0) } }
        #expect(res.events == [.next(220, 11), .next(230, 12)])
        #expect(f.xs.subscriptions == [Subscription(200, 232)])
        #expect(f.a.subscriptions == [Subscription(210, 232)])
        #expect(f.b.subscriptions == [Subscription(225, 232)])
    }

    @Test("concat: instance, sequence, collection and variadic forms")
    func concat() {
        func check(_ make: (Infallible<Int>, Infallible<Int>) -> Infallible<Int>) {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
            let ys = scheduler.createColdObservable([.next(5, 2), .completed(15)])
            let combined = make(xs.asInfallible(onErrorJustReturn: 0), ys.asInfallible(onErrorJustReturn: 0))
            let res = scheduler.start { combined }
            #expect(res.events == [.next(210, 1), .next(225, 2), .completed(235)])
            #expect(xs.subscriptions == [Subscription(200, 220)])
            #expect(ys.subscriptions == [Subscription(220, 235)])
        }
        check { $0.concat($1) }
        check { Infallible.concat(AnySequence([$0, $1])) }
        check { Infallible.concat([$0, $1]) }
        check { Infallible.concat($0, $1) }
    }

    @Test("concat(Sequence) reads the sequence lazily")
    func concatIsLazy() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        var made = 0
        let sources = (0..<3).lazy.map { _ -> Infallible<Int> in
            made += 1
            return xs.asInfallible(onErrorJustReturn: 0)
        }
        // AnySequence: the Sequence overload (a lazy map is also a Collection).
        let res = scheduler.start(disposed: 235) { Infallible.concat(AnySequence(sources)) }
        #expect(res.events == [.next(210, 1), .next(230, 1)])
        #expect(made == 2)
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 235)])
    }

    @Test("merge: collection, array and variadic forms all merge")
    func merge() {
        func check(_ make: (Infallible<Int>, Infallible<Int>) -> Infallible<Int>) {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
            let ys = scheduler.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
            let combined = make(xs.asInfallible(onErrorJustReturn: 0), ys.asInfallible(onErrorJustReturn: 0))
            let res = scheduler.start { combined }
            #expect(res.events == [.next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4), .completed(260)])
            #expect(xs.subscriptions == [Subscription(200, 240)])
            #expect(ys.subscriptions == [Subscription(200, 260)])
        }
        check { Infallible.merge(AnyCollection([$0, $1])) }
        check { Infallible.merge([$0, $1]) }
        check { Infallible.merge($0, $1) }
    }

    @Test("merge: disposal before completion")
    func mergeDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
        let ys = scheduler.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
        let res = scheduler.start(disposed: 225) {
            Infallible.merge(xs.asInfallible(onErrorJustReturn: 0), ys.asInfallible(onErrorJustReturn: 0))
        }
        #expect(res.events == [.next(210, 1), .next(220, 2)])
        #expect(xs.subscriptions == [Subscription(200, 225)])
        #expect(ys.subscriptions == [Subscription(200, 225)])
    }

    @Test("withLatestFrom with and without a result selector")
    func withLatestFrom() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(150, "z"), .next(220, "a"), .next(240, "b"), .completed(260)])
        let res = scheduler.start {
            xs.asInfallible(onErrorJustReturn: 0).withLatestFrom(ys.asInfallible(onErrorJustReturn: "")) { "\($0)\($1)" }
        }
        #expect(res.events == [.next(230, "2a"), .next(250, "3b"), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(200, 260)])

        let other = TestScheduler(initialClock: 0)
        let us = other.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
        let vs = other.createHotObservable([.next(220, "a"), .next(240, "b")])
        let latest = other.start(disposed: 260) {
            us.asInfallible(onErrorJustReturn: 0).withLatestFrom(vs.asInfallible(onErrorJustReturn: ""))
        }
        #expect(latest.events == [.next(230, "a"), .next(250, "b")])
        #expect(vs.subscriptions == [Subscription(200, 260)])
    }

    @Test("withLatestFrom: a throwing result selector ends the sequence with its error")
    func withLatestFromSelectorThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let ys = scheduler.createHotObservable([.next(205, 10)])
        let res = scheduler.start {
            xs.asInfallible(onErrorJustReturn: 0).withLatestFrom(ys.asInfallible(onErrorJustReturn: 0)) { x, y -> Int in
                if x == 2 { throw testError }
                return x + y
            }
        }
        #expect(res.events == [.next(210, 11), .error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(200, 230)])
    }
}
