import Dispatch
import Foundation
import RivuletTestSupport
import RxRelay
import RxSwift
import RxTest
import Testing

@Suite("PublishRelay", .rxLeakCheck)
struct PublishRelayTests {
    @Test("observers receive only what is accepted after they subscribe")
    func lateSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = PublishRelay<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        var bag = DisposeBag()
        scheduler.scheduleAt(100) { relay.subscribe(early).disposed(by: bag) }
        scheduler.scheduleAt(110) { relay.accept(1) }
        scheduler.scheduleAt(200) { relay.asObservable().subscribe(late).disposed(by: bag) }
        scheduler.scheduleAt(210) { relay.accept(2) }
        scheduler.scheduleAt(300) { bag = DisposeBag() }
        scheduler.scheduleAt(310) { relay.accept(3) }
        scheduler.start()
        #expect(early.events == [.next(110, 1), .next(210, 2)])
        #expect(late.events == [.next(210, 2)])
    }

    @Test("binding a cold source forwards its elements at their times, and not its completion")
    func bindColdSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = PublishRelay<String>()
        let observer = scheduler.createObserver(String.self)
        let bag = DisposeBag()
        relay.subscribe(observer).disposed(by: bag)
        let source = scheduler.createColdObservable([
            .next(10, "use"), .next(20, "username"), .completed(30),
        ])
        source.bind(to: relay).disposed(by: bag)
        scheduler.start()
        #expect(observer.events == [.next(10, "use"), .next(20, "username")])
        #expect(source.subscriptions == [Subscription(0, 30)])
        relay.accept("after")
        #expect(observer.events.last == .next(30, "after"))
    }

    @Test("binding to several relays, and to relays of optionals")
    func bindVariadicAndOptional() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = PublishRelay<Int>()
        let second = PublishRelay<Int>()
        let optional = PublishRelay<Int?>()
        let observer1 = scheduler.createObserver(Int.self)
        let observer2 = scheduler.createObserver(Int.self)
        let observer3 = scheduler.createObserver(Int?.self)
        let bag = DisposeBag()
        first.subscribe(observer1).disposed(by: bag)
        second.subscribe(observer2).disposed(by: bag)
        optional.subscribe(observer3).disposed(by: bag)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        source.bind(to: first, second).disposed(by: bag)
        source.bind(to: optional).disposed(by: bag)
        scheduler.start()
        #expect(observer1.events == [.next(210, 1), .next(220, 2)])
        #expect(observer2.events == [.next(210, 1), .next(220, 2)])
        #expect(observer3.events == [.next(210, Optional(1)), .next(220, Optional(2))])
        #expect(source.subscriptions == [Subscription(0, 230), Subscription(0, 230)])
    }

    @Test("disposing a binding unsubscribes from the source")
    func disposeBinding() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = PublishRelay<Int>()
        let observer = scheduler.createObserver(Int.self)
        _ = relay.subscribe(observer)
        let source = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        var binding: Disposable?
        scheduler.scheduleAt(200) { binding = source.bind(to: relay) }
        scheduler.scheduleAt(250) { binding?.dispose() }
        scheduler.start()
        #expect(observer.events == [.next(210, 1)])
        #expect(source.subscriptions == [Subscription(200, 250)])
    }

    @Test("concurrent accepts reach the observer exactly once each")
    func concurrentAccept() {
        let relay = PublishRelay<Int>()
        let received = LockedBox<[Int]>([])
        let subscription = relay.subscribe(onNext: { received.append($0) })
        DispatchQueue.concurrentPerform(iterations: 1_000) { relay.accept($0) }
        subscription.dispose()
        #expect(received.value.sorted() == Array(0..<1_000))
    }
}

@Suite("BehaviorRelay", .rxLeakCheck)
struct BehaviorRelayTests {
    @Test("value starts at the initial value and follows accept")
    func value() {
        let relay = BehaviorRelay(value: 0)
        #expect(relay.value == 0)
        relay.accept(5)
        #expect(relay.value == 5)
    }

    @Test("each subscriber receives the current value first")
    func replaysCurrentValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = BehaviorRelay(value: 0)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(100) { relay.subscribe(early).disposed(by: bag) }
        scheduler.scheduleAt(150) { relay.accept(1) }
        scheduler.scheduleAt(200) { relay.asObservable().subscribe(late).disposed(by: bag) }
        scheduler.scheduleAt(250) { relay.accept(2) }
        scheduler.start()
        #expect(early.events == [.next(100, 0), .next(150, 1), .next(250, 2)])
        #expect(late.events == [.next(200, 1), .next(250, 2)])
    }

    @Test("binding sets the value, including for optional and several relays")
    func bind() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = BehaviorRelay(value: 0)
        let second = BehaviorRelay(value: -1)
        let optional = BehaviorRelay<Int?>(value: nil)
        let source = scheduler.createHotObservable([.next(210, 7), .completed(300)])
        let bag = DisposeBag()
        source.bind(to: first, second).disposed(by: bag)
        source.bind(to: optional).disposed(by: bag)
        scheduler.start()
        #expect(first.value == 7)
        #expect(second.value == 7)
        #expect(optional.value == 7)
        #expect(source.subscriptions == [Subscription(0, 300), Subscription(0, 300)])
    }

    @Test("concurrent accepts leave one of the accepted values")
    func concurrentAccept() {
        let relay = BehaviorRelay(value: -1)
        let received = LockedBox<[Int]>([])
        let subscription = relay.subscribe(onNext: { received.append($0) })
        DispatchQueue.concurrentPerform(iterations: 500) { relay.accept($0) }
        subscription.dispose()
        #expect((0..<500).contains(relay.value))
        #expect(received.value.sorted() == [-1] + Array(0..<500))
    }
}

@Suite("ReplayRelay", .rxLeakCheck)
struct ReplayRelayTests {
    @Test("a bounded relay replays the most recent elements")
    func bounded() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        let observer = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(110) { relay.accept(1) }
        scheduler.scheduleAt(120) { relay.accept(2) }
        scheduler.scheduleAt(130) { relay.accept(3) }
        scheduler.scheduleAt(200) { relay.subscribe(observer).disposed(by: bag) }
        scheduler.scheduleAt(210) { relay.accept(4) }
        scheduler.start()
        #expect(observer.events == [.next(200, 2), .next(200, 3), .next(210, 4)])
    }

    @Test("an unbounded relay replays everything")
    func unbounded() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = ReplayRelay<Int>.createUnbound()
        let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3), .completed(40)])
        let optional = ReplayRelay<Int?>.createUnbound()
        let observer = scheduler.createObserver(Int.self)
        let optionalObserver = scheduler.createObserver(Int?.self)
        let bag = DisposeBag()
        source.bind(to: relay).disposed(by: bag)
        source.bind(to: optional).disposed(by: bag)
        scheduler.scheduleAt(100) {
            relay.subscribe(observer).disposed(by: bag)
            optional.asObservable().subscribe(optionalObserver).disposed(by: bag)
        }
        scheduler.start()
        #expect(observer.events == [.next(100, 1), .next(100, 2), .next(100, 3)])
        #expect(optionalObserver.events == [.next(100, Optional(1)), .next(100, Optional(2)), .next(100, Optional(3))])
        #expect(source.subscriptions == [Subscription(0, 40), Subscription(0, 40)])
    }
}
