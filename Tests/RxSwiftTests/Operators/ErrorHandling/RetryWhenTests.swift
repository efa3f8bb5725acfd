import Dispatch
import Foundation
import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

/// A type of its own: the trigger of `ignoresDifferentErrorTypes` takes errors of a
/// type the source never sends, which no value of `TestError` can stand for.
private struct OtherError: Error {}

@Suite("retry(when:)", .rxLeakCheck)
struct RetryWhenTests {
    @Test("a trigger that completes before any error does not end a source that completes")
    func never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let res = scheduler.start(disposed: 300) {
            xs.retry { (_: Observable<TestError>) in empty }
        }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test("a silent trigger leaves the result open after an error")
    func observableNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .error(250, testError),
        ])
        let never = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.retry { (_: Observable<TestError>) in never } }
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test("a source that completes completes the result")
    func observableNeverComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
        ])
        let never = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.retry { (_: Observable<TestError>) in never } }
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test("a cold source that completes, with an already completed trigger")
    func observableEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(100, 1), .next(150, 2), .next(200, 3), .completed(250)])
        let empty = scheduler.createHotObservable([.next(150, 0), .completed(0)])
        let res = scheduler.start { xs.retry { (_: Observable<TestError>) in empty } }
        #expect(res.events == [.next(300, 1), .next(350, 2), .next(400, 3), .completed(450)])
        #expect(xs.subscriptions == [Subscription(200, 450)])
    }

    @Test("the trigger's error ends the result; each of its elements retries first")
    func observableNextError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, testError), .completed(40)])
        let res = scheduler.start(disposed: 300) {
            xs.retry { (errors: Observable<TestError>) in
                let count = LockedBox(0)
                return errors.map { _ -> Int in
                    let attempt = count.withLock { value -> Int in
                        value += 1
                        return value
                    }
                    if attempt == 2 { throw TestError(code: 2) }
                    return attempt
                }
            }
        }
        #expect(res.events == [.next(210, 1), .next(220, 2), .next(240, 1), .next(250, 2), .error(260, TestError(code: 2))])
        #expect(xs.subscriptions == [Subscription(200, 230), Subscription(230, 260)])
    }

    @Test("the trigger's completion, at the time of the error, completes the result")
    func observableComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, testError), .completed(40)])
        let empty = scheduler.createHotObservable([.next(150, 1), .completed(230)])
        let res = scheduler.start { xs.retry { (_: Observable<TestError>) in empty.asObservable() } }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test("a trigger that completes after some retries completes the result")
    func observableNextComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, testError), .completed(40)])
        let res = scheduler.start(disposed: 300) {
            xs.retry { (errors: Observable<TestError>) in
                // Retries once, then completes: the shape of `scan` + `takeWhile`.
                Observable<Int>.create { observer in
                    let count = LockedBox(0)
                    return errors.subscribe(onNext: { _ in
                        let attempt = count.withLock { value -> Int in
                            value += 1
                            return value
                        }
                        if attempt < 2 { observer.onNext(attempt) } else { observer.onCompleted() }
                    })
                }
            }
        }
        #expect(res.events == [.next(210, 1), .next(220, 2), .next(240, 1), .next(250, 2), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 230), Subscription(230, 260)])
    }

    @Test("a trigger that never sends leaves the result open")
    func observableInfinite() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, testError), .completed(40)])
        let never = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.retry { (_: Observable<TestError>) in never } }
        #expect(res.events == [.next(210, 1), .next(220, 2)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test("incremental back-off with timers, then the error once the attempts run out")
    func incrementalBackOff() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(10, testError)])
        let maxAttempts = 4
        let res = scheduler.start(disposed: 800) {
            xs.retry { (errors: Observable<Swift.Error>) in
                Observable<Int>.create { observer in
                    let attempts = LockedBox(0)
                    let timers = CompositeDisposable()
                    let subscription = errors.subscribe(onNext: { error in
                        let attempt = attempts.withLock { value -> Int in
                            defer { value += 1 }
                            return value
                        }
                        if attempt >= maxAttempts - 1 {
                            observer.onError(error)
                            return
                        }
                        timers.insert(Observable<Int>.timer(.seconds((attempt + 1) * 50), scheduler: scheduler)
                            .subscribe(onNext: { observer.onNext($0) }))
                    })
                    return Disposables.create(subscription, timers)
                }
            }
        }
        #expect(res.events == [.next(205, 1), .next(265, 1), .next(375, 1), .next(535, 1), .error(540, testError)])
        #expect(xs.subscriptions == [
            Subscription(200, 210), Subscription(260, 270), Subscription(370, 380), Subscription(530, 540),
        ])
    }

    @Test("an error of another type than the trigger's ends the result")
    func ignoresDifferentErrorTypes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(10, testError)])
        let res = scheduler.start(disposed: 800) {
            xs.retry { (errors: Observable<OtherError>) in errors }
        }
        #expect(res.events == [.next(205, 1), .error(210, testError)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test("the errors themselves as trigger: a source failing synchronously is retried in a loop")
    func synchronousFailures() throws {
        let attempts = LockedBox(0)
        let failing = Observable<Int>.create { observer in
            let attempt = attempts.withLock { value -> Int in
                value += 1
                return value
            }
            observer.onNext(attempt)
            if attempt < 20_000 {
                observer.onError(testError)
            } else {
                observer.onCompleted()
            }
            return Disposables.create()
        }
        let values = try failing.retry { (errors: Observable<Swift.Error>) in errors }.toBlocking(timeout: 30).toArray()
        #expect(values.count == 20_000)
        #expect(values.last == 20_000)
    }

    @Test("the tail of a source that failed synchronously is ignored", .rxLeakCheck(.leaksOnly))
    func tailAfterSynchronousError() {
        let count = LockedBox(1)
        let source = Observable<Int>.create { observer in
            observer.onNext(0)
            if count.value < 2 {
                observer.onError(testError)
                count.withLock { $0 += 1 }
            }
            observer.onNext(3)
            observer.onCompleted()
            return Disposables.create()
        }
        let received = LockedBox<[Event<Int>]>([])
        _ = source.retry { (errors: Observable<Swift.Error>) in errors }
            .subscribe { event in received.withLock { $0.append(event) } }
        #expect(received.value == [.next(0), .next(0), .next(3), .completed])
    }

    @Test("the handler runs once per subscription")
    func handlerPerSubscription() throws {
        let calls = LockedBox(0)
        let retried = Observable<Int>.just(1).retry { (errors: Observable<Swift.Error>) -> Observable<Swift.Error> in
            calls.withLock { $0 += 1 }
            return errors
        }
        #expect(try retried.toBlocking().toArray() == [1])
        #expect(try retried.toBlocking().toArray() == [1])
        #expect(calls.value == 2)
    }

    @Test("disposal during the wait for the trigger unsubscribes from the trigger")
    func disposeWhileWaiting() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .error(10, testError)])
        let trigger = scheduler.createHotObservable([.next(300, 0)])
        let res = scheduler.start(disposed: 250) {
            xs.retry { (_: Observable<Swift.Error>) in trigger }
        }
        #expect(res.events == [.next(205, 1)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(trigger.subscriptions == [Subscription(200, 250)])
    }
}
