import Foundation
import RivuletTestSupport
import RxBlocking
import RxSwift
import RxTest
import Testing

// The declarations RxSwift 6.10 has that Rivulet added to match it, each tested in
// virtual time: Single and Maybe flat maps, `Reactive`, the Infallible arity shapes,
// flatMapLatest to an Infallible, and the behaviour fixes of subscribe(on:) and of
// awaiting a trait in a cancelled task.

@Suite("Single and Maybe flat maps")
struct PrimitiveSequenceFlatMapTests {
    @Test("Single.flatMap subscribes the inner single at the element and succeeds with its element")
    func singleFlatMapCold() {
        let scheduler = TestScheduler(initialClock: 0)
        let outer = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let inner = scheduler.createColdObservable([.next(20, 100), .completed(20)])
        let result = scheduler.start {
            outer.asSingle().flatMap { value in inner.map { $0 + value }.asSingle() }.asObservable()
        }
        #expect(result.events == [.next(230, 101), .completed(230)])
        #expect(outer.subscriptions == [Subscription(200, 210)])
        #expect(inner.subscriptions == [Subscription(210, 230)])
    }

    @Test("Single.flatMap over hot sources: an inner error fails it, and the inner subscription ends there")
    func singleFlatMapInnerError() {
        let scheduler = TestScheduler(initialClock: 0)
        let outer = scheduler.createHotObservable([.next(210, 1), .completed(210)])
        let inner = scheduler.createHotObservable([.error(250, TestError(code: 1))] as [Recorded<Event<Int>>])
        let result = scheduler.start { outer.asSingle().flatMap { _ in inner.asSingle() }.asObservable() }
        #expect(result.events == [.error(250, TestError(code: 1))])
        #expect(outer.subscriptions == [Subscription(200, 210)])
        #expect(inner.subscriptions == [Subscription(210, 250)])
    }

    @Test("Single.flatMap: an outer error or a thrown selector error fails it without an inner subscription")
    func singleFlatMapOuterErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createHotObservable([.error(220, TestError(code: 2))] as [Recorded<Event<Int>>])
        let inner = scheduler.createColdObservable([.next(5, 9), .completed(5)])
        let result = scheduler.start { failing.asSingle().flatMap { _ in inner.asSingle() }.asObservable() }
        #expect(result.events == [.error(220, TestError(code: 2))])
        #expect(inner.subscriptions == [])

        let throwing = TestScheduler(initialClock: 0)
        let outer = throwing.createHotObservable([.next(230, 1), .completed(230)])
        let thrown = throwing.start { outer.asSingle().flatMap { _ -> Single<Int> in throw TestError(code: 3) }.asObservable() }
        #expect(thrown.events == [.error(230, TestError(code: 3))])
        #expect(outer.subscriptions == [Subscription(200, 230)])
    }

    @Test("Single.flatMap disposed before the inner single ends unsubscribes the inner one then")
    func singleFlatMapDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let outer = scheduler.createHotObservable([.next(210, 1), .completed(210)])
        let inner = scheduler.createColdObservable([.next(100, 7), .completed(100)])
        let result = scheduler.start(disposed: 260) { outer.asSingle().flatMap { _ in inner.asSingle() }.asObservable() }
        #expect(result.events == [])
        #expect(inner.subscriptions == [Subscription(210, 260)])
    }

    @Test("Single.flatMapMaybe ends as the maybe does: with its element, or empty")
    func singleFlatMapMaybe() {
        let scheduler = TestScheduler(initialClock: 0)
        let outer = scheduler.createHotObservable([.next(210, 2), .completed(210)])
        let empty = scheduler.createColdObservable([.completed(15)] as [Recorded<Event<Int>>])
        let result = scheduler.start { outer.asSingle().flatMapMaybe { _ in empty.asMaybe() }.asObservable() }
        #expect(result.events == [.completed(225)])
        #expect(empty.subscriptions == [Subscription(210, 225)])

        let other = TestScheduler(initialClock: 0)
        let source = other.createHotObservable([.next(210, 2), .completed(210)])
        let present = other.start { source.asSingle().flatMapMaybe { Maybe.just($0 * 10) }.asObservable() }
        #expect(present.events == [.next(210, 20), .completed(210)])
    }

    @Test("Single.flatMapCompletable completes or fails as the completable does")
    func singleFlatMapCompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        let outer = scheduler.createHotObservable([.next(210, 2), .completed(210)])
        let work = scheduler.createColdObservable([.completed(30)] as [Recorded<Event<Never>>])
        let result = scheduler.start { outer.asSingle().flatMapCompletable { _ in work.asCompletable() }.asObservable() }
        #expect(result.events == [.completed(240)])
        #expect(work.subscriptions == [Subscription(210, 240)])

        let failing = TestScheduler(initialClock: 0)
        let source = failing.createHotObservable([.next(210, 2), .completed(210)])
        let failed = failing.start { source.asSingle().flatMapCompletable { _ in Completable.error(TestError(code: 4)) }.asObservable() }
        #expect(failed.events == [.error(210, TestError(code: 4))])
    }

    @Test("Maybe.flatMap: an empty source completes empty without calling the selector; an element goes through the inner maybe")
    func maybeFlatMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        var calls = 0
        let result = scheduler.start { empty.asMaybe().flatMap { value -> Maybe<Int> in calls += 1; return .just(value) }.asObservable() }
        #expect(result.events == [.completed(220)])
        #expect(calls == 0)
        #expect(empty.subscriptions == [Subscription(200, 220)])

        let other = TestScheduler(initialClock: 0)
        let outer = other.createHotObservable([.next(230, 3), .completed(230)])
        let inner = other.createColdObservable([.next(10, 30), .completed(10)])
        let present = other.start { outer.asMaybe().flatMap { _ in inner.asMaybe() }.asObservable() }
        #expect(present.events == [.next(240, 30), .completed(240)])
        #expect(inner.subscriptions == [Subscription(230, 240)])
    }
}

private final class Thermostat: ReactiveCompatible {
    var target = 0
    var log: [Int] = []
}

extension Reactive where Base: Thermostat {
    /// A user's own binder, written as RxSwift code writes one.
    var reading: Binder<Int> {
        Binder(base, scheduler: CurrentThreadScheduler.instance) { thermostat, value in thermostat.log.append(value) }
    }

    static var kind: String { "thermostat" }
}

private final class Label: NSObject {
    var text = ""
}

@Suite("Reactive and ReactiveCompatible")
struct ReactiveTests {
    @Test("a user's extension of Reactive binds elements at their virtual times")
    func userExtension() {
        let scheduler = TestScheduler(initialClock: 0)
        let readings = scheduler.createHotObservable([.next(210, 18), .next(220, 21), .completed(230)])
        let thermostat = Thermostat()
        var seen: [TestTime] = []
        _ = scheduler.scheduleAbsoluteVirtual((), time: 200) { _ in
            readings.do(onNext: { _ in seen.append(scheduler.clock) }).subscribe(thermostat.rx.reading)
        }
        scheduler.start()
        #expect(thermostat.log == [18, 21])
        #expect(seen == [210, 220])
        #expect(readings.subscriptions == [Subscription(200, 230)])
        #expect(Thermostat.rx.kind == "thermostat")
        #expect(thermostat.rx.base === thermostat)
    }

    @Test("a writable property is a binder through dynamic member lookup: it writes on the main queue and holds its object weakly")
    func dynamicMemberBinder() async {
        var label: Label? = Label()
        weak let released = label
        let subject = PublishSubject<String>()
        let subscription = subject.subscribe(label!.rx.text)
        subject.onNext("ready")
        await mainQueueDrained()
        #expect(label?.text == "ready")
        let binder = label!.rx.text
        label = nil
        #expect(released == nil)
        binder.onNext("after release")
        await mainQueueDrained()
        subscription.dispose()
        #expect(subject.hasObservers == false)
    }

    /// Returns once the main queue ran everything queued on it before the call.
    private func mainQueueDrained() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume() }
        }
    }

    @Test("every NSObject has an rx namespace")
    func nsObjectNamespace() {
        let object = NSObject()
        #expect(object.rx.base === object)
        #expect(NSObject.rx == Reactive<NSObject>.self)
    }
}

@Suite("Infallible arity shapes and flatMapLatest to an Infallible")
struct InfallibleShapeTests {
    @Test("zip with a result selector takes Infallibles, and pairs elements at the later one's time")
    func zipSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let left = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let right = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(250)])
        let result = scheduler.start {
            Infallible.zip(left.asInfallible(onErrorJustReturn: 0), right.asInfallible(onErrorJustReturn: 0)) { $0 + $1 }.asObservable()
        }
        #expect(result.events == [.next(220, 11), .next(240, 22), .completed(300)])
        #expect(left.subscriptions == [Subscription(200, 300)])
        #expect(right.subscriptions == [Subscription(200, 250)])
    }

    @Test("combineLatest's tuple and collection forms are declared on InfallibleType")
    func combineLatestForms() {
        func tuple<I: InfallibleType>(_ type: I.Type, _ a: Infallible<Int>, _ b: Infallible<String>) -> Infallible<(Int, String)> where I.Element == Any {
            I.combineLatest(a, b)
        }
        let scheduler = TestScheduler(initialClock: 0)
        let numbers = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let names = scheduler.createHotObservable([.next(220, "a")])
        let result = scheduler.start(disposed: 400) {
            tuple(Infallible<Any>.self, numbers.asInfallible(onErrorJustReturn: 0), names.asInfallible(onErrorJustReturn: ""))
                .map { "\($0)\($1)" }.asObservable()
        }
        #expect(result.events == [.next(220, "1a"), .next(230, "2a")])
        #expect(numbers.subscriptions == [Subscription(200, 400)])

        let arrays = TestScheduler(initialClock: 0)
        let first = arrays.createHotObservable([.next(210, 1), .completed(260)])
        let second = arrays.createHotObservable([.next(220, 2), .completed(270)])
        let latest = arrays.start {
            Infallible.combineLatest([first.asInfallible(onErrorJustReturn: 0), second.asInfallible(onErrorJustReturn: 0)]).asObservable()
        }
        #expect(latest.events == [.next(220, [1, 2]), .completed(270)])
    }

    @Test("flatMapLatest to an Infallible is an Infallible that follows the latest inner one")
    func flatMapLatestToInfallible() {
        let scheduler = TestScheduler(initialClock: 0)
        let outer = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        let first = scheduler.createColdObservable([.next(10, "a"), .next(40, "b")])
        let second = scheduler.createColdObservable([.next(10, "c"), .completed(20)])
        let result = scheduler.start {
            let switched: Infallible<String> = outer.flatMapLatest { value -> Infallible<String> in
                (value == 1 ? first : second).asInfallible(onErrorJustReturn: "")
            }
            return switched.asObservable()
        }
        #expect(result.events == [.next(220, "a"), .next(250, "c"), .completed(300)])
        #expect(first.subscriptions == [Subscription(210, 240)])
        #expect(second.subscriptions == [Subscription(240, 260)])
        #expect(outer.subscriptions == [Subscription(200, 300)])
    }
}

@Suite("subscribe(on:) disposal and awaiting in a cancelled task, as in RxSwift")
struct SchedulingBehaviourTests {
    @Test("subscribe(on:) unsubscribes a source that completes one tick later, on the scheduler")
    func subscribeOnCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let result = scheduler.start { xs.subscribe(on: scheduler) }
        #expect(result.events == [.next(210, 1), .completed(300)])
        #expect(xs.subscriptions == [Subscription(201, 301)])
    }

    @Test("subscribe(on:) unsubscribes a source that fails one tick later, on the scheduler")
    func subscribeOnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(300, TestError(code: 5))])
        let result = scheduler.start { xs.subscribe(on: scheduler) }
        #expect(result.events == [.next(210, 1), .error(300, TestError(code: 5))])
        #expect(xs.subscriptions == [Subscription(201, 301)])
    }

    @Test("a cold source under subscribe(on:) is subscribed and unsubscribed a tick after each cause")
    func subscribeOnCold() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(50)])
        let result = scheduler.start { xs.subscribe(on: scheduler) }
        #expect(result.events == [.next(211, 1), .completed(251)])
        #expect(xs.subscriptions == [Subscription(201, 252)])
    }

    @Test("in a task cancelled before it awaits, an outcome given at subscription is returned")
    func cancelledTaskGetsImmediateOutcome() async throws {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            let maybe = try await Maybe<Int>.empty().value
            try await Completable.empty().value
            let single = try await Single.just(5).value
            let present = try await Maybe.just(6).value
            return (maybe, single, present)
        }
        let (maybe, single, present) = try await task.value
        #expect(maybe == nil)
        #expect(single == 5)
        #expect(present == 6)
    }

    @Test("in a task cancelled before it awaits, a sequence with no immediate outcome throws CancellationError and is disposed")
    func cancelledTaskWithoutOutcome() async {
        let subject = PublishSubject<Int>()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await subject.asMaybe().value
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(subject.hasObservers == false)
    }

    @Test("an error given at subscription in a cancelled task is thrown as that error")
    func cancelledTaskGetsImmediateError() async {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await Completable.error(TestError(code: 6)).value
        }
        await #expect(throws: TestError(code: 6)) { try await task.value }
    }
}

@Suite("Smaller RxSwift declarations")
struct SmallerDeclarationTests {
    @Test("AsyncSequence.asObservable(priority:) emits the sequence's elements and completes")
    func asyncSequencePriority() throws {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let values = try stream.asObservable(priority: .high).toBlocking(timeout: 5).toArray()
        #expect(values == [1, 2, 3])
    }

    @Test("maxTailRecursiveSinkStackSize records the deepest nesting of concatenations")
    func concatDepth() throws {
        maxTailRecursiveSinkStackSize = 0
        let flat = Observable.concat([Observable.just(1), Observable.just(2)])
        #expect(try flat.toBlocking().toArray() == [1, 2])
        let flatDepth = maxTailRecursiveSinkStackSize
        let nested = Observable.concat([Observable.concat([Observable.concat([Observable.just(1)]), Observable.just(2)]), Observable.just(3)])
        #expect(try nested.toBlocking().toArray() == [1, 2, 3])
        #expect(maxTailRecursiveSinkStackSize > flatDepth)
        #expect(maxTailRecursiveSinkStackSize == 3)
    }

    @Test("a DisposeBag is a DisposeBase, and still disposes what it holds when released")
    func disposeBase() {
        var disposed = false
        var bag: DisposeBag? = DisposeBag()
        let base: DisposeBase? = bag
        #expect(base is DisposeBag)
        bag?.insert(Disposables.create { disposed = true })
        bag = nil
        #expect(disposed == false)
        _ = base
    }

    @Test("RxObservable and the schedulers' time types are RxSwift's")
    func typeNames() throws {
        let observable: RxObservable<Int> = .just(1)
        #expect(try observable.toBlocking().toArray() == [1])
        let interval: SerialDispatchQueueScheduler.TimeInterval = 1.5
        let time: ConcurrentDispatchQueueScheduler.Time = Date(timeIntervalSince1970: interval)
        let main: ConcurrentMainScheduler.TimeInterval = interval
        #expect(time.timeIntervalSince1970 == main)
    }
}
