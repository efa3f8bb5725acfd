import Foundation
import RivuletTestSupport
import RxCocoa
import RxSwift
import RxTest
import Testing

/// Shared sequences built inside `SharingScheduler.mock` deliver on the test
/// scheduler, so these tests run on any thread; `asObservable().subscribe` is used
/// where `drive` would insist on the main thread (see DriverTests for `drive`).
@Suite("Driver and Signal on a test scheduler", .rxLeakCheck)
struct SharedSequenceTests {
    @Test("asDriver(onErrorJustReturn:): one shared subscription, replay of the latest, error replaced")
    func driverSharing() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([
            .next(10, 0), .next(20, 1), .next(30, 2), .next(40, 3), .error(50, testError),
        ])
        var driver: Driver<Int>!
        SharingScheduler.mock(scheduler: scheduler) {
            driver = source.asDriver(onErrorJustReturn: -1)
        }
        let observer1 = scheduler.createObserver(Int.self)
        let observer2 = scheduler.createObserver(Int.self)
        let observer3 = scheduler.createObserver(Int.self)
        var subscription1: Disposable?
        var subscription2: Disposable?
        var subscription3: Disposable?
        scheduler.scheduleAt(200) { subscription1 = driver.asObservable().subscribe(observer1) }
        scheduler.scheduleAt(225) { subscription2 = driver.asObservable().subscribe(observer2) }
        scheduler.scheduleAt(235) { subscription1?.dispose() }
        scheduler.scheduleAt(260) { subscription2?.dispose() }
        scheduler.scheduleAt(260) { subscription3 = driver.asObservable().subscribe(observer3) }
        scheduler.scheduleAt(285) { subscription3?.dispose() }
        scheduler.start()

        #expect(observer1.events == [.next(211, 0), .next(221, 1), .next(231, 2)])
        #expect(observer2.events == [.next(225, 1), .next(231, 2), .next(241, 3), .next(251, -1), .completed(251)])
        #expect(observer3.events == [.next(271, 0), .next(281, 1)])
        // The test observable's `asObservable()` wrapper ends its subscription with the
        // error, at 250, before the error reaches the observers on the scheduler.
        #expect(source.subscriptions == [Subscription(200, 250), Subscription(260, 285)])
    }

    @Test("asSignal(onErrorJustReturn:): shared, no replay to a late observer")
    func signalSharing() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let source = scheduler.createHotObservable([
            .next(210, 0), .next(220, 1), .next(230, 2), .error(240, testError),
        ])
        var signal: Signal<Int>!
        SharingScheduler.mock(scheduler: scheduler) {
            signal = source.asSignal(onErrorJustReturn: -1)
        }
        let observer1 = scheduler.createObserver(Int.self)
        let observer2 = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = signal.emit(to: observer1) }
        scheduler.scheduleAt(225) { _ = signal.emit(to: observer2) }
        scheduler.start()
        #expect(observer1.events == [.next(210, 0), .next(220, 1), .next(230, 2), .next(240, -1), .completed(240)])
        #expect(observer2.events == [.next(230, 2), .next(240, -1), .completed(240)])
        #expect(source.subscriptions == [Subscription(200, 240)])
    }

    @Test("asDriver(onErrorDriveWith:) and asDriver(onErrorRecover:)")
    func driverRecovery() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let fallback = scheduler.createColdObservable([.next(5, 100), .completed(10)])
        let observer = scheduler.createObserver(Int.self)
        let recovered = scheduler.createObserver(Int.self)
        var received: Error?
        SharingScheduler.mock(scheduler: scheduler) {
            let other = fallback.asDriver(onErrorJustReturn: 0)
            let driver = source.asDriver(onErrorDriveWith: other)
            // Shared sequences take the scheduler when they are made, so the recovery
            // driver is made here, inside the mock, not in the handler.
            let replacement = Driver.just(7)
            let recovering = source.asDriver(onErrorRecover: { error in
                received = error
                return replacement
            })
            scheduler.scheduleAt(200) {
                _ = driver.asObservable().subscribe(observer)
                _ = recovering.asObservable().subscribe(recovered)
            }
        }
        scheduler.start()
        #expect(observer.events == [.next(210, 1), .next(225, 100), .completed(230)])
        #expect(fallback.subscriptions == [Subscription(220, 230)])
        #expect(recovered.events == [.next(210, 1), .next(220, 7), .completed(220)])
        #expect(source.subscriptions == [Subscription(200, 220), Subscription(200, 220)])
        #expect(received is TestError)
    }

    @Test("asSignal(onErrorSignalWith:), asSignal(onErrorRecover:) and asSharedSequence")
    func signalRecovery() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let withOther = scheduler.createObserver(Int.self)
        let recovered = scheduler.createObserver(Int.self)
        let generic = scheduler.createObserver(Int.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let first = source.asSignal(onErrorSignalWith: Signal.just(5))
            let replacement = Signal.of(8, 9)
            let second = source.asSignal(onErrorRecover: { _ in replacement })
            let third = source.asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorJustReturn: -1)
            scheduler.scheduleAt(200) {
                _ = first.emit(to: withOther)
                _ = second.emit(to: recovered)
                _ = third.asObservable().subscribe(generic)
            }
        }
        scheduler.start()
        #expect(withOther.events == [.next(210, 1), .next(220, 5), .completed(220)])
        #expect(recovered.events == [.next(210, 1), .next(220, 8), .next(220, 9), .completed(220)])
        #expect(generic.events == [.next(210, 1), .next(220, -1), .completed(220)])
    }

    @Test("SharingScheduler.mock restores the previous scheduler, also after a throw")
    func mockRestores() throws {
        let before = SharingScheduler.make()
        #expect(before is MainScheduler)
        let scheduler = TestScheduler(initialClock: 0)
        var inside: SchedulerType?
        SharingScheduler.mock(scheduler: scheduler) {
            inside = DriverSharingStrategy.scheduler
            #expect(SignalSharingStrategy.scheduler as? TestScheduler === scheduler)
        }
        #expect(inside as? TestScheduler === scheduler)
        #expect(SharingScheduler.make() is MainScheduler)
        #expect(throws: TestError.self) {
            try SharingScheduler.mock(scheduler: scheduler) {
                #expect(SharingScheduler.make() as? TestScheduler === scheduler)
                throw testError
            }
        }
        #expect(SharingScheduler.make() is MainScheduler)
        var made = 0
        SharingScheduler.mock(makeScheduler: {
            made += 1
            return scheduler
        }) {
            _ = DriverSharingStrategy.scheduler
            _ = DriverSharingStrategy.scheduler
        }
        #expect(made == 2)
    }

    @Test("mocks on different threads at once each see only their own scheduler")
    func mocksAreIsolated() {
        let schedulers = (0..<8).map { _ in TestScheduler(initialClock: 0) }
        let mismatches = LockedBox(0)
        DispatchQueue.concurrentPerform(iterations: schedulers.count) { index in
            let own = schedulers[index]
            for _ in 0..<200 {
                SharingScheduler.mock(scheduler: own) {
                    if (SharingScheduler.make() as? TestScheduler) !== own { mismatches.increment() }
                }
                if SharingScheduler.make() is TestScheduler { mismatches.increment() }
            }
        }
        #expect(mismatches.value == 0)
    }

    @Test("just, empty, never, of, from, deferred deliver on the strategy's scheduler")
    func factories() {
        /// Makes and subscribes the sequence inside the mock, on a fresh scheduler.
        func run<S>(_ make: () -> SharedSequence<S, Int>) -> [Recorded<Event<Int>>] {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.createObserver(Int.self)
            SharingScheduler.mock(scheduler: scheduler) {
                _ = make().asObservable().subscribe(observer)
            }
            scheduler.start()
            return observer.events
        }
        #expect(run { Driver.just(1) } == [.next(1, 1), .completed(1)])
        #expect(run { Driver<Int>.empty() } == [.completed(1)])
        #expect(run { Driver<Int>.never() } == [])
        #expect(run { Signal.of(1, 2) } == [.next(1, 1), .next(2, 2), .completed(3)])
        #expect(run { Driver.from([3, 4]) } == [.next(1, 3), .next(2, 4), .completed(3)])
        #expect(run { Driver.from(3...4) } == [.next(1, 3), .next(2, 4), .completed(3)])
        #expect(run { Driver.from(optional: 5) } == [.next(1, 5), .completed(2)])
        #expect(run { Driver<Int>.from(optional: nil) } == [.completed(1)])
        #expect(run { Driver.deferred { Driver.just(6) } } == [.next(1, 6), .completed(1)])
    }

    @Test("interval and timer on the strategy's scheduler")
    func timers() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        let timerObserver = scheduler.createObserver(Int.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let interval = Driver<Int>.interval(.seconds(10))
            let timer = Signal<Int>.timer(.seconds(5), period: .seconds(20))
            scheduler.scheduleAt(0) { _ = interval.asObservable().take(3).subscribe(observer) }
            scheduler.scheduleAt(0) { _ = timer.asObservable().take(2).subscribe(timerObserver) }
        }
        scheduler.start()
        #expect(observer.events == [.next(10, 0), .next(20, 1), .next(30, 2), .completed(30)])
        #expect(timerObserver.events == [.next(5, 0), .next(25, 1), .completed(25)])
    }

    @Test("BehaviorRelay.asDriver, PublishRelay.asSignal and Infallible.asDriver")
    func relayConversions() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let bag = DisposeBag()
        let behavior = BehaviorRelay(value: 0)
        let publish = PublishRelay<Int>()
        let driverObserver = scheduler.createObserver(Int.self)
        let signalObserver = scheduler.createObserver(Int.self)
        let infallibleObserver = scheduler.createObserver(Int.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = behavior.asDriver()
            let signal = publish.asSignal()
            let infallible = Infallible.of(7, 8).asDriver()
            scheduler.scheduleAt(100) {
                driver.asObservable().subscribe(driverObserver).disposed(by: bag)
                signal.emit(to: signalObserver).disposed(by: bag)
                infallible.asObservable().subscribe(infallibleObserver).disposed(by: bag)
            }
        }
        scheduler.scheduleAt(110) {
            behavior.accept(1)
            publish.accept(10)
        }
        scheduler.start()
        #expect(driverObserver.events == [.next(100, 0), .next(110, 1)])
        #expect(signalObserver.events == [.next(110, 10)])
        #expect(infallibleObserver.events == [.next(100, 7), .next(100, 8), .completed(100)])
    }

    @Test("emit to relays and handlers")
    func emitForms() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let behavior = BehaviorRelay(value: 0)
        let optionalBehavior = BehaviorRelay<Int?>(value: nil)
        let publish = PublishRelay<Int>()
        let optionalPublish = PublishRelay<Int?>()
        let replay = ReplayRelay<Int>.createUnbound()
        let optionalReplay = ReplayRelay<Int?>.createUnbound()
        let optionalObserver = scheduler.createObserver(Int?.self)
        let published = scheduler.createObserver(Int.self)
        var log: [String] = []
        let owner = Owner()
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = source.asSignal(onErrorJustReturn: -1)
            _ = publish.subscribe(published)
            scheduler.scheduleAt(200) {
                _ = signal.emit(to: behavior)
                _ = signal.emit(to: optionalBehavior)
                _ = signal.emit(to: publish)
                _ = signal.emit(to: optionalPublish)
                _ = signal.emit(to: replay)
                _ = signal.emit(to: optionalReplay)
                _ = signal.emit(to: optionalObserver)
                _ = signal.emit(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
                _ = signal.emit(with: owner, onNext: { object, value in
                    #expect(object === owner)
                    log.append("with \(value)")
                })
                _ = signal.emit()
            }
        }
        scheduler.start()
        #expect(behavior.value == 2)
        #expect(optionalBehavior.value == 2)
        #expect(published.events == [.next(210, 1), .next(220, 2)])
        var replayed: [Int] = []
        let bag = DisposeBag()
        replay.subscribe(onNext: { replayed.append($0) }).disposed(by: bag)
        #expect(replayed == [1, 2])
        var optionalReplayed: [Int?] = []
        optionalReplay.subscribe(onNext: { optionalReplayed.append($0) }).disposed(by: bag)
        #expect(optionalReplayed == [1, 2])
        #expect(optionalObserver.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(log == ["next 1", "with 1", "next 2", "with 2", "completed", "disposed"])
    }

    @Test("operators keep the sharing strategy")
    func operators() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 1), .next(230, 2), .next(240, 3), .next(250, 4), .completed(260),
        ])
        let observer = scheduler.createObserver(String.self)
        var subscriptions = 0
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = xs.do(onSubscribe: { subscriptions += 1 }).asDriver(onErrorJustReturn: 0)
            let result: Driver<String> = driver
                .distinctUntilChanged()
                .filter { $0 != 3 }
                .map { $0 * 10 }
                .compactMap { $0 == 40 ? nil : $0 }
                .scan(0, accumulator: +)
                .startWith(-1)
                .skip(1)
                .do(onNext: { _ in })
                .map { "\($0)" }
            scheduler.scheduleAt(200) {
                _ = result.asObservable().subscribe(observer)
                _ = result.asObservable().subscribe { _ in }
            }
        }
        scheduler.start()
        #expect(observer.events == [.next(210, "10"), .next(230, "30"), .completed(260)])
        #expect(subscriptions == 1)
    }

    @Test("debounce, throttle and delay run on the strategy's scheduler")
    func timeOperators() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3), .completed(300)])
        let debounced = scheduler.createObserver(Int.self)
        let delayed = scheduler.createObserver(Int.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = xs.asDriver(onErrorJustReturn: 0)
            let debounce = driver.debounce(.seconds(10))
            let delay = driver.delay(.seconds(5))
            scheduler.scheduleAt(200) {
                _ = debounce.asObservable().subscribe(debounced)
                _ = delay.asObservable().subscribe(delayed)
            }
        }
        scheduler.start()
        #expect(debounced.events == [.next(225, 2), .next(250, 3), .completed(300)])
        #expect(delayed.events == [.next(215, 1), .next(220, 2), .next(245, 3), .completed(305)])
    }

    @Test("combineLatest and zip of drivers, 2 sources and collections")
    func combining() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
        let ys = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(250)])
        let combined = scheduler.createObserver(Int.self)
        let tupled = scheduler.createObserver(String.self)
        let zipped = scheduler.createObserver(Int.self)
        let arrays = scheduler.createObserver([Int].self)
        SharingScheduler.mock(scheduler: scheduler) {
            let a = xs.asDriver(onErrorJustReturn: 0)
            let b = ys.asDriver(onErrorJustReturn: 0)
            let sum = Driver.combineLatest(a, b) { $0 + $1 }
            let tuple = Driver.combineLatest(a, b).map { "\($0.0)-\($0.1)" }
            let zip = Driver.zip(a, b) { $0 + $1 }
            let collection = Driver.combineLatest([a, b])
            scheduler.scheduleAt(200) {
                _ = sum.asObservable().subscribe(combined)
                _ = tuple.asObservable().subscribe(tupled)
                _ = zip.asObservable().subscribe(zipped)
                _ = collection.asObservable().subscribe(arrays)
            }
        }
        scheduler.start()
        #expect(combined.events == [.next(220, 11), .next(230, 12), .next(240, 22), .completed(260)])
        #expect(tupled.events == [.next(220, "1-10"), .next(230, "2-10"), .next(240, "2-20"), .completed(260)])
        #expect(zipped.events == [.next(220, 11), .next(240, 22), .completed(260)])
        #expect(arrays.events == [.next(220, [1, 10]), .next(230, [2, 10]), .next(240, [2, 20]), .completed(260)])
    }

    @Test("values streams a shared sequence and ends with it")
    func values() async throws {
        var signal: Signal<Int>!
        SharingScheduler.mock(scheduler: SerialDispatchQueueScheduler(qos: .default)) {
            signal = Signal.from([1, 2, 3])
        }
        let values = signal.values
        let collect = Task {
            var collected: [Int] = []
            for await value in values { collected.append(value) }
            return collected
        }
        defer { collect.cancel() }
        let collected = try await runBounded(seconds: 5) { await collect.value }
        #expect(collected == [1, 2, 3])
    }
}

