import Foundation
import RivuletTestSupport
import RxBlocking
import RxSwift
import Testing

/// The examples of RxBlocking's article "Waiting for results", run as written there.
@Suite("RxBlocking article examples")
struct WaitingForResultsTests {
    private func isTimeout(_ error: Error) -> Bool {
        if case RxError.timeout = error { return true }
        return false
    }

    @Test("the operators' answers for Observable.of(1, 2, 3)")
    func operators() throws {
        let numbers = Observable.of(1, 2, 3)
        #expect(try numbers.toBlocking().toArray() == [1, 2, 3])
        #expect(try numbers.toBlocking().first() == 1)
        #expect(try numbers.toBlocking().last() == 3)
        #expect(try numbers.toBlocking().single { $0 > 2 } == 3)
        do {
            _ = try numbers.toBlocking().single()
            Issue.record("single() of three elements returned")
        } catch {
            guard case RxError.moreThanOneElement = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
        #expect(try Observable<Int>.empty().toBlocking().first() == nil)
    }

    @Test("first() and single() answer without waiting for the end, and dispose")
    func earlyAnswers() throws {
        let disposed = LockedBox(0)
        let endless = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            return Disposables.create { disposed.increment() }
        }
        // A generous timeout: these answer at once, the timeout only guards a hang.
        #expect(try endless.toBlocking(timeout: 10).first() == 1)
        #expect(disposed.value == 1)
        do {
            _ = try endless.toBlocking(timeout: 10).single()
            Issue.record("single() of two elements returned")
        } catch {
            guard case RxError.moreThanOneElement = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
        #expect(disposed.value == 2)
    }

    @Test("a sequence that never ends times out with RxError.timeout")
    func timeout() {
        let started = Date()
        do {
            _ = try Observable<Int>.never().toBlocking(timeout: 0.2).toArray()
            Issue.record("toArray() of never returned")
        } catch {
            #expect(isTimeout(error))
        }
        #expect(Date().timeIntervalSince(started) >= 0.2)
    }

    @Test("materialize reports a timeout as .failed with the elements received")
    func materializeTimeout() {
        let stalled = Observable.concat(Observable.of(1, 2), Observable<Int>.never())
        switch stalled.toBlocking(timeout: 0.2).materialize() {
        case .completed:
            Issue.record("the sequence never completes")
        case let .failed(elements, error):
            #expect(elements == [1, 2])
            #expect(isTimeout(error))
        }
    }

    @Test("materialize keeps the elements before an error")
    func materializeError() {
        let upload = Observable<Int>.create { observer in
            observer.onNext(50)
            observer.onNext(100)
            observer.onError(testError)
            return Disposables.create()
        }
        switch upload.toBlocking(timeout: 1).materialize() {
        case .completed:
            Issue.record("expected an error")
        case let .failed(elements, error):
            #expect(elements == [50, 100])
            #expect(error as? TestError == testError)
        }
        switch Observable.of(4, 5).toBlocking(timeout: 1).materialize() {
        case let .completed(elements):
            #expect(elements == [4, 5])
        case let .failed(_, error):
            Issue.record("unexpected error \(error)")
        }
    }
}

