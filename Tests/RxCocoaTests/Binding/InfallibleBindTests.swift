import RivuletTestSupport
import RxCocoa
import RxSwift
import RxTest
import Testing

@Suite("Infallible bind(to:), bind(with:onNext:) and bind(onNext:)", .rxLeakCheck)
struct InfallibleBindTests {
    @Test("bind(to:) sends every element and the completion to each observer, plain and optional")
    func bindToObservers() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            .asInfallible(onErrorJustReturn: -1)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let optional = scheduler.createObserver(Int?.self)
        scheduler.scheduleAt(200) {
            _ = source.bind(to: first, second)
            _ = source.bind(to: optional)
        }
        scheduler.start()
        let expected: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .completed(230)]
        #expect(first.events == expected)
        #expect(second.events == expected)
        #expect(optional.events == [.next(210, 1), .next(220, 2), .completed(230)])
    }

    @Test("disposing bind(to:), bind(with:onNext:) and bind(onNext:) before completion stops them at that time")
    func bindingsDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(250)])
        let source = hot.asInfallible(onErrorJustReturn: -1)
        let observer = scheduler.createObserver(Int.self)
        let owner = Owner()
        var all: [Int] = []
        let bindings = CompositeDisposable()
        scheduler.scheduleAt(200) {
            _ = bindings.insert(source.bind(to: observer))
            _ = bindings.insert(source.bind(with: owner) { owner, value in owner.log.append("\(value)") })
            _ = bindings.insert(source.bind(onNext: { all.append($0) }))
        }
        scheduler.scheduleAt(230) { bindings.dispose() }
        scheduler.start()
        #expect(observer.events == [.next(210, 1), .next(220, 2)])
        #expect(owner.log == ["1", "2"])
        #expect(all == [1, 2])
        #expect(hot.subscriptions == Array(repeating: Subscription(200, 230), count: 3))
    }

    @Test("bind(with:onNext:) skips elements once the object is gone; bind(onNext:) gets every element")
    func bindWithObject() {
        let subject = PublishSubject<Int>()
        let source = subject.asInfallible(onErrorJustReturn: 0)
        var owner: Owner? = Owner()
        weak let weakOwner = owner
        var all: [Int] = []
        let bag = DisposeBag()
        source.bind(with: owner!) { owner, value in owner.log.append("\(value)") }.disposed(by: bag)
        source.bind(onNext: { all.append($0) }).disposed(by: bag)
        subject.onNext(1)
        #expect(owner?.log == ["1"])
        owner = nil
        #expect(weakOwner == nil)
        subject.onNext(2)
        #expect(all == [1, 2])
    }

    @Test("bind(to:) with a binder function, plain and curried")
    func bindToFunction() {
        let source = Infallible.just(5)
        let described = source.bind(to: { (infallible: Infallible<Int>) -> String in "bound \(type(of: infallible))" })
        #expect(described == "bound Infallible<Int>")
        var received: [Int] = []
        let disposable = source.bind(to: { (infallible: Infallible<Int>) in { (offset: Int) -> Disposable in
            infallible.subscribe(onNext: { received.append($0 + offset) })
        } }, curriedArgument: 10)
        disposable.dispose()
        #expect(received == [15])
    }
}
