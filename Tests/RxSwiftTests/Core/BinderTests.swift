import RxSwift
import RxTest
import Testing

private final class Target {
    var values: [Int] = []
    var times: [Int] = []
}

@Suite("Binder", .rxLeakCheck)
struct BinderTests {
    @Test("applies each element to the target on its scheduler")
    func appliesOnScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let target = Target()
        let binder = Binder(target, scheduler: scheduler) { target, value in
            target.values.append(value)
            target.times.append(scheduler.clock)
        }
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        _ = xs.asObservable().subscribe(binder)
        scheduler.start()
        #expect(target.values == [1, 2])
        #expect(target.times == [211, 221])
        #expect(xs.subscriptions == [Subscription(0, 230)])
    }

    @Test("holds the target weakly and skips it once gone")
    func weakTarget() {
        var target: Target? = Target()
        weak let observed = target
        var applied = 0
        let binder = Binder(target!, scheduler: CurrentThreadScheduler.instance) { (_: Target, _: Int) in applied += 1 }
        binder.onNext(1)
        target = nil
        #expect(observed == nil)
        binder.onNext(2)
        binder.asObserver().onNext(3)
        binder.onCompleted()
        #expect(applied == 1)
    }

    @Test("asObserver forwards to the binding")
    func asObserver() {
        let target = Target()
        let observer = Binder(target, scheduler: CurrentThreadScheduler.instance) { target, value in
            target.values.append(value)
        }.asObserver()
        _ = Observable.of(1, 2, 3).subscribe(observer)
        #expect(target.values == [1, 2, 3])
    }
}
