import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("withLatestFrom", .rxLeakCheck)
struct WithLatestFromTests {
    private struct Fixture {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int>
        let ys: TestableObservable<String>

        init(xsTerminal: Recorded<Event<Int>> = .completed(590), ysTerminal: Recorded<Event<String>> = .completed(400)) {
            xs = scheduler.createHotObservable([
                .next(90, 1), .next(180, 2), .next(250, 3), .next(260, 4), .next(310, 5), .next(340, 6),
                .next(410, 7), .next(420, 8), .next(470, 9), .next(550, 10), xsTerminal,
            ])
            ys = scheduler.createHotObservable([.next(255, "bar"), .next(330, "foo"), .next(350, "qux"), ysTerminal])
        }
    }

    @Test("each element takes the latest of the second source; the second completing changes nothing")
    func simple() {
        let f = Fixture()
        let res = f.scheduler.start { f.xs.withLatestFrom(f.ys) { "\($0)\($1)" } }
        #expect(res.events == [
            .next(260, "4bar"), .next(310, "5bar"), .next(340, "6foo"), .next(410, "7qux"), .next(420, "8qux"),
            .next(470, "9qux"), .next(550, "10qux"), .completed(590),
        ])
        #expect(f.xs.subscriptions == [Subscription(200, 590)])
        #expect(f.ys.subscriptions == [Subscription(200, 400)])
    }

    @Test("without a selector, the second source's latest element")
    func withoutSelector() {
        let f = Fixture()
        let res = f.scheduler.start { f.xs.withLatestFrom(f.ys) }
        #expect(res.events == [
            .next(260, "bar"), .next(310, "bar"), .next(340, "foo"), .next(410, "qux"), .next(420, "qux"),
            .next(470, "qux"), .next(550, "qux"), .completed(590),
        ])
    }

    @Test("an error of the first source ends it")
    func firstErrors() {
        let f = Fixture(xsTerminal: .error(590, testError))
        let res = f.scheduler.start { f.xs.withLatestFrom(f.ys) { "\($0)\($1)" } }
        #expect(res.events.last == .error(590, testError))
        #expect(f.xs.subscriptions == [Subscription(200, 590)])
    }

    @Test("an error of the second source ends it")
    func secondErrors() {
        let f = Fixture(ysTerminal: .error(400, testError))
        let res = f.scheduler.start { f.xs.withLatestFrom(f.ys) { "\($0)\($1)" } }
        #expect(res.events == [.next(260, "4bar"), .next(310, "5bar"), .next(340, "6foo"), .error(400, testError)])
        #expect(f.xs.subscriptions == [Subscription(200, 400)])
        #expect(f.ys.subscriptions == [Subscription(200, 400)])
    }

    @Test("a throwing selector ends it")
    func selectorThrows() {
        let f = Fixture()
        let res = f.scheduler.start {
            f.xs.withLatestFrom(f.ys) { x, y throws -> String in
                if x == 5 { throw testError }
                return "\(x)\(y)"
            }
        }
        #expect(res.events == [.next(260, "4bar"), .error(310, testError)])
        #expect(f.xs.subscriptions == [Subscription(200, 310)])
        #expect(f.ys.subscriptions == [Subscription(200, 310)])
    }

    @Test("disposal before completion")
    func disposed() {
        let f = Fixture()
        let res = f.scheduler.start(disposed: 345) { f.xs.withLatestFrom(f.ys) { "\($0)\($1)" } }
        #expect(res.events == [.next(260, "4bar"), .next(310, "5bar"), .next(340, "6foo")])
        #expect(f.xs.subscriptions == [Subscription(200, 345)])
        #expect(f.ys.subscriptions == [Subscription(200, 345)])
    }

    @Test("the second source is subscribed first, so a synchronous one is already there")
    func secondSubscribedFirst() {
        var received: [String] = []
        _ = Observable.of(1, 2).withLatestFrom(Observable.just("a")) { "\($0)\($1)" }
            .subscribe(onNext: { received.append($0) })
        #expect(received == ["1a", "2a"])
        var order: [String] = []
        _ = Observable<Int>.create { observer in
            order.append("first")
            observer.onCompleted()
            return Disposables.create()
        }.withLatestFrom(Observable<Int>.create { _ in
            order.append("second")
            return Disposables.create()
        }).subscribe()
        #expect(order == ["second", "first"])
    }

    @Test("cold sources")
    func coldSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .next(20, 2), .next(40, 3), .completed(50)])
        let ys = scheduler.createColdObservable([.next(10, "a"), .next(30, "b"), .completed(35)])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        #expect(res.events == [.next(220, "2a"), .next(240, "3b"), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(ys.subscriptions == [Subscription(200, 235)])
    }
}
