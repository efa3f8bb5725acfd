import RivuletTestSupport
import RxSwift
import RxTest
import Testing

private let otherError = TestError(code: 2)

@Suite("do", .rxLeakCheck)
struct DoTests {
    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
        ])
    }

    @Test func seesEveryElementAndPassesThemOn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var seen: [Int] = []
        var completed = false
        let res = scheduler.start { xs.do(onNext: { seen.append($0) }, onCompleted: { completed = true }) }
        #expect(seen == [2, 3, 4, 5])
        #expect(completed)
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func coldSourceWithError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        var seenError: TestError?
        let res = scheduler.start { xs.do(onError: { seenError = $0 as? TestError }) }
        #expect(seenError == testError)
        #expect(res.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func throwingOnNextReplacesTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var invoked = 0
        let res = scheduler.start {
            xs.do(onNext: { _ in
                if invoked > 2 { throw testError }
                invoked += 1
            })
        }
        #expect(invoked == 3)
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(230, 4), .error(240, testError)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }

    @Test func throwingAfterNextComesAfterTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.do(afterNext: { if $0 == 3 { throw testError } }) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func throwingOnErrorReplacesTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(250, testError)])
        let res = scheduler.start { xs.do(onError: { _ in throw otherError }) }
        #expect(res.events == [.next(210, 2), .error(250, otherError)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func throwingOnCompletedBecomesError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.do(onCompleted: { throw testError }) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .error(250, testError)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test(.rxLeakCheck(.leaksOnly)) func throwingAfterCompletedSendsNothingAfterTheCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var afterCompletedCalls = 0
        let res = scheduler.start {
            xs.do(afterCompleted: {
                afterCompletedCalls += 1
                throw testError
            })
        }
        #expect(afterCompletedCalls == 1)
        #expect(res.events == [.next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func afterActionsRunAfterDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, testError)])
        var log: [String] = []
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = xs.do(
                onNext: { log.append("onNext \($0) seen=\(observer.events.count)") },
                afterNext: { log.append("afterNext \($0) seen=\(observer.events.count)") },
                onError: { _ in log.append("onError seen=\(observer.events.count)") },
                afterError: { _ in log.append("afterError seen=\(observer.events.count)") }
            ).subscribe(observer)
        }
        scheduler.start()
        #expect(log == ["onNext 2 seen=0", "afterNext 2 seen=1", "onError seen=1", "afterError seen=2"])
        #expect(observer.events == [.next(210, 2), .error(220, testError)])
    }

    @Test func disposalBeforeCompletionCallsOnDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var disposedAt: Int?
        let res = scheduler.start(disposed: 225) { xs.do(onDispose: { disposedAt = scheduler.clock }) }
        #expect(disposedAt == 225)
        #expect(res.events == [.next(210, 2), .next(220, 3)])
        #expect(xs.subscriptions == [Subscription(200, 225)])
    }

    private enum Step: Equatable {
        case sourceSubscribe, sourceDispose, onNext, afterNext, onCompleted, afterCompleted, onError
        case onSubscribe, onSubscribed, onDispose
    }

    @Test func callOrderWithAsynchronousCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        var steps: [Step] = []
        _ = scheduler.start {
            Observable<Int>.create { observer in
                steps.append(.sourceSubscribe)
                scheduler.scheduleAt(300) {
                    observer.onNext(0)
                    observer.onCompleted()
                }
                return Disposables.create { steps.append(.sourceDispose) }
            }
            .do(
                onNext: { _ in steps.append(.onNext) },
                afterNext: { _ in steps.append(.afterNext) },
                onCompleted: { steps.append(.onCompleted) },
                afterCompleted: { steps.append(.afterCompleted) },
                onSubscribe: { steps.append(.onSubscribe) },
                onSubscribed: { steps.append(.onSubscribed) },
                onDispose: { steps.append(.onDispose) }
            )
        }
        #expect(steps == [
            .onSubscribe, .sourceSubscribe, .onSubscribed, .onNext, .afterNext,
            .onCompleted, .afterCompleted, .sourceDispose, .onDispose,
        ])
    }

    @Test func callOrderWithSynchronousCompletion() {
        var steps: [Step] = []
        _ = Observable<Int>.create { observer in
            steps.append(.sourceSubscribe)
            observer.onNext(0)
            observer.onCompleted()
            return Disposables.create { steps.append(.sourceDispose) }
        }
        .do(
            onNext: { _ in steps.append(.onNext) },
            onCompleted: { steps.append(.onCompleted) },
            onSubscribe: { steps.append(.onSubscribe) },
            onSubscribed: { steps.append(.onSubscribed) },
            onDispose: { steps.append(.onDispose) }
        )
        .subscribe { _ in }
        #expect(steps == [.onSubscribe, .sourceSubscribe, .onNext, .onCompleted, .sourceDispose, .onSubscribed, .onDispose])
    }

    @Test func callOrderWithSynchronousError() {
        var steps: [Step] = []
        _ = Observable<Int>.create { observer in
            steps.append(.sourceSubscribe)
            observer.onNext(0)
            observer.onError(testError)
            return Disposables.create { steps.append(.sourceDispose) }
        }
        .do(
            onNext: { _ in steps.append(.onNext) },
            onError: { _ in steps.append(.onError) },
            onSubscribe: { steps.append(.onSubscribe) },
            onSubscribed: { steps.append(.onSubscribed) },
            onDispose: { steps.append(.onDispose) }
        )
        .subscribe { _ in }
        #expect(steps == [.onSubscribe, .sourceSubscribe, .onNext, .onError, .sourceDispose, .onSubscribed, .onDispose])
    }

    @Test func callOrderWhenSubscriberDisposes() {
        var steps: [Step] = []
        Observable<Int>.create { observer in
            steps.append(.sourceSubscribe)
            observer.onNext(0)
            return Disposables.create { steps.append(.sourceDispose) }
        }
        .do(
            onNext: { _ in steps.append(.onNext) },
            onSubscribe: { steps.append(.onSubscribe) },
            onSubscribed: { steps.append(.onSubscribed) },
            onDispose: { steps.append(.onDispose) }
        )
        .subscribe { _ in }
        .dispose()
        #expect(steps == [.onSubscribe, .sourceSubscribe, .onNext, .onSubscribed, .sourceDispose, .onDispose])
    }

    @Test func onDisposeRunsOnce() {
        var disposals = 0
        let subscription = Observable<Int>.never().do(onDispose: { disposals += 1 }).subscribe()
        subscription.dispose()
        subscription.dispose()
        #expect(disposals == 1)
    }
}
