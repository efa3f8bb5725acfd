import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing
@Suite("Single", .rxLeakCheck)
struct SingleTests {
    @Test("create: success at the scheduled time, then completion", .rxLeakCheck(.leaksOnly))
    func createSuccess() {
        let scheduler = TestScheduler(initialClock: 0)
        let disposed = LockedBox(false)
        let res = scheduler.start {
            Single<Int>.create { observer in
                let work = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                    observer(.success(1))
                    observer(.success(2))
                    observer(.failure(testError))
                    return Disposables.create()
                }
                return Disposables.create(work, Disposables.create { disposed.value = true })
            }
        }
        #expect(res.events == [.next(210, 1), .completed(210)])
        #expect(disposed.value)
    }

    @Test("create: failure")
    func createFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Single<Int>.create { observer in
                scheduler.scheduleRelative((), dueTime: .seconds(20)) { _ in
                    observer(.failure(testError))
                    return Disposables.create()
                }
            }
        }
        #expect(res.events == [.error(220, testError)])
    }

    @Test("create: disposal before the outcome disposes the body's disposable")
    func createDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let disposed = LockedBox(false)
        let res = scheduler.start(disposed: 205) {
            Single<Int>.create { observer in
                let work = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                    observer(.success(1))
                    return Disposables.create()
                }
                return Disposables.create(work, Disposables.create { disposed.value = true })
            }
        }
        #expect(res.events == [])
        #expect(disposed.value)
    }

    @Test("subscribe(onSuccess:onFailure:onDisposed:) calls success then disposed")
    func subscribeHandlers() {
        var log: [String] = []
        _ = Single.just(3).subscribe(
            onSuccess: { log.append("success \($0)") },
            onFailure: { log.append("failure \($0)") },
            onDisposed: { log.append("disposed") }
        )
        _ = Single<Int>.error(testError).subscribe(
            onSuccess: { log.append("success \($0)") },
            onFailure: { _ in log.append("failure") },
            onDisposed: { log.append("disposed") }
        )
        let never = Single<Int>.never().subscribe(onDisposed: { log.append("never disposed") })
        #expect(log == ["success 3", "disposed", "failure", "disposed"])
        never.dispose()
        #expect(log.last == "never disposed")
    }

    @Test("subscribe(_:) receives one SingleEvent")
    func subscribeResult() {
        var results: [String] = []
        _ = Single.just(1).subscribe { event in
            switch event {
            case .success(let value): results.append("success \(value)")
            case .failure: results.append("failure")
            }
        }
        _ = Single<Int>.error(testError).subscribe { event in
            if case .failure(let error) = event, error is TestError { results.append("failure") }
        }
        #expect(results == ["success 1", "failure"])
    }

    @Test("subscribe(with:) skips the handlers once the object is gone")
    func subscribeWith() {
        let subject = PublishSubject<Int>()
        var owner: Owner? = Owner()
        var received: [Int] = []
        let subscription = subject.asSingle().subscribe(with: owner!, onSuccess: { _, value in received.append(value) })
        subject.onNext(5)
        owner = nil
        subject.onCompleted()
        subscription.dispose()
        #expect(received == [])
        var kept: Owner? = Owner()
        _ = Single.just(6).subscribe(with: kept!, onSuccess: { _, value in received.append(value) })
        kept = nil
        #expect(received == [6])
    }

    @Test("just, just on a scheduler, error and never")
    func creation() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(scheduler.start { Single.just(42) }.events == [.next(200, 42), .completed(200)])
        let scheduled = TestScheduler(initialClock: 0)
        #expect(scheduled.start { Single.just(42, scheduler: scheduled) }.events == [.next(201, 42), .completed(202)])
        let failing = TestScheduler(initialClock: 0)
        #expect(failing.start { Single<Int>.error(testError) }.events == [.error(200, testError)])
        let never = TestScheduler(initialClock: 0)
        #expect(never.start { Single<Int>.never() }.events == [])
    }

    @Test("map transforms the element; a throw becomes the failure")
    func map() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(220)])
        let res = scheduler.start { xs.asSingle().map { $0 * 10 } }
        #expect(res.events == [.next(220, 20), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])

        let throwing = TestScheduler(initialClock: 0)
        let ys = throwing.createHotObservable([.next(210, 2), .completed(220)])
        let thrown = throwing.start { ys.asSingle().map { _ -> Int in throw testError } }
        #expect(thrown.events == [.error(220, testError)])
        #expect(ys.subscriptions == [Subscription(200, 220)])
    }

    @Test("filter turns the single into a maybe")
    func filter() {
        let scheduler = TestScheduler(initialClock: 0)
        let passing = scheduler.start { Single.just(2).filter { $0 % 2 == 0 } }
        #expect(passing.events == [.next(200, 2), .completed(200)])
        let other = TestScheduler(initialClock: 0)
        let rejected = other.start { Single.just(3).filter { $0 % 2 == 0 } }
        #expect(rejected.events == [.completed(200)])
    }

    @Test("asMaybe and asCompletable")
    func conversions() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(230)])
        let maybe = scheduler.start { xs.asSingle().asMaybe() }
        #expect(maybe.events == [.next(230, 2), .completed(230)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 2), .completed(230)])
        let completable = other.start { ys.asSingle().asCompletable() }
        #expect(completable.events == [.completed(230)])
        #expect(ys.subscriptions == [Subscription(200, 230)])

        let failing = TestScheduler(initialClock: 0)
        let zs = failing.createHotObservable([Recorded<Event<Int>>.error(215, testError)])
        let failed = failing.start { zs.asSingle().asCompletable() }
        #expect(failed.events == [.error(215, testError)])
    }

    @Test("deferred calls the factory for each subscription")
    func deferred() {
        var calls = 0
        let single = Single<Int>.deferred {
            calls += 1
            return .just(calls)
        }
        var values: [Int] = []
        _ = single.subscribe(onSuccess: { values.append($0) })
        _ = single.subscribe(onSuccess: { values.append($0) })
        #expect(values == [1, 2])
        var failure: Error?
        _ = Single<Int>.deferred { throw testError }.subscribe(onFailure: { failure = $0 })
        #expect(failure is TestError)
    }

    @Test("using disposes the resource with the subscription")
    func using() {
        let scheduler = TestScheduler(initialClock: 0)
        let resource = BooleanDisposable()
        let res = scheduler.start {
            Single<Int>.using({ resource }, primitiveSequenceFactory: { _ in
                Single<Int>.timer(.seconds(30), scheduler: scheduler)
            })
        }
        #expect(res.events == [.next(230, 0), .completed(230)])
        #expect(resource.isDisposed)
    }

    @Test("observe(on:) and subscribe(on:) deliver the element")
    func schedulers() throws {
        let queue = ConcurrentDispatchQueueScheduler(qos: .default)
        let value = try Single.just(9).subscribe(on: queue).observe(on: queue).asObservable().toBlocking(timeout: 5).first()
        #expect(value == 9)
    }
}

@Suite("asSingle, asMaybe, first, toArray", .rxLeakCheck)
struct PrimitiveSequenceConversionTests {
    @Test("asSingle: one element succeeds at completion")
    func asSingleOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(250)])
        let res = scheduler.start { xs.asSingle() }
        #expect(res.events == [.next(250, 2), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test("asSingle: empty fails with noElements")
    func asSingleEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.asSingle() }
        #expect(res.events == [.error(250, RxError.noElements)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test("asSingle: a second element fails at once with moreThanOneElement")
    func asSingleMany() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.asSingle() }
        #expect(res.events == [.error(220, RxError.moreThanOneElement)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test("asSingle: errors pass through; disposal unsubscribes")
    func asSingleErrorAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .error(210, testError)])
        let res = scheduler.start { xs.asSingle() }
        #expect(res.events == [.error(210, testError)])
        #expect(xs.subscriptions == [Subscription(200, 210)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createColdObservable([.next(10, 1), .completed(50)])
        let disposed = other.start(disposed: 230) { ys.asSingle() }
        #expect(disposed.events == [])
        #expect(ys.subscriptions == [Subscription(200, 230)])
    }

    @Test("asMaybe: empty completes, one succeeds, many fail")
    func asMaybe() {
        let empty = TestScheduler(initialClock: 0)
        let xs = empty.createHotObservable([.next(150, 1), .completed(250)])
        #expect(empty.start { xs.asMaybe() }.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])

        let one = TestScheduler(initialClock: 0)
        let ys = one.createColdObservable([.next(10, 2), .completed(50)])
        #expect(one.start { ys.asMaybe() }.events == [.next(250, 2), .completed(250)])
        #expect(ys.subscriptions == [Subscription(200, 250)])

        let many = TestScheduler(initialClock: 0)
        let zs = many.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        #expect(many.start { zs.asMaybe() }.events == [.error(220, RxError.moreThanOneElement)])
        #expect(zs.subscriptions == [Subscription(200, 220)])

        let failing = TestScheduler(initialClock: 0)
        let ws = failing.createHotObservable([Recorded<Event<Int>>.error(210, testError)])
        #expect(failing.start { ws.asMaybe() }.events == [.error(210, testError)])
    }

    @Test("first: the first element at once, nil when empty")
    func first() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.first() }
        #expect(res.events == [.next(210, Optional(2)), .completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])

        let empty = TestScheduler(initialClock: 0)
        let ys = empty.createHotObservable([.next(150, 1), .completed(250)])
        #expect(empty.start { ys.first() }.events == [.next(250, nil), .completed(250)])

        let failing = TestScheduler(initialClock: 0)
        let zs = failing.createHotObservable([Recorded<Event<Int>>.error(230, testError)])
        #expect(failing.start { zs.first() }.events == [.error(230, testError)])
        #expect(zs.subscriptions == [Subscription(200, 230)])
    }

    @Test("toArray: all elements at completion")
    func toArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.toArray() }
        #expect(res.events == [.next(250, [2, 3]), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])

        let empty = TestScheduler(initialClock: 0)
        let ys = empty.createColdObservable([Recorded<Event<Int>>.completed(30)])
        #expect(empty.start { ys.toArray() }.events == [.next(230, []), .completed(230)])

        let failing = TestScheduler(initialClock: 0)
        let zs = failing.createHotObservable([.next(210, 2), .error(230, testError)])
        #expect(failing.start { zs.toArray() }.events == [.error(230, testError)])
        #expect(zs.subscriptions == [Subscription(200, 230)])

        let disposing = TestScheduler(initialClock: 0)
        let ws = disposing.createHotObservable([.next(210, 2), .completed(300)])
        #expect(disposing.start(disposed: 250) { ws.toArray() }.events == [])
        #expect(ws.subscriptions == [Subscription(200, 250)])
    }

    @Test("toArray and asSingle under concurrent elements: one terminal, nothing lost")
    func concurrentElements() {
        let subject = PublishSubject<Int>()
        let arrays = LockedBox<[[Int]]>([])
        let terminals = LockedBox(0)
        let subscription = subject.toArray().subscribe(
            onSuccess: { arrays.append($0) },
            onDisposed: { terminals.increment() }
        )
        DispatchQueue.concurrentPerform(iterations: 1_000) { subject.onNext($0) }
        subject.onCompleted()
        subscription.dispose()
        #expect(arrays.value.count == 1)
        #expect(arrays.value.first?.sorted() == Array(0..<1_000))
        #expect(terminals.value == 1)

        let many = PublishSubject<Int>()
        let failures = LockedBox<[Error]>([])
        let successes = LockedBox(0)
        let single = many.asSingle().subscribe(
            onSuccess: { _ in successes.increment() },
            onFailure: { failures.append($0) }
        )
        DispatchQueue.concurrentPerform(iterations: 200) { many.onNext($0) }
        many.onCompleted()
        single.dispose()
        #expect(successes.value == 0)
        #expect(failures.value.count == 1)
        if let error = failures.value.first, case RxError.moreThanOneElement = error {} else {
            Issue.record("expected moreThanOneElement, got \(failures.value)")
        }
    }
}
