import Dispatch
import Foundation
import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

@Suite("catch(_:) and catchAndReturn(_:)", .rxLeakCheck)
struct CatchTests {
    @Test("the handler's sequence follows the error")
    func caught() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .error(230, testError)])
        let o2 = scheduler.createHotObservable([.next(240, 4), .completed(250)])
        let handlerCalledAt = LockedBox<Int?>(nil)
        let res = scheduler.start {
            o1.catch { error in
                #expect(error as? TestError == testError)
                handlerCalledAt.value = scheduler.clock
                return o2.asObservable()
            }
        }
        #expect(handlerCalledAt.value == 230)
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(240, 4), .completed(250)])
        #expect(o1.subscriptions == [Subscription(200, 230)])
        #expect(o2.subscriptions == [Subscription(230, 250)])
    }

    @Test("a handler that throws ends the sequence with its error")
    func handlerThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .error(230, testError)])
        let res = scheduler.start {
            o1.catch { _ in throw TestError(code: 2) }
        }
        #expect(res.events == [.next(210, 2), .next(220, 3), .error(230, TestError(code: 2))])
        #expect(o1.subscriptions == [Subscription(200, 230)])
    }

    @Test("completion and no error: the handler is never called")
    func noError() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(210, 2), .completed(230)])
        let calls = LockedBox(0)
        let res = scheduler.start {
            o1.catch { _ in
                calls.withLock { $0 += 1 }
                return .empty()
            }
        }
        #expect(res.events == [.next(210, 2), .completed(230)])
        #expect(calls.value == 0)
    }

    @Test("the handler's sequence can fail too")
    func fallbackFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(210, 2), .error(230, testError)])
        let o2: TestableObservable<Int> = scheduler.createColdObservable([.next(5, 7), .error(10, TestError(code: 2))])
        let res = scheduler.start { o1.catch { _ in o2.asObservable() } }
        #expect(res.events == [.next(210, 2), .next(235, 7), .error(240, TestError(code: 2))])
        #expect(o2.subscriptions == [Subscription(230, 240)])
    }

    @Test("disposal reaches the handler's sequence")
    func disposeFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(210, 2), .error(230, testError)])
        let o2: TestableObservable<Int> = scheduler.createColdObservable([.next(5, 7), .next(50, 8)])
        let res = scheduler.start(disposed: 260) { o1.catch { _ in o2.asObservable() } }
        #expect(res.events == [.next(210, 2), .next(235, 7)])
        #expect(o1.subscriptions == [Subscription(200, 230)])
        #expect(o2.subscriptions == [Subscription(230, 260)])
    }

    @Test("catchAndReturn ends with the element instead of the error")
    func catchAndReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .error(230, testError)])
        let res = scheduler.start { o1.catchAndReturn(-1) }
        #expect(res.events == [.next(210, 2), .next(230, -1), .completed(230)])
        #expect(o1.subscriptions == [Subscription(200, 230)])
    }

    @Test("catchAndReturn on a synchronous failure")
    func catchAndReturnSynchronous() throws {
        #expect(try Observable<Int>.error(testError).catchAndReturn(5).toBlocking().toArray() == [5])
        #expect(try Observable.of(1, 2).catchAndReturn(5).toBlocking().toArray() == [1, 2])
    }
}

@Suite("catch(sequence:)", .rxLeakCheck)
struct CatchSequenceTests {
    @Test("each failing source is followed by the next one")
    func errorErrorComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3), .error(40, testError)])
        let xs2 = scheduler.createColdObservable([.next(10, 4), .next(20, 5), .error(30, testError)])
        let xs3 = scheduler.createColdObservable([.next(10, 6), .next(20, 7), .next(30, 8), .next(40, 9), .completed(50)])
        let res = scheduler.start {
            Observable.catch(sequence: [xs1.asObservable(), xs2.asObservable(), xs3.asObservable()])
        }
        #expect(res.events == [
            .next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4), .next(260, 5),
            .next(280, 6), .next(290, 7), .next(300, 8), .next(310, 9), .completed(320),
        ])
        #expect(xs1.subscriptions == [Subscription(200, 240)])
        #expect(xs2.subscriptions == [Subscription(240, 270)])
        #expect(xs3.subscriptions == [Subscription(270, 320)])
    }

    @Test("a source that completes ends the whole")
    func noErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(230)])
        let xs2 = scheduler.createHotObservable([.next(240, 4), .completed(250)])
        let res = scheduler.start { Observable.catch(sequence: [xs1, xs2].map { $0.asObservable() }) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(230)])
        #expect(xs1.subscriptions == [Subscription(200, 230)])
        #expect(xs2.subscriptions == [])
    }

    @Test("never, empty, and a second source that never ends")
    func neverEmptyErrorNever() {
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs1 = scheduler.createHotObservable([.next(150, 1)])
            let xs2 = scheduler.createHotObservable([.next(240, 4), .completed(250)])
            let res = scheduler.start { Observable.catch(sequence: [xs1, xs2].map { $0.asObservable() }) }
            #expect(res.events == [])
            #expect(xs1.subscriptions == [Subscription(200, 1000)])
            #expect(xs2.subscriptions == [])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs1 = scheduler.createHotObservable([.next(150, 1), .completed(230)])
            let xs2 = scheduler.createHotObservable([.next(240, 4), .completed(250)])
            let res = scheduler.start { Observable.catch(sequence: [xs1, xs2].map { $0.asObservable() }) }
            #expect(res.events == [.completed(230)])
            #expect(xs1.subscriptions == [Subscription(200, 230)])
            #expect(xs2.subscriptions == [])
        }
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .error(230, testError)])
            let xs2 = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { Observable.catch(sequence: [xs1, xs2].map { $0.asObservable() }) }
            #expect(res.events == [.next(210, 2), .next(220, 3)])
            #expect(xs1.subscriptions == [Subscription(200, 230)])
            #expect(xs2.subscriptions == [Subscription(230, 1000)])
        }
    }

    @Test("the last error ends the whole when every source fails")
    func errorError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .error(230, testError)])
        let xs2: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 1), .error(250, TestError(code: 2))])
        let res = scheduler.start { Observable.catch(sequence: [xs1, xs2].map { $0.asObservable() }) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .error(250, TestError(code: 2))])
        #expect(xs1.subscriptions == [Subscription(200, 230)])
        #expect(xs2.subscriptions == [Subscription(230, 250)])
    }

    @Test("three hot sources in a row")
    func multiple() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .error(215, testError)])
        let xs2 = scheduler.createHotObservable([.next(220, 3), .error(225, testError)])
        let xs3 = scheduler.createHotObservable([.next(230, 4), .completed(235)])
        let res = scheduler.start {
            Observable.catch(sequence: [xs1.asObservable(), xs2.asObservable(), xs3.asObservable()])
        }
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(230, 4), .completed(235)])
        #expect(xs1.subscriptions == [Subscription(200, 215)])
        #expect(xs2.subscriptions == [Subscription(215, 225)])
        #expect(xs3.subscriptions == [Subscription(225, 235)])
    }

    @Test("an empty sequence of sources completes at once")
    func noSources() throws {
        #expect(try Observable<Int>.catch(sequence: []).toBlocking().toArray() == [])
    }
}

@Suite("retry() and retry(_:)", .rxLeakCheck)
struct RetryTests {
    @Test("a source that completes is subscribed to once")
    func basic() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(100, 1), .next(150, 2), .next(200, 3), .completed(250)])
        let res = scheduler.start { xs.retry() }
        #expect(res.events == [.next(300, 1), .next(350, 2), .next(400, 3), .completed(450)])
        #expect(xs.subscriptions == [Subscription(200, 450)])
    }

    @Test("a source that never ends")
    func infinite() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(100, 1), .next(150, 2), .next(200, 3)])
        let res = scheduler.start { xs.retry() }
        #expect(res.events == [.next(300, 1), .next(350, 2), .next(400, 3)])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test("a failing source is subscribed to again at once, until disposal")
    func observableError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(100, 1), .next(150, 2), .next(200, 3), .error(250, testError)])
        let res = scheduler.start(disposed: 1100) { xs.retry() }
        #expect(res.events == [
            .next(300, 1), .next(350, 2), .next(400, 3),
            .next(550, 1), .next(600, 2), .next(650, 3),
            .next(800, 1), .next(850, 2), .next(900, 3),
            .next(1050, 1),
        ])
        #expect(xs.subscriptions == [
            Subscription(200, 450), Subscription(450, 700), Subscription(700, 950), Subscription(950, 1100),
        ])
    }

    @Test("retry(3) makes three attempts, then fails")
    func countBasic() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .next(10, 2), .next(15, 3), .error(20, testError)])
        let res = scheduler.start { xs.retry(3) }
        #expect(res.events == [
            .next(205, 1), .next(210, 2), .next(215, 3),
            .next(225, 1), .next(230, 2), .next(235, 3),
            .next(245, 1), .next(250, 2), .next(255, 3),
            .error(260, testError),
        ])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    @Test("retry(3) disposed during the second attempt")
    func countDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .next(10, 2), .next(15, 3), .error(20, testError)])
        let res = scheduler.start(disposed: 231) { xs.retry(3) }
        #expect(res.events == [.next(205, 1), .next(210, 2), .next(215, 3), .next(225, 1), .next(230, 2)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 231)])
    }

    @Test("retry(3) of a source that completes")
    func countCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(100, 1), .next(150, 2), .next(200, 3), .completed(250)])
        let res = scheduler.start { xs.retry(3) }
        #expect(res.events == [.next(300, 1), .next(350, 2), .next(400, 3), .completed(450)])
        #expect(xs.subscriptions == [Subscription(200, 450)])
    }

    @Test("a source that fails while being subscribed to loops instead of recursing")
    func synchronousFailures() throws {
        let attempts = LockedBox(0)
        let failing = Observable<Int>.create { observer in
            let attempt = attempts.withLock { value -> Int in
                value += 1
                return value
            }
            observer.onNext(attempt)
            if attempt < 50_000 {
                observer.onError(testError)
            } else {
                observer.onCompleted()
            }
            return Disposables.create()
        }
        let values = try failing.retry().toBlocking(timeout: 30).toArray()
        #expect(values.count == 50_000)
        #expect(values.last == 50_000)
        #expect(Observable<Int>.error(testError).retry(10_000).toBlocking().materialize().isFailure)
    }

    @Test("the tail of a source that failed synchronously is ignored", .rxLeakCheck(.leaksOnly))
    func tailAfterSynchronousError() {
        let count = LockedBox(1)
        let source = Observable<Int>.create { observer in
            observer.onNext(0)
            observer.onNext(1)
            if count.value < 2 {
                observer.onError(testError)
                count.withLock { $0 += 1 }
            }
            observer.onNext(3)
            observer.onCompleted()
            return Disposables.create()
        }
        let received = LockedBox<[Event<Int>]>([])
        _ = source.retry().subscribe { event in received.withLock { $0.append(event) } }
        #expect(received.value == [.next(0), .next(1), .next(0), .next(1), .next(3), .completed])
    }

    @Test("retry(0) completes without subscribing")
    func zeroAttempts() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.retry(0) }
        #expect(res.events == [.completed(200)])
        #expect(xs.subscriptions == [])
    }
}

extension MaterializedSequenceResult {
    fileprivate var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }
}
