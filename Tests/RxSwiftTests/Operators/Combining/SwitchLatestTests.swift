import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

@Suite("switchLatest and flatMapLatest", .rxLeakCheck)
struct SwitchLatestTests {
    private struct Fixture {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1: TestableObservable<Int>
        let ys2: TestableObservable<Int>
        let ys3: TestableObservable<Int>

        init(secondEnd: Recorded<Event<Int>> = .completed(50)) {
            ys1 = scheduler.createColdObservable([
                .next(10, 101), .next(20, 102), .next(110, 103), .next(120, 104), .next(210, 105), .next(220, 106), .completed(230),
            ])
            ys2 = scheduler.createColdObservable([.next(10, 201), .next(20, 202), .next(30, 203), .next(40, 204), secondEnd])
            ys3 = scheduler.createColdObservable([.next(10, 301), .next(20, 302), .next(30, 303), .next(40, 304), .completed(150)])
        }
    }

    /// Both operators over the same fixture: switchLatest of the sequences themselves, or
    /// flatMapLatest of their indexes.
    enum Form: CaseIterable, Sendable { case switchLatest, flatMapLatest }

    private func run(
        _ form: Form, _ f: Fixture, outer: [Recorded<Event<Int>>], disposed: TestTime = 1000
    ) -> (TestableObserver<Int>, TestableObservable<Int>, TestableObservable<TestableObservable<Int>>) {
        let sequences = [f.ys1, f.ys2, f.ys3]
        let indexes = f.scheduler.createHotObservable(outer)
        let observables = f.scheduler.createHotObservable(outer.map { recorded in
            Recorded(time: recorded.time, value: recorded.value.map { sequences[$0] })
        })
        let res = f.scheduler.start(disposed: disposed) { () -> Observable<Int> in
            switch form {
            case .switchLatest: observables.switchLatest()
            case .flatMapLatest: indexes.flatMapLatest { sequences[$0] }
            }
        }
        return (res, indexes, observables)
    }

    @Test("each new inner sequence replaces the previous one", arguments: Form.allCases)
    func data(form: Form) {
        let f = Fixture()
        let (res, indexes, observables) = run(form, f, outer: [.next(300, 0), .next(400, 1), .next(500, 2), .completed(600)])
        #expect(res.events == [
            .next(310, 101), .next(320, 102), .next(410, 201), .next(420, 202), .next(430, 203), .next(440, 204),
            .next(510, 301), .next(520, 302), .next(530, 303), .next(540, 304), .completed(650),
        ])
        let outerSubscriptions = form == .switchLatest ? observables.subscriptions : indexes.subscriptions
        #expect(outerSubscriptions == [Subscription(200, 600)])
        #expect(f.ys1.subscriptions == [Subscription(300, 400)])
        #expect(f.ys2.subscriptions == [Subscription(400, 450)])
        #expect(f.ys3.subscriptions == [Subscription(500, 650)])
    }

    @Test("an error of the latest inner sequence ends it", arguments: Form.allCases)
    func innerThrows(form: Form) {
        let f = Fixture(secondEnd: .error(50, testError))
        let (res, _, _) = run(form, f, outer: [.next(300, 0), .next(400, 1), .next(500, 2), .completed(600)])
        #expect(res.events == [
            .next(310, 101), .next(320, 102), .next(410, 201), .next(420, 202), .next(430, 203), .next(440, 204),
            .error(450, testError),
        ])
        #expect(f.ys1.subscriptions == [Subscription(300, 400)])
        #expect(f.ys2.subscriptions == [Subscription(400, 450)])
        #expect(f.ys3.subscriptions == [])
    }

    @Test("an outer error ends it", arguments: Form.allCases)
    func outerThrows(form: Form) {
        let f = Fixture()
        let (res, _, _) = run(form, f, outer: [.next(300, 0), .next(400, 1), .error(500, testError)])
        #expect(res.events == [
            .next(310, 101), .next(320, 102), .next(410, 201), .next(420, 202), .next(430, 203), .next(440, 204),
            .error(500, testError),
        ])
        #expect(f.ys1.subscriptions == [Subscription(300, 400)])
        #expect(f.ys2.subscriptions == [Subscription(400, 450)])
    }

    @Test("the outer completing first waits for the latest inner", arguments: Form.allCases)
    func outerCompletesFirst(form: Form) {
        let f = Fixture()
        let (res, _, _) = run(form, f, outer: [.next(300, 0), .completed(350)])
        #expect(res.events == [
            .next(310, 101), .next(320, 102), .next(410, 103), .next(420, 104), .next(510, 105), .next(520, 106),
            .completed(530),
        ])
        #expect(f.ys1.subscriptions == [Subscription(300, 530)])
    }

    @Test("an outer that completes without elements completes at once", arguments: Form.allCases)
    func outerEmpty(form: Form) {
        let f = Fixture()
        let (res, _, _) = run(form, f, outer: [.completed(250)])
        #expect(res.events == [.completed(250)])
    }

    @Test("disposal disposes the outer and the latest inner", arguments: Form.allCases)
    func disposed(form: Form) {
        let f = Fixture()
        let (res, _, _) = run(form, f, outer: [.next(300, 0), .next(400, 1), .completed(600)], disposed: 425)
        #expect(res.events == [.next(310, 101), .next(320, 102), .next(410, 201), .next(420, 202)])
        #expect(f.ys1.subscriptions == [Subscription(300, 400)])
        #expect(f.ys2.subscriptions == [Subscription(400, 425)])
    }

    @Test("a throwing selector ends it")
    func selectorThrows() {
        let f = Fixture()
        let xs = f.scheduler.createHotObservable([.next(300, 0), .next(400, 1)])
        let observables = [f.ys1, f.ys2]
        let res = f.scheduler.start {
            xs.flatMapLatest { x throws -> TestableObservable<Int> in
                if x < 1 { return observables[x] }
                throw testError
            }
        }
        #expect(res.events == [.next(310, 101), .next(320, 102), .error(400, testError)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(f.ys1.subscriptions == [Subscription(300, 400)])
        #expect(f.ys2.subscriptions == [])
    }

    @Test("synchronous inner sequences")
    func synchronousInners() throws {
        // `of` emits one element per trampoline turn, as in RxSwift: each inner sequence
        // gets out its first element before the outer one's next element switches away
        // from it; only the last inner sequence gets out its second.
        let values = try Observable.of(1, 2, 3).flatMapLatest { Observable.of($0, $0 * 10) }.toBlocking(timeout: 5).toArray()
        #expect(values == [1, 2, 3, 30])
        let immediate = try Observable.of(1, 2, 3).flatMapLatest { Observable.just($0) }.toBlocking(timeout: 5).toArray()
        #expect(immediate == [1, 2, 3])
        let just = try Observable.of(Observable.just(7)).switchLatest().toBlocking(timeout: 5).toArray()
        #expect(just == [7])
    }

    @Test("an element fed back while delivering is delivered after, not inside")
    func reentrantEmission() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var depth = 0
        var maxDepth = 0
        let subscription = subject.flatMapLatest { Observable.just($0) }
            .subscribe(onNext: { value in
                depth += 1
                maxDepth = max(maxDepth, depth)
                received.append(value)
                if value < 3 { subject.onNext(value + 1) }
                depth -= 1
            })
        subject.onNext(1)
        #expect(received == [1, 2, 3])
        #expect(maxDepth == 1)
        subscription.dispose()
    }
}
