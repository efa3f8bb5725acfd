import RivuletTestSupport
import RxCocoa
import RxSwift
import RxTest
import Testing

@Suite("bind(to:) and bind(onNext:)", .rxLeakCheck)
struct BindTests {
    @Test("bind(to:) sends every event to each observer")
    func bindToObservers() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        _ = source.bind(to: first, second)
        scheduler.start()
        let expected: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .completed(230)]
        #expect(first.events == expected)
        #expect(second.events == expected)
        #expect(source.subscriptions == [Subscription(0, 230)])
    }

    @Test("bind(to:) wraps elements for observers of optionals, errors included")
    func bindToOptionalObservers() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int?.self)
        let source = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        _ = source.bind(to: observer)
        scheduler.start()
        #expect(observer.events == [.next(10, Optional(1)), .error(20, testError)])
    }

    @Test("bind(onNext:) and bind(with:onNext:) receive elements; disposal stops them")
    func bindOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
        var plain: [Int] = []
        var withOwner: [Int] = []
        let owner = Owner()
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(source.bind { plain.append($0) })
            subscriptions.append(source.bind(with: owner) { _, value in withOwner.append(value) })
        }
        scheduler.scheduleAt(230) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        #expect(plain == [1, 2])
        #expect(withOwner == [1, 2])
        #expect(source.subscriptions == [Subscription(200, 230), Subscription(200, 230)])
    }

    @Test("bind(with:onNext:) skips the handler once the object is gone")
    func bindWithReleasedObject() {
        let relay = PublishRelay<Int>()
        var received: [Int] = []
        var owner: Owner? = Owner()
        let subscription = relay.bind(with: owner!) { _, value in received.append(value) }
        relay.accept(1)
        owner = nil
        relay.accept(2)
        subscription.dispose()
        #expect(owner == nil)
        #expect(received == [1])
    }

    @Test("bind(to:) with a binder function returns its result")
    func bindToFunction() {
        let source = Observable.of(1, 2, 3)
        let count = source.bind { (observable: Observable<Int>) -> Int in
            var total = 0
            _ = observable.subscribe(onNext: { total += $0 })
            return total
        }
        #expect(count == 6)
        let curried = source.bind(to: { (observable: Observable<Int>) in { (offset: Int) in
            var values: [Int] = []
            _ = observable.subscribe(onNext: { values.append($0 + offset) })
            return values
        } }, curriedArgument: 10)
        #expect(curried == [11, 12, 13])
    }
}
