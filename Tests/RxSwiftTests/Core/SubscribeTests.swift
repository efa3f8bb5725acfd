import Dispatch
import RivuletTestSupport
import RxSwift
import RxTest
import Testing
import XCTest

/// A source whose subscription logs its disposal, for ordering checks.
private func loggedSource(_ log: @escaping (String) -> Void, subject: PublishSubject<Int>) -> Observable<Int> {
    Observable<Int>.create { observer in
        let inner = subject.subscribe(observer)
        return Disposables.create {
            log("upstream disposed")
            inner.dispose()
        }
    }
}

@Suite("subscribe(onNext:onError:onCompleted:onDisposed:)", .rxLeakCheck)
struct SubscribeTests {
    @Test("disposing runs the upstream's disposal first, then onDisposed, each once")
    func disposeOrder() {
        var log: [String] = []
        let subject = PublishSubject<Int>()
        let subscription = loggedSource({ log.append($0) }, subject: subject)
            .map { $0 + 1 }
            .subscribe(onNext: { log.append("next \($0)") }, onDisposed: { log.append("onDisposed") })
        subject.onNext(1)
        subscription.dispose()
        subscription.dispose()
        subject.onNext(2)
        #expect(log == ["next 2", "upstream disposed", "onDisposed"])
        #expect(!subject.hasObservers)
    }

    @Test("without onDisposed, disposing still disposes the upstream once and stops the elements")
    func disposeWithoutOnDisposed() {
        var log: [String] = []
        let subject = PublishSubject<Int>()
        let subscription = loggedSource({ log.append($0) }, subject: subject)
            .filter { $0 > 0 }
            .subscribe(onNext: { log.append("next \($0)") })
        subject.onNext(1)
        subscription.dispose()
        subject.onNext(2)
        subscription.dispose()
        #expect(log == ["next 1", "upstream disposed"])
        #expect(!subject.hasObservers)
    }

    @Test("onDisposed follows onCompleted, and a later dispose runs nothing more")
    func completedThenDisposed() {
        var log: [String] = []
        let subscription = Observable.just(3).map { $0 * 2 }.filter { _ in true }.subscribe(
            onNext: { log.append("next \($0)") },
            onError: { _ in log.append("error") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("onDisposed") }
        )
        #expect(log == ["next 6", "completed", "onDisposed"])
        subscription.dispose()
        #expect(log == ["next 6", "completed", "onDisposed"])
    }

    @Test("onDisposed follows onError")
    func errorThenDisposed() {
        var log: [String] = []
        _ = Observable<Int>.error(testError).map { $0 }.subscribe(
            onNext: { _ in log.append("next") },
            onError: { log.append("error \($0)") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("onDisposed") }
        )
        #expect(log == ["error \(testError)", "onDisposed"])
    }

    @Test("nothing reaches the handlers after the first terminal event", .rxLeakCheck(.leaksOnly))
    func nothingAfterTerminal() {
        var log: [String] = []
        _ = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
            observer.onError(testError)
            observer.onCompleted()
            return Disposables.create()
        }
        .subscribe(
            onNext: { log.append("next \($0)") },
            onError: { _ in log.append("error") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("onDisposed") }
        )
        #expect(log == ["next 1", "completed", "onDisposed"])
    }

    @Test("events that arrive as `Event` values get the same handling as the direct path")
    func eventPath() {
        // skip(_:) forwards the `Event` values it receives.
        var log: [String] = []
        let subject = PublishSubject<Int>()
        let subscription = subject.skip(1).subscribe(
            onNext: { log.append("next \($0)") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("onDisposed") }
        )
        subject.onNext(1)
        subject.onNext(2)
        subject.onCompleted()
        subscription.dispose()
        #expect(log == ["next 2", "completed", "onDisposed"])

        var errors: [String] = []
        _ = Observable<Int>.error(testError).skip(1).subscribe(
            onError: { errors.append("error \($0)") },
            onDisposed: { errors.append("onDisposed") }
        )
        #expect(errors == ["error \(testError)", "onDisposed"])
    }

    @Test("concurrent disposal runs the upstream's disposal and onDisposed once", arguments: [false, true])
    func concurrentDispose(withOnDisposed: Bool) {
        for _ in 0..<50 {
            let upstreamDisposals = LockedBox(0)
            let onDisposedCalls = LockedBox(0)
            let source = Observable<Int>.create { _ in Disposables.create { upstreamDisposals.increment() } }
            let subscription = withOnDisposed
                ? source.map { $0 }.subscribe(onNext: { _ in }, onDisposed: { onDisposedCalls.increment() })
                : source.map { $0 }.subscribe(onNext: { _ in })
            let transfer = UnsafeTransfer(subscription)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in transfer.value.dispose() }
            #expect(upstreamDisposals.value == 1)
            #expect(onDisposedCalls.value == (withOnDisposed ? 1 : 0))
        }
    }

    @Test("subscribe(with:) passes the object to onDisposed while it lives")
    func subscribeWithOnDisposed() {
        let owner = Owner()
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe(
            with: owner,
            onNext: { owner, value in owner.log.append("next \(value)") },
            onDisposed: { owner in owner.log.append("onDisposed") }
        )
        subject.onNext(1)
        subscription.dispose()
        #expect(owner.log == ["next 1", "onDisposed"])
    }
}

/// The parts that touch process-wide state (the default error handler, the resource
/// count): XCTest runs them one at a time.
final class SubscribeGlobalStateTests: LeakCheckingTestCase {
    /// Runs `body` with a default error handler that collects the errors it gets.
    private func collectingUnhandledErrors(_ body: () -> Void) -> [String] {
        var unhandled: [String] = []
        let previous = Hooks.defaultErrorHandler
        Hooks.defaultErrorHandler = { _, error in unhandled.append("\(error)") }
        body()
        Hooks.defaultErrorHandler = previous
        return unhandled
    }

    func testAnErrorWithoutOnErrorThroughAChainGoesToTheDefaultErrorHandler() {
        rxCheckOptions = .leaksOnly
        var log: [String] = []
        let unhandled = collectingUnhandledErrors {
            _ = Observable<Int>.error(testError).map { $0 }.filter { _ in true }
                .subscribe(onCompleted: { log.append("completed") }, onDisposed: { log.append("onDisposed") })
            _ = Observable<Int>.error(TestError(code: 2)).map { $0 }.subscribe(onError: { log.append("handled \($0)") })
        }
        XCTAssertEqual(unhandled, ["\(testError)"], "only the error without onError reaches the default handler")
        XCTAssertEqual(log, ["onDisposed", "handled \(TestError(code: 2))"])
    }

    func testResourcesReturnToTheirBaselineWithAndWithoutOnDisposed() {
        let before = Resources.total
        do {
            let subject = PublishSubject<Int>()
            let plain = subject.map { $0 }.subscribe(onNext: { _ in })
            let withDisposal = subject.filter { _ in true }.subscribe(onNext: { _ in }, onDisposed: {})
            subject.onNext(1)
            XCTAssertGreaterThan(Resources.total, before)
            plain.dispose()
            withDisposal.dispose()
            _ = Observable.just(1).map { $0 }.subscribe(onNext: { _ in })
        }
        XCTAssertEqual(Resources.total, before)
    }
}
