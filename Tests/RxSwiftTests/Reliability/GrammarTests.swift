import Dispatch
import RivuletTestSupport
import RxSwift
import RxTest
import Testing
import XCTest

@Suite("The Rx grammar", .rxLeakCheck)
struct GrammarTests {
    @Test("create drops everything after the first terminal event", .rxLeakCheck(.leaksOnly))
    func nothingAfterTerminal() {
        let scheduler = TestScheduler(initialClock: 0)
        let result = scheduler.start {
            Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onCompleted()
                observer.onNext(2)
                observer.onError(testError)
                observer.onCompleted()
                return Disposables.create()
            }
        }
        #expect(result.events == [.next(200, 1), .completed(200)])
    }

    @Test("an error ends the sequence once", .rxLeakCheck(.leaksOnly))
    func terminalOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let result = scheduler.start {
            Observable<Int>.create { observer in
                observer.onError(testError)
                observer.onError(TestError(code: 2))
                return Disposables.create()
            }
        }
        #expect(result.events == [.error(200, testError)])
    }

    @Test("nothing arrives after dispose, and dispose runs the subscription's disposable once")
    func nothingAfterDispose() {
        let subject = PublishSubject<Int>()
        let disposals = LockedBox(0)
        var received: [Int] = []
        let subscription = Observable<Int>.create { observer in
            let inner = subject.subscribe(observer)
            return Disposables.create {
                disposals.increment()
                inner.dispose()
            }
        }
        .map { $0 * 10 }
        .subscribe(onNext: { received.append($0) })
        subject.onNext(1)
        subscription.dispose()
        subscription.dispose()
        subject.onNext(2)
        #expect(received == [10])
        #expect(disposals.value == 1)
        #expect(!subject.hasObservers)
    }

    @Test("a synchronous terminal event during subscribe disposes the upstream at once")
    func synchronousTermination() {
        let disposals = LockedBox(0)
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            return Disposables.create { disposals.increment() }
        }
        var events: [Event<Int>] = []
        _ = source.map { $0 }.filter { _ in true }.subscribe { events.append($0) }
        #expect(events == [.next(1), .completed])
        #expect(disposals.value == 1)
    }

    @Test("subscribe(onNext:...) calls onDisposed once after a terminal event")
    func onDisposedAfterTerminal() {
        let disposed = LockedBox(0)
        var completed = false
        let subscription = Observable.of(1, 2).subscribe(onCompleted: { completed = true }, onDisposed: { disposed.increment() })
        #expect(completed)
        #expect(disposed.value == 1)
        subscription.dispose()
        #expect(disposed.value == 1)
    }

    @Test("subscribe(with:) skips the handlers once the object is gone")
    func subscribeWithObject() {
        var owner: Owner? = Owner()
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.subscribe(with: owner!, onNext: { _, value in received.append(value) })
        subject.onNext(1)
        owner = nil
        subject.onNext(2)
        #expect(received == [1])
        subscription.dispose()
    }

    @Test("a thrown error in map becomes an error event and disposes the source")
    func throwingClosure() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let result = scheduler.start {
            xs.map { value -> Int in
                if value == 2 { throw testError }
                return value
            }
        }
        #expect(result.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test("take(1) stops an endless synchronous source nested in other operators")
    func endlessSource() throws {
        var received: [Int] = []
        _ = Observable.repeatElement(5).filter { $0 > 0 }.map { $0 + 1 }.take(2).subscribe(onNext: { received.append($0) })
        #expect(received == [6, 6])
    }
}

/// Tests of process-wide state (hooks, resource counts): XCTest runs them one at a
/// time, apart from the parallel Swift Testing suites.
final class GlobalStateTests: LeakCheckingTestCase {
    func testUnhandledErrorGoesToTheDefaultErrorHandler() {
        // The unhandled error is the point of this test: check leaks only.
        rxCheckOptions = .leaksOnly
        let handled = LockedBox(0)
        let previous = Hooks.defaultErrorHandler
        Hooks.defaultErrorHandler = { _, _ in handled.increment() }
        defer { Hooks.defaultErrorHandler = previous }
        _ = Observable<Int>.error(testError).subscribe(onNext: { _ in })
        XCTAssertEqual(handled.value, 1)
    }

    func testResourcesReturnToTheirBaseline() {
        let before = Resources.total
        do {
            let subject = PublishSubject<Int>()
            let subscription = subject.map { $0 }.filter { _ in true }.subscribe(onNext: { _ in })
            subject.onNext(1)
            XCTAssertGreaterThan(Resources.total, before)
            subscription.dispose()
        }
        XCTAssertEqual(Resources.total, before)
    }
}
