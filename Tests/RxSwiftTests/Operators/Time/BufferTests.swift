import Dispatch
import Foundation
import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

@Suite("buffer(timeSpan:count:scheduler:)", .rxLeakCheck)
struct BufferTests {
    private func hotSource(_ scheduler: TestScheduler, ending end: Recorded<Event<Int>>) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5),
            .next(350, 6), .next(370, 7), .next(420, 8), .next(470, 9), end,
        ])
    }

    @Test("arrays close on count or time span; the last one goes out with the completion")
    func basic() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler, ending: .completed(600))
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        #expect(res.events == [
            .next(240, [1, 2, 3]),
            .next(310, [4]),
            .next(370, [5, 6, 7]),
            .next(440, [8]),
            .next(510, [9]),
            .next(580, []),
            .next(600, []),
            .completed(600),
        ])
        #expect(xs.subscriptions == [Subscription(200, 600)])
    }

    @Test("an error drops the current array")
    func error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler, ending: .error(600, testError))
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        #expect(res.events == [
            .next(240, [1, 2, 3]),
            .next(310, [4]),
            .next(370, [5, 6, 7]),
            .next(440, [8]),
            .next(510, [9]),
            .next(580, []),
            .error(600, testError),
        ])
        #expect(xs.subscriptions == [Subscription(200, 600)])
    }

    @Test("disposal stops the arrays and unsubscribes")
    func disposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler, ending: .completed(600))
        let res = scheduler.start(disposed: 370) { xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler) }
        #expect(res.events == [
            .next(240, [1, 2, 3]),
            .next(310, [4]),
            .next(370, [5, 6, 7]),
        ])
        #expect(xs.subscriptions == [Subscription(200, 370)])
    }

    @Test("a cold source: the time span restarts whenever an array closes")
    func coldSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([
            .next(5, 1), .next(10, 2), .next(15, 3), .next(50, 4), .completed(100),
        ])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(30), count: 3, scheduler: scheduler) }
        #expect(res.events == [
            .next(215, [1, 2, 3]),
            .next(245, []),
            .next(275, [4]),
            .next(300, []),
            .completed(300),
        ])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test("with no count limit, only time closes the arrays (the completion at 400 comes before the timer of 400)")
    func noCountLimit() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = hotSource(scheduler, ending: .completed(400))
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(100), count: 0, scheduler: scheduler) }
        #expect(res.events == [
            .next(300, [1, 2, 3, 4]),
            .next(400, [5, 6, 7]),
            .completed(400),
        ])
    }

    @Test("on a dispatch queue scheduler the count closes the arrays")
    func realScheduler() throws {
        let scheduler = SerialDispatchQueueScheduler(qos: .default)
        let arrays = try Observable.range(start: 1, count: 10, scheduler: scheduler)
            .buffer(timeSpan: .seconds(1000), count: 3, scheduler: scheduler)
            .toBlocking(timeout: 5)
            .toArray()
        #expect(arrays == [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10]])
    }

    @Test("the pending timer is disposed with the subscription")
    func timerDisposedWithSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let subscription = subject.buffer(timeSpan: .seconds(10), count: 3, scheduler: scheduler).subscribe { _ in }
        #expect(scheduler.pendingCount == 1)
        #expect(subject.hasObservers)
        subscription.dispose()
        #expect(scheduler.pendingCount == 0)
        #expect(!subject.hasObservers)
    }

    @Test("several threads emitting: every element arrives once, in arrays of at most count, with the grammar kept")
    func concurrentEmitters() {
        let subject = PublishSubject<Int>()
        let observer = GrammarCheckingObserver<[Int]>()
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let subscription = subject.buffer(timeSpan: .milliseconds(1), count: 7, scheduler: scheduler).subscribe(observer)
        defer { subscription.dispose() }
        let threads = 4, perThread = 2_000
        #expect(runConcurrently(threads: threads) { index in
            for value in 0..<perThread { subject.onNext(index * perThread + value) }
        })
        subject.onCompleted()
        #expect(observer.waitForTerminal())
        let arrays = observer.elements
        #expect(arrays.allSatisfy { $0.count <= 7 })
        #expect(arrays.flatMap { $0 }.sorted() == Array(0..<(threads * perThread)))
        #expect(observer.overlaps == 0)
        #expect(observer.terminals == 1)
        #expect(observer.eventsAfterTerminal == 0)
    }
}
