import RivuletTestSupport
import RxCocoa
import RxSwift
import RxTest
import Testing

/// `Signal.withUnretained`, which RxSwift offers on `Signal` only (on `Driver` it is
/// unavailable: the replayed pair would keep the object alive).
@Suite("Signal.withUnretained", .rxLeakCheck)
struct SignalWithUnretainedTests {
    @Test("pairs every element with the object while it lives, then completes at the next element")
    func completesOnceTheObjectIsGone() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .next(250, 4), .completed(300)])
        var owner: Owner? = Owner(name: "a")
        weak let released = owner
        let res = mocked(scheduler) {
            let signal = xs.asSignal(onErrorJustReturn: 0)
            scheduler.scheduleAt(230) { owner = nil }
            return scheduler.start { signal.withUnretained(owner!) { "\($0.name)\($1)" } }
        }
        #expect(res.events == [.next(210, "a1"), .next(220, "a2"), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(released == nil)
    }

    /// Records the tuple form over `xs`, subscribed at 200 and disposed at `disposed`, each
    /// pair written as the owner's name and the element.
    private func tupleForm(_ scheduler: TestScheduler, _ xs: TestableObservable<Int>, disposed: TestTime) -> [Recorded<Event<String>>] {
        let owner = Owner(name: "b")
        return mocked(scheduler) {
            let signal = xs.asSignal(onErrorJustReturn: 0)
            return scheduler.start(disposed: disposed) { signal.withUnretained(owner).map { "\($0.0.name)\($0.1)" } }
        }.events
    }

    @Test("the tuple form, with the source's completion")
    func tupleFormCompletes() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        #expect(tupleForm(scheduler, xs, disposed: 1000) == [.next(210, "b1"), .next(220, "b2"), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test("disposal before the end unsubscribes from the source")
    func disposedEarly() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        #expect(tupleForm(scheduler, xs, disposed: 215) == [.next(210, "b1")])
        #expect(xs.subscriptions == [Subscription(200, 215)])
    }

    @Test("the result is a signal: shared, nothing replayed to a later observer")
    func sharedWithoutReplay() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let owner = Owner(name: "d")
        let early = scheduler.createObserver(String.self)
        let late = scheduler.createObserver(String.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let paired: Signal<String> = xs.asSignal(onErrorJustReturn: 0).withUnretained(owner) { "\($0.name)\($1)" }
            scheduler.scheduleAt(200) { _ = paired.emit(to: early) }
            scheduler.scheduleAt(220) { _ = paired.emit(to: late) }
        }
        scheduler.start()
        #expect(early.events == [.next(210, "d1"), .next(230, "d2"), .completed(300)])
        #expect(late.events == [.next(230, "d2"), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }
}
