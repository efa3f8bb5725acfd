import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("Infallible", .rxLeakCheck)
struct InfallibleTests {
    @Test("create: elements and completion; events after completion are dropped", .rxLeakCheck(.leaksOnly))
    func create() {
        let scheduler = TestScheduler(initialClock: 0)
        let body = BooleanDisposable()
        let res = scheduler.start {
            Infallible<Int>.create { observer in
                _ = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                    observer(.next(1))
                    observer(.next(2))
                    observer(.completed)
                    observer(.next(3))
                    return Disposables.create()
                }
                return body
            }
        }
        #expect(res.events == [.next(210, 1), .next(210, 2), .completed(210)])
        #expect(body.isDisposed)
    }

    @Test("just, of, from, empty, never, deferred")
    func creation() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(scheduler.start { Infallible.just(1) }.events == [.next(200, 1), .completed(200)])
        let scheduled = TestScheduler(initialClock: 0)
        #expect(scheduled.start { Infallible.just(1, scheduler: scheduled) }.events == [.next(201, 1), .completed(202)])
        let of = TestScheduler(initialClock: 0)
        #expect(of.start { Infallible.of(1, 2, 3) }.events == [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])
        let fromArray = TestScheduler(initialClock: 0)
        #expect(fromArray.start { Infallible.from([4, 5]) }.events == [.next(200, 4), .next(200, 5), .completed(200)])
        let fromSequence = TestScheduler(initialClock: 0)
        #expect(fromSequence.start { Infallible.from(1...2) }.events == [.next(200, 1), .next(200, 2), .completed(200)])
        let empty = TestScheduler(initialClock: 0)
        #expect(empty.start { Infallible<Int>.empty() }.events == [.completed(200)])
        let never = TestScheduler(initialClock: 0)
        #expect(never.start { Infallible<Int>.never() }.events == [])
        var calls = 0
        let deferred = Infallible<Int>.deferred {
            calls += 1
            return .just(calls)
        }
        var values: [Int] = []
        _ = deferred.subscribe(onNext: { values.append($0) })
        _ = deferred.subscribe(onNext: { values.append($0) })
        #expect(values == [1, 2])
    }

    @Test("map, filter and take")
    func operators() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        let source = Infallible<Int>.create { observer in
            xs.subscribe { event in
                switch event {
                case .next(let value): observer(.next(value))
                case .completed: observer(.completed)
                case .error: break
                }
            }
        }
        let res = scheduler.start { source.filter { $0 % 2 == 0 }.map { $0 * 10 }.take(1) }
        #expect(res.events == [.next(220, 20), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test("subscribe forms")
    func subscribe() {
        var log: [String] = []
        _ = Infallible.of(1, 2).subscribe(
            onNext: { log.append("next \($0)") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") }
        )
        _ = Infallible.just(3).subscribe { (event: InfallibleEvent<Int>) in
            switch event {
            case .next(let value): log.append("event \(value)")
            case .completed: log.append("event completed")
            }
        }
        let owner = Owner()
        _ = Infallible.just(4).subscribe(with: owner, onNext: { object, value in
            #expect(object === owner)
            log.append("with \(value)")
        }, onCompleted: { _ in log.append("with completed") })
        #expect(log == [
            "next 1", "next 2", "completed", "disposed",
            "event 3", "event completed",
            "with 4", "with completed",
        ])
        #expect(InfallibleEvent.next(1).event == .next(1))
        #expect(InfallibleEvent<Int>.completed.event == .completed)
    }
}
