import RxRelay
import RxSwift
import RxTest
import Testing

@Suite("Infallible bound to relays, and relays as Infallible", .rxLeakCheck)
struct InfallibleRelayBindTests {
    @Test("bind(to:) passes every element to each relay at its time; completion leaves them as they are")
    func bindToRelays() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
            .asInfallible(onErrorJustReturn: -1)
        let publish = PublishRelay<Int>()
        let optional = PublishRelay<Int?>()
        let behavior = BehaviorRelay(value: 0)
        let optionalBehavior = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int>.create(bufferSize: 1)
        let optionalReplay = ReplayRelay<Int?>.createUnbound()
        let published = scheduler.createObserver(Int.self)
        let wrapped = scheduler.createObserver(Int?.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(100) {
            publish.subscribe(published).disposed(by: bag)
            optional.subscribe(wrapped).disposed(by: bag)
            source.bind(to: publish).disposed(by: bag)
            source.bind(to: optional).disposed(by: bag)
            source.bind(to: behavior).disposed(by: bag)
            source.bind(to: optionalBehavior).disposed(by: bag)
            source.bind(to: replay).disposed(by: bag)
            source.bind(to: optionalReplay).disposed(by: bag)
        }
        scheduler.start()
        #expect(published.events == [.next(110, 1), .next(120, 2)])
        #expect(wrapped.events == [.next(110, 1), .next(120, 2)])
        #expect(behavior.value == 2)
        #expect(optionalBehavior.value == 2)
        let replayed = scheduler.createObserver(Int.self)
        let allReplayed = scheduler.createObserver(Int?.self)
        _ = replay.subscribe(replayed)
        _ = optionalReplay.subscribe(allReplayed)
        #expect(replayed.events.map(\.value) == [.next(2)])
        #expect(allReplayed.events.map(\.value) == [.next(1), .next(2)])
    }

    @Test("disposing a bind(to:) before the source completes stops the elements and unsubscribes at that time")
    func bindToRelaysDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(250)])
        let source = hot.asInfallible(onErrorJustReturn: -1)
        let publish = PublishRelay<Int>()
        let behavior = BehaviorRelay(value: 0)
        let replay = ReplayRelay<Int>.createUnbound()
        let published = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        publish.subscribe(published).disposed(by: bag)
        let bindings = CompositeDisposable()
        scheduler.scheduleAt(200) {
            _ = bindings.insert(source.bind(to: publish))
            _ = bindings.insert(source.bind(to: behavior))
            _ = bindings.insert(source.bind(to: replay))
        }
        scheduler.scheduleAt(230) { bindings.dispose() }
        scheduler.start()
        #expect(published.events == [.next(210, 1), .next(220, 2)])
        #expect(behavior.value == 2)
        let replayed = scheduler.createObserver(Int.self)
        replay.subscribe(replayed).disposed(by: bag)
        #expect(replayed.events.map(\.value) == [.next(1), .next(2)])
        #expect(hot.subscriptions == Array(repeating: Subscription(200, 230), count: 3))
    }

    @Test("relays as Infallible: a BehaviorRelay starts with its value, each emits what it accepts")
    func relaysAsInfallible() {
        let publish = PublishRelay<Int>()
        let behavior = BehaviorRelay(value: 7)
        let replay = ReplayRelay<Int>.create(bufferSize: 2)
        replay.accept(1)
        replay.accept(2)
        replay.accept(3)
        var received: [String] = []
        let bag = DisposeBag()
        publish.asInfallible().subscribe(onNext: { received.append("p\($0)") }).disposed(by: bag)
        behavior.asInfallible().subscribe(onNext: { received.append("b\($0)") }).disposed(by: bag)
        replay.asInfallible().subscribe(onNext: { received.append("r\($0)") }).disposed(by: bag)
        publish.accept(4)
        behavior.accept(8)
        #expect(received == ["b7", "r2", "r3", "p4", "b8"])
    }
}
