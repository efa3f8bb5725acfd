import Foundation
import RivuletTestSupport
import RxBlocking
import RxCocoa
import RxSwift
import RxTest
import XCTest

/// `drive` may only be called on the main thread, and `MainScheduler` delivers at once
/// there; on Linux only XCTest runs tests on the main thread, hence XCTest here.
final class DriverTests: LeakCheckingTestCase {
    func testDriveDeliversAtOnceOnTheMainThread() {
        XCTAssertTrue(Thread.isMainThread)
        let relay = BehaviorRelay(value: 1)
        var received: [Int] = []
        let subscription = relay.asDriver().drive(onNext: { received.append($0) })
        XCTAssertEqual(received, [1])
        relay.accept(2)
        XCTAssertEqual(received, [1, 2])
        subscription.dispose()
        relay.accept(3)
        XCTAssertEqual(received, [1, 2])
    }

    func testDriveToObserversAndOptionalObservers() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let optional = scheduler.createObserver(Int?.self)
        let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, testError)])
        let driver = source.asDriver(onErrorJustReturn: -1)
        let bag = DisposeBag()
        driver.drive(first, second).disposed(by: bag)
        driver.drive(optional).disposed(by: bag)
        scheduler.start()
        let expected: [Recorded<Event<Int>>] = [.next(10, 1), .next(20, 2), .next(30, -1), .completed(30)]
        XCTAssertEqual(first.events, expected)
        XCTAssertEqual(second.events, expected)
        XCTAssertEqual(optional.events, [.next(10, Optional(1)), .next(20, Optional(2)), .next(30, Optional(-1)), .completed(30)])
        XCTAssertEqual(source.subscriptions, [Subscription(0, 30)])
    }

    func testDriveToRelays() {
        let source = PublishRelay<Int>()
        let driver = source.asDriver(onErrorJustReturn: 0)
        let behavior = BehaviorRelay(value: 0)
        let optionalBehavior = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int>.createUnbound()
        let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 1)
        let bag = DisposeBag()
        driver.drive(behavior).disposed(by: bag)
        driver.drive(optionalBehavior).disposed(by: bag)
        driver.drive(replay).disposed(by: bag)
        driver.drive(optionalReplay).disposed(by: bag)
        source.accept(1)
        source.accept(2)
        XCTAssertEqual(behavior.value, 2)
        XCTAssertEqual(optionalBehavior.value, 2)
        XCTAssertEqual(try replay.asObservable().take(2).toBlocking(timeout: 1).toArray(), [1, 2])
        XCTAssertEqual(try optionalReplay.asObservable().toBlocking(timeout: 1).first(), Optional(Optional(2)))
    }

    func testDriveHandlers() {
        let source = PublishRelay<Int>()
        let driver = source.asDriver(onErrorJustReturn: 0)
        var log: [String] = []
        let owner = Owner()
        let plain = driver.drive(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
        let withOwner = driver.drive(with: owner, onNext: { object, value in
            XCTAssertTrue(object === owner)
            log.append("with \(value)")
        }, onDisposed: { _ in log.append("with disposed") })
        let silent = driver.drive()
        source.accept(5)
        plain.dispose()
        withOwner.dispose()
        silent.dispose()
        XCTAssertEqual(log, ["next 5", "with 5", "disposed", "with disposed"])

        let completing = Observable.of(1, 2).asDriver(onErrorJustReturn: 0)
        log = []
        _ = completing.drive(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
        XCTAssertEqual(log, ["next 1", "next 2", "completed", "disposed"])
    }

    func testDriveWithTransformations() {
        // A relay's driver delivers synchronously on the main thread (`Driver.of` would
        // deliver its later elements through the main queue).
        let relay = ReplayRelay<Int>.createUnbound()
        [1, 2, 3].forEach(relay.accept)
        let driver = relay.asObservable().asDriver(onErrorJustReturn: 0)
        let count = driver.drive { (observable: Observable<Int>) -> Int in
            var total = 0
            observable.subscribe(onNext: { total += $0 }).dispose()
            return total
        }
        XCTAssertEqual(count, 6)
        let curried = driver.drive({ (observable: Observable<Int>) in { (offset: Int) -> [Int] in
            var values: [Int] = []
            observable.subscribe(onNext: { values.append($0 + offset) }).dispose()
            return values
        } }, curriedArgument: 100)
        XCTAssertEqual(curried, [101, 102, 103])

        // While a subscription is connected, a new one receives only the replayed latest.
        let connected = driver.drive()
        var late: [Int] = []
        driver.drive(onNext: { late.append($0) }).dispose()
        connected.dispose()
        XCTAssertEqual(late, [3])
    }

    func testBlockingFirstOfADriver() throws {
        let relay = BehaviorRelay(value: 4)
        let text = relay.asDriver().map { "\($0)" }
        XCTAssertEqual(try text.toBlocking().first(), "4")
        XCTAssertEqual(try relay.asDriver().toBlocking(timeout: 1).first(), 4)
        XCTAssertEqual(try Driver.just("x").toBlocking(timeout: 1).toArray(), ["x"])
    }

    func testDriverFromABackgroundSourceDeliversOnTheMainThread() throws {
        let background = ConcurrentDispatchQueueScheduler(qos: .default)
        let driver = Observable.of(1, 2, 3).subscribe(on: background).asDriver(onErrorJustReturn: 0)
        let threads = LockedBox<[Bool]>([])
        let values = try driver.asObservable()
            .do(onNext: { _ in threads.mutate { $0.append(Thread.isMainThread) } })
            .toBlocking(timeout: 5)
            .toArray()
        XCTAssertEqual(values, [1, 2, 3])
        XCTAssertEqual(threads.value, [true, true, true])
    }

    func testSignalFromAPublishRelayDoesNotReplay() {
        let relay = PublishRelay<Int>()
        let signal = relay.asSignal()
        var first: [Int] = []
        var second: [Int] = []
        let a = signal.emit(onNext: { first.append($0) })
        relay.accept(1)
        let b = signal.emit(onNext: { second.append($0) })
        relay.accept(2)
        a.dispose()
        b.dispose()
        XCTAssertEqual(first, [1, 2])
        XCTAssertEqual(second, [2])
    }

    func testBinderDefaultsToTheMainScheduler() {
        final class Label { var text = "" }
        let label = Label()
        let binder = Binder(label) { label, text in label.text = text }
        _ = Observable.just("hello").subscribe(binder)
        XCTAssertEqual(label.text, "hello")
    }
}
