import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("sample(_:defaultValue:)", .rxLeakCheck)
struct SampleTests {
    private func source(_ scheduler: TestScheduler, _ tail: [Recorded<Event<Int>>]) -> TestableObservable<Int> {
        scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4)] + tail)
    }

    private func sampler(_ scheduler: TestScheduler, _ tail: [Recorded<Event<String>>]) -> TestableObservable<String> {
        scheduler.createHotObservable([.next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux")] + tail)
    }

    @Test("each tick sends the latest new element; the completion waits for a tick")
    func simple1() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(300, 5), .next(310, 6), .completed(400)])
        let ys = sampler(scheduler, [.next(320, "baz"), .completed(500)])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .next(320, 6), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(ys.subscriptions == [Subscription(200, 500)])
    }

    @Test("the sampler's completion is a last tick")
    func simple2() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(300, 5), .next(310, 6), .next(360, 7), .completed(400)])
        let ys = sampler(scheduler, [.next(320, "baz"), .completed(500)])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .next(320, 6), .next(500, 7), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(ys.subscriptions == [Subscription(200, 500)])
    }

    @Test("a tick after the source completed sends the pending element and completes")
    func simple3() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.completed(300)])
        let ys = sampler(scheduler, [.next(320, "baz"), .completed(500)])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .next(320, 4), .completed(320)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(200, 320)])
    }

    @Test("with a default value every tick sends something")
    func defaultValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(300, 5), .next(310, 6), .completed(400)])
        let ys = sampler(scheduler, [.next(320, "baz"), .completed(500)])
        let res = scheduler.start { xs.sample(ys, defaultValue: 0) }
        #expect(res.events == [
            .next(210, 0), .next(250, 3), .next(260, 0), .next(320, 6), .next(500, 0), .completed(500),
        ])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(ys.subscriptions == [Subscription(200, 500)])
    }

    @Test("an error of the sampler ends the result")
    func samplerThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(300, 5), .next(310, 6), .completed(400)])
        let ys = sampler(scheduler, [.error(320, testError)])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .error(320, testError)])
        #expect(xs.subscriptions == [Subscription(200, 320)])
        #expect(ys.subscriptions == [Subscription(200, 320)])
    }

    @Test("an error of the source ends the result")
    func sourceThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(300, 5), .next(310, 6), .error(320, testError)])
        let ys: TestableObservable<String> = scheduler.createHotObservable([
            .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(300, "baz"), .completed(400),
        ])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .next(300, 5), .error(320, testError)])
        #expect(xs.subscriptions == [Subscription(200, 320)])
        #expect(ys.subscriptions == [Subscription(200, 320)])
    }

    @Test("disposal unsubscribes from both")
    func disposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(300, 5), .next(310, 6), .completed(400)])
        let ys = sampler(scheduler, [.next(320, "baz"), .completed(500)])
        let res = scheduler.start(disposed: 255) { xs.sample(ys, defaultValue: -1) }
        #expect(res.events == [.next(210, -1), .next(250, 3)])
        #expect(xs.subscriptions == [Subscription(200, 255)])
        #expect(ys.subscriptions == [Subscription(200, 255)])
    }

    @Test("several threads feeding the source while another ticks: one delivery at a time")
    func concurrentEmitters() {
        let source = PublishSubject<Int>()
        let ticks = PublishSubject<Void>()
        let observer = GrammarCheckingObserver<Int>()
        let subscription = source.sample(ticks).subscribe(observer)
        defer { subscription.dispose() }
        #expect(runConcurrently(threads: 4) { index in
            if index == 0 {
                for _ in 0..<2_000 { ticks.onNext(()) }
            } else {
                for value in 0..<2_000 { source.onNext(index * 2_000 + value) }
            }
        })
        source.onNext(-1)
        source.onCompleted()
        ticks.onNext(())
        #expect(observer.waitForTerminal())
        #expect(observer.elements.last == -1)
        #expect(observer.overlaps == 0)
        #expect(observer.terminals == 1)
        #expect(observer.eventsAfterTerminal == 0)
    }
}
