import RivuletTestSupport
import RxSwift
import RxTest
import Testing
@Suite("Completable", .rxLeakCheck)
struct CompletableTests {
    @Test("create: completion and error", .rxLeakCheck(.leaksOnly))
    func create() {
        let scheduler = TestScheduler(initialClock: 0)
        let completed = scheduler.start {
            Completable.create { observer in
                scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                    observer(.completed)
                    observer(.error(testError))
                    return Disposables.create()
                }
            }
        }
        #expect(completed.events == [.completed(210)])

        let other = TestScheduler(initialClock: 0)
        let failed = other.start {
            Completable.create { observer in
                other.scheduleRelative((), dueTime: .seconds(15)) { _ in
                    observer(.error(testError))
                    return Disposables.create()
                }
            }
        }
        #expect(failed.events == [.error(215, testError)])
    }

    @Test("subscribe handlers and subscribe(_:)")
    func subscribe() {
        var log: [String] = []
        _ = Completable.empty().subscribe(
            onCompleted: { log.append("completed") },
            onError: { _ in log.append("error") },
            onDisposed: { log.append("disposed") }
        )
        _ = Completable.error(testError).subscribe(
            onCompleted: { log.append("completed") },
            onError: { _ in log.append("error") },
            onDisposed: { log.append("disposed") }
        )
        _ = Completable.empty().subscribe { (event: CompletableEvent) in
            if case .completed = event { log.append("event completed") }
        }
        let never = Completable.never().subscribe(onDisposed: { log.append("never disposed") })
        #expect(log == ["completed", "disposed", "error", "disposed", "event completed"])
        never.dispose()
        #expect(log.last == "never disposed")
        let owner = Owner()
        var completions = 0
        _ = Completable.empty().subscribe(with: owner, onCompleted: { object in
            #expect(object === owner)
            completions += 1
        })
        #expect(completions == 1)
    }

    @Test("Observable<Never>.asCompletable")
    func fromObservable() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Never>>.completed(250)])
        #expect(scheduler.start { xs.asCompletable() }.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test("andThen(Completable): the second starts when the first completes")
    func andThenCompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([Recorded<Event<Never>>.completed(290)])
        let x2 = scheduler.createHotObservable([Recorded<Event<Never>>.completed(310)])
        let res = scheduler.start { x1.asCompletable().andThen(x2.asCompletable()) }
        #expect(res.events == [.completed(310)])
        #expect(x1.subscriptions == [Subscription(200, 290)])
        #expect(x2.subscriptions == [Subscription(290, 310)])
    }

    @Test("andThen: an error of the first skips the second")
    func andThenError() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([Recorded<Event<Never>>.error(290, testError)])
        let x2 = scheduler.createHotObservable([.next(310, 1), .completed(310)])
        let res = scheduler.start { x1.asCompletable().andThen(x2.asSingle()) }
        #expect(res.events == [.error(290, testError)])
        #expect(x1.subscriptions == [Subscription(200, 290)])
        #expect(x2.subscriptions == [])
    }

    @Test("andThen(Single), andThen(Maybe), andThen(Observable)")
    func andThenOthers() {
        let single = TestScheduler(initialClock: 0)
        let s1 = single.createHotObservable([Recorded<Event<Never>>.completed(290)])
        let s2 = single.createHotObservable([.next(300, 1), .completed(310)])
        #expect(single.start { s1.asCompletable().andThen(s2.asSingle()) }.events == [.next(310, 1), .completed(310)])
        #expect(s2.subscriptions == [Subscription(290, 310)])

        let maybe = TestScheduler(initialClock: 0)
        let m1 = maybe.createHotObservable([Recorded<Event<Never>>.completed(290)])
        let m2 = maybe.createHotObservable([Recorded<Event<Int>>.completed(310)])
        #expect(maybe.start { m1.asCompletable().andThen(m2.asMaybe()) }.events == [.completed(310)])
        #expect(m2.subscriptions == [Subscription(290, 310)])

        let observable = TestScheduler(initialClock: 0)
        let o1 = observable.createHotObservable([Recorded<Event<Never>>.completed(290)])
        let o2 = observable.createHotObservable([.next(280, 0), .next(300, 1), .next(310, 2), .completed(320)])
        #expect(observable.start { o1.asCompletable().andThen(o2.asObservable()) }.events == [.next(300, 1), .next(310, 2), .completed(320)])
        #expect(o2.subscriptions == [Subscription(290, 320)])
    }

    @Test("andThen: disposal while the first runs, and while the second runs")
    func andThenDisposal() {
        let early = TestScheduler(initialClock: 0)
        let e1 = early.createHotObservable([Recorded<Event<Never>>.completed(290)])
        let e2 = early.createHotObservable([.next(300, 1), .completed(310)])
        #expect(early.start(disposed: 280) { e1.asCompletable().andThen(e2.asObservable()) }.events == [])
        #expect(e1.subscriptions == [Subscription(200, 280)])
        #expect(e2.subscriptions == [])

        let late = TestScheduler(initialClock: 0)
        let l1 = late.createHotObservable([Recorded<Event<Never>>.completed(290)])
        let l2 = late.createHotObservable([.next(300, 1), .next(320, 2), .completed(330)])
        #expect(late.start(disposed: 310) { l1.asCompletable().andThen(l2.asObservable()) }.events == [.next(300, 1)])
        #expect(l2.subscriptions == [Subscription(290, 310)])
    }

    @Test("andThen with synchronous sources keeps the second subscription alive")
    func andThenSynchronous() {
        var values: [Int] = []
        var completed = false
        let subject = PublishSubject<Int>()
        let subscription = Completable.empty().andThen(subject.asObservable()).subscribe(
            onNext: { values.append($0) },
            onCompleted: { completed = true }
        )
        subject.onNext(1)
        subject.onNext(2)
        subject.onCompleted()
        subscription.dispose()
        #expect(values == [1, 2])
        #expect(completed)
        var chained: [Int] = []
        _ = Completable.empty().andThen(Completable.empty()).andThen(Single.just(5)).subscribe(onSuccess: { chained.append($0) })
        #expect(chained == [5])
    }
}
