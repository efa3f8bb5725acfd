import Dispatch
import Foundation
import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

@Suite("window(timeSpan:count:scheduler:)", .rxLeakCheck)
struct WindowTests {
    private func hotSource(_ scheduler: TestScheduler, ending end: Recorded<Event<Int>>) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(105, 0), .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5),
            .next(350, 6), .next(370, 7), .next(420, 8), .next(470, 9), end,
        ])
    }

    /// Subscribes at 200 and disposes everything at `disposed`, like `start`.
    private func run(
        _ scheduler: TestScheduler, disposed: TestTime = 1000,
        _ windows: @escaping () -> Observable<Observable<Int>>
    ) -> TestableObserver<String> {
        let recorder = WindowRecorder(scheduler: scheduler)
        scheduler.scheduleAt(200) { recorder.subscribe(windows()) }
        scheduler.scheduleAt(disposed) { recorder.dispose() }
        scheduler.start()
        return recorder.observer
    }

    @Test("windows close on count or time span")
    func basic() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler, ending: .completed(600))
        let res = run(scheduler) { xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        #expect(res.events == [
            .next(205, "0 1"), .next(210, "0 2"), .next(240, "0 3"),
            .next(280, "1 4"),
            .next(320, "2 5"), .next(350, "2 6"), .next(370, "2 7"),
            .next(420, "3 8"),
            .next(470, "4 9"),
            .completed(600),
        ])
        #expect(xs.subscriptions == [Subscription(200, 600)])
    }

    @Test("an error reaches the open window and the result")
    func error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler, ending: .error(600, testError))
        let res = run(scheduler) { xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        #expect(res.events == [
            .next(205, "0 1"), .next(210, "0 2"), .next(240, "0 3"),
            .next(280, "1 4"),
            .next(320, "2 5"), .next(350, "2 6"), .next(370, "2 7"),
            .next(420, "3 8"),
            .next(470, "4 9"),
            .error(600, testError),
        ])
        #expect(xs.subscriptions == [Subscription(200, 600)])
    }

    @Test("disposing the result and the windows unsubscribes")
    func disposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler, ending: .completed(600))
        let res = run(scheduler, disposed: 370) { xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        #expect(res.events == [
            .next(205, "0 1"), .next(210, "0 2"), .next(240, "0 3"),
            .next(280, "1 4"),
            .next(320, "2 5"), .next(350, "2 6"), .next(370, "2 7"),
        ])
        #expect(xs.subscriptions == [Subscription(200, 370)])
    }

    @Test("the windows are sent at subscription, on count and on time span")
    func windowTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler, ending: .completed(600))
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler).map { _ in "window" }
        }
        #expect(res.events.map(\.time) == [200, 240, 310, 370, 440, 510, 580, 600])
        #expect(res.events.last == .completed(600))
    }

    @Test("a subscribed window keeps the source subscribed after the result is disposed")
    func windowKeepsSourceAlive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler, ending: .completed(600))
        let inner = scheduler.createObserver(Int.self)
        let state = LockedBox<(outer: Disposable?, inner: Disposable?)>((nil, nil))
        scheduler.scheduleAt(200) {
            let outer = xs.window(timeSpan: .seconds(1000), count: 100, scheduler: scheduler).subscribe(onNext: { window in
                state.value.inner = window.subscribe(inner)
            })
            state.value.outer = outer
        }
        scheduler.scheduleAt(215) { state.value.outer?.dispose() }
        scheduler.scheduleAt(300) { state.value.inner?.dispose() }
        scheduler.start()
        #expect(inner.events == [.next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test("with no window subscribed, disposing the result unsubscribes at once")
    func disposedWithoutWindows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler, ending: .completed(600))
        let res = scheduler.start(disposed: 250) {
            xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler).map { _ in 0 }
        }
        #expect(res.events == [.next(200, 0), .next(240, 0)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test("the pending timer is disposed with the subscription")
    func timerDisposedWithSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let subscription = subject.window(timeSpan: .seconds(10), count: 3, scheduler: scheduler).subscribe { _ in }
        #expect(scheduler.pendingCount == 1)
        subscription.dispose()
        #expect(scheduler.pendingCount == 0)
        #expect(!subject.hasObservers)
    }

    @Test("several threads emitting: every element reaches exactly one window")
    func concurrentEmitters() {
        let subject = PublishSubject<Int>()
        let received = LockedBox<[Int]>([])
        let windowCount = LockedBox(0)
        let observer = GrammarCheckingObserver<Observable<Int>>()
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let bag = CompositeDisposable()
        bag.insert(subject.window(timeSpan: .milliseconds(1), count: 5, scheduler: scheduler)
            .map { window -> Observable<Int> in
                windowCount.withLock { $0 += 1 }
                bag.insert(window.subscribe(onNext: { value in received.withLock { $0.append(value) } }))
                return window
            }
            .subscribe(observer))
        defer { bag.dispose() }
        let threads = 4, perThread = 1_000
        #expect(runConcurrently(threads: threads) { index in
            for value in 0..<perThread { subject.onNext(index * perThread + value) }
        })
        subject.onCompleted()
        #expect(observer.waitForTerminal())
        #expect(received.value.sorted() == Array(0..<(threads * perThread)))
        #expect(windowCount.value >= threads * perThread / 5)
        #expect(observer.overlaps == 0)
        #expect(observer.terminals == 1)
        #expect(observer.eventsAfterTerminal == 0)
    }
}
