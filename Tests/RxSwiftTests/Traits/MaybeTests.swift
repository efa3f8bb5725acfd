import RivuletTestSupport
import RxSwift
import RxTest
import Testing
@Suite("Maybe", .rxLeakCheck)
struct MaybeTests {
    @Test("create: success, completion and error at their times", .rxLeakCheck(.leaksOnly))
    func create() {
        let scheduler = TestScheduler(initialClock: 0)
        let success = scheduler.start {
            Maybe<Int>.create { observer in
                scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                    observer(.success(1))
                    observer(.completed)
                    return Disposables.create()
                }
            }
        }
        #expect(success.events == [.next(210, 1), .completed(210)])

        let other = TestScheduler(initialClock: 0)
        let completed = other.start {
            Maybe<Int>.create { observer in
                other.scheduleRelative((), dueTime: .seconds(20)) { _ in
                    observer(.completed)
                    observer(.success(1))
                    return Disposables.create()
                }
            }
        }
        #expect(completed.events == [.completed(220)])

        let failing = TestScheduler(initialClock: 0)
        let failed = failing.start {
            Maybe<Int>.create { observer in
                observer(.error(testError))
                return Disposables.create()
            }
        }
        #expect(failed.events == [.error(200, testError)])
    }

    @Test("create: disposal before the outcome")
    func createDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let body = BooleanDisposable()
        let res = scheduler.start(disposed: 205) {
            Maybe<Int>.create { observer in
                _ = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                    observer(.success(1))
                    return Disposables.create()
                }
                return body
            }
        }
        #expect(res.events == [])
        #expect(body.isDisposed)
    }

    @Test("subscribe handlers: success, completion, error, then disposed")
    func subscribeHandlers() {
        var log: [String] = []
        _ = Maybe.just(1).subscribe(
            onSuccess: { log.append("success \($0)") },
            onError: { _ in log.append("error") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") }
        )
        _ = Maybe<Int>.empty().subscribe(
            onSuccess: { log.append("success \($0)") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") }
        )
        _ = Maybe<Int>.error(testError).subscribe(
            onError: { _ in log.append("error") },
            onDisposed: { log.append("disposed") }
        )
        #expect(log == ["success 1", "disposed", "completed", "disposed", "error", "disposed"])
    }

    @Test("subscribe(_:) receives one MaybeEvent")
    func subscribeEvent() {
        var events: [String] = []
        let record: (MaybeEvent<Int>) -> Void = { event in
            switch event {
            case .success(let value): events.append("success \(value)")
            case .error: events.append("error")
            case .completed: events.append("completed")
            }
        }
        _ = Maybe.just(2).subscribe(record)
        _ = Maybe<Int>.empty().subscribe(record)
        _ = Maybe<Int>.error(testError).subscribe(record)
        Maybe<Int>.never().subscribe(record).dispose()
        #expect(events == ["success 2", "completed", "error"])
    }

    @Test("subscribe(with:) passes the object while it lives")
    func subscribeWith() {
        let owner = Owner()
        var received: [Int] = []
        var completions = 0
        _ = Maybe.just(4).subscribe(with: owner, onSuccess: { object, value in
            #expect(object === owner)
            received.append(value)
        })
        _ = Maybe<Int>.empty().subscribe(with: owner, onCompleted: { _ in completions += 1 })
        #expect(received == [4])
        #expect(completions == 1)
    }

    @Test("just on a scheduler, map, filter")
    func operators() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(scheduler.start { Maybe.just(3, scheduler: scheduler).map { $0 + 1 } }.events == [.next(201, 4), .completed(202)])

        let other = TestScheduler(initialClock: 0)
        let xs = other.createHotObservable([.next(210, 3), .completed(240)])
        #expect(other.start { xs.asMaybe().filter { $0 > 5 } }.events == [.completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 240)])

        let throwing = TestScheduler(initialClock: 0)
        let ys = throwing.createHotObservable([.next(210, 3), .completed(240)])
        let thrown = throwing.start { ys.asMaybe().map { _ -> Int in throw testError } }
        #expect(thrown.events == [.error(240, testError)])
    }

    @Test("asCompletable drops the element")
    func asCompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 3), .completed(240)])
        #expect(scheduler.start { xs.asMaybe().asCompletable() }.events == [.completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }
}
