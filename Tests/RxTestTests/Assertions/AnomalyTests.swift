import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

/// A `create` whose observer the test keeps, to emit from outside as a hand-written
/// source would.
private final class HandWrittenSource: @unchecked Sendable {
    private let stored = LockedBox<AnyObserver<Int>?>(nil)

    var observer: AnyObserver<Int>? { stored.value }

    lazy var observable = Observable<Int>.create { [unowned self] observer in
        self.stored.value = observer
        return Disposables.create()
    }
}

@Suite("Anomalies: what breaks the Rx grammar fails the test that caused it")
struct AnomalyTests {
    static let unhandledAdvice = "Add an onError handler, catch the error (catch, catchAndReturn, retry) or use a trait that cannot fail."
    static let afterTerminalAdvice = "The grammar is next* (error | completed)?: nothing may follow a terminal event; it was dropped."
    static let reentrantAdvice = "An observer downstream emitted back into this source. Deliver events one after another (for example through a scheduler), or break the cycle."
    static let overlappingAdvice = "Observers receive one event at a time. Serialise the calls to the observer (a lock or a serial queue), or emit through a Subject/Relay on one thread."

    @Test("an error that reaches no onError handler fails the test, with the stack of the subscription that dropped it")
    func unhandledError() {
        let line = #line + 3
        let failures = capturingFailures {
            withRxLeakCheck {
                _ = Observable<Int>.error(testError).map { $0 }.subscribe(onNext: { _ in })
            }
        }
        #expect(failures.count == 1)
        let message = failures.first?.message ?? ""
        #expect(message.hasPrefix("Rx anomaly: Unhandled error: \(testError)\n" + Self.unhandledAdvice + "\ncall stack:\n"))
        #expect(message.contains("AnomalyTests.unhandledError() at AnomalyTests.swift:\(line)"))
        #expect(failures.first?.line == line)
        #expect(failures.first?.fileName == "AnomalyTests.swift")
    }

    @Test("an unhandled error of a Single, a Maybe and a Completable is an anomaly too")
    func unhandledTraitErrors() {
        let line = #line + 3
        let failures = capturingFailures {
            withRxLeakCheck {
                _ = Single<Int>.error(testError).subscribe(onSuccess: { _ in })
                _ = Maybe<Int>.error(testError).subscribe(onSuccess: { _ in })
                _ = Completable.error(testError).subscribe(onCompleted: {})
            }
        }
        #expect(failures.count == 3)
        #expect(failures.allSatisfy { $0.message.hasPrefix("Rx anomaly: Unhandled error: \(testError)\n") })
        #expect(failures.map(\.line) == [line, line + 1, line + 2])
        // Three anomalies, and nothing else.
        let registry = TestScopeTracker(options: .init(), scopeSite: nil)
        registry.install {
            _ = Single<Int>.error(testError).subscribe(onSuccess: { _ in })
            _ = Maybe<Int>.error(testError).subscribe(onSuccess: { _ in })
            _ = Completable.error(testError).subscribe(onCompleted: {})
        }
        let findings = registry.findings()
        #expect(findings.count == 3)
        #expect(findings.allSatisfy { $0.message.hasPrefix("Rx anomaly: Unhandled error: \(testError)\n") })
    }

    @Test("a handled error, a caught error and a completed sequence are not anomalies")
    func handledErrors() {
        let registry = withRxLeakCheck { () -> TestScopeTracker? in
            var received: [String] = []
            _ = Observable<Int>.error(testError).subscribe(onError: { received.append("\($0)") })
            _ = Observable<Int>.error(testError).catchAndReturn(7).subscribe(onNext: { received.append("\($0)") })
            _ = Observable.of(1, 2).subscribe(onNext: { received.append("\($0)") })
            #expect(received == ["\(testError)", "7", "1", "2"])
            return TestScopeTracker.current
        }
        #expect(registry?.findings().isEmpty == true)
    }

    @Test("an event sent after a terminal event by a hand-written create fails the test where it was sent")
    func eventAfterTerminal() {
        let line = #line + 8
        let failures = capturingFailures {
            withRxLeakCheck {
                let scheduler = TestScheduler(initialClock: 0)
                let res = scheduler.start {
                    Observable<Int>.create { observer in
                        observer.onNext(1)
                        observer.onCompleted()
                        observer.onNext(2)
                        return Disposables.create()
                    }
                }
                // The event is still dropped, as RxSwift drops it.
                #expect(res.events == [.next(200, 1), .completed(200)])
            }
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("Rx anomaly: Observable.create: next(2) was sent after completed (during scheduler.start at AnomalyTests.swift:\(line - 4), virtual time 200)\n" + Self.afterTerminalAdvice + "\ncall stack:\n") == true)
        #expect(failures.first?.line == line)
    }

    @Test("an observer that emits back into its own create source is a reentrant delivery")
    func reentrantDelivery() {
        let source = HandWrittenSource()
        let line = #line + 7
        let failures = capturingFailures {
            withRxLeakCheck {
                var received: [Int] = []
                let subscription = source.observable.subscribe(onNext: { value in
                    received.append(value)
                    if value == 1 {
                        source.observer?.onNext(2)
                    }
                })
                source.observer?.onNext(1)
                subscription.dispose()
                // Delivered as RxSwift delivers it: inside the first delivery.
                #expect(received == [1, 2])
            }
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("Rx anomaly: Observable.create: reentrant delivery: next(2) was sent while the previous event was still being delivered on the same thread\n" + Self.reentrantAdvice + "\ncall stack:\n") == true)
        #expect(failures.first?.line == line)
    }

    @Test("two threads calling a create observer at once is an overlapping delivery")
    func overlappingDelivery() async {
        let source = HandWrittenSource()
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let secondStarted = LockedBox(false)
        let line = #line + 16
        let failures = await capturingFailures {
            await withRxLeakCheck {
                let subscription = source.observable.subscribe(onNext: { value in
                    if value == 1 {
                        // Hold the first delivery until the second one has started.
                        inside.signal()
                        _ = release.wait(timeout: .now() + 10)
                    }
                })
                let deliveries = DispatchGroup()
                DispatchQueue.global().async(group: deliveries) {
                    source.observer?.onNext(1)
                }
                DispatchQueue.global().async(group: deliveries) {
                    if inside.wait(timeout: .now() + 10) == .success { secondStarted.value = true }
                    source.observer?.onNext(2)
                    release.signal()
                }
                let finished = await withCheckedContinuation { continuation in
                    DispatchQueue.global().async {
                        continuation.resume(returning: deliveries.wait(timeout: .now() + 10) == .success)
                    }
                }
                #expect(finished, "the deliveries never ended")
                #expect(secondStarted.value, "the second delivery did not wait for the first one")
                subscription.dispose()
            }
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("Rx anomaly: Observable.create: overlapping delivery: next(2) was sent from another thread while an event was being delivered\n" + Self.overlappingAdvice + "\ncall stack:\n") == true)
        #expect(failures.first?.line == line)
    }

    @Test("outside a checked scope the same anomalies behave as in RxSwift and fail nothing")
    func untrackedBehaviour() {
        // An unhandled error goes to Hooks.defaultErrorHandler only.
        _ = Observable<Int>.error(testError).subscribe(onNext: { _ in })
        // An event after a terminal event is dropped.
        var events: [Event<Int>] = []
        _ = Observable<Int>.create { observer in
            observer.onCompleted()
            observer.onNext(2)
            return Disposables.create()
        }.subscribe { events.append($0) }
        #expect(events.count == 1)
        #expect(events.first?.isCompleted == true)
        // A reentrant delivery is delivered.
        let source = HandWrittenSource()
        var received: [Int] = []
        let subscription = source.observable.subscribe(onNext: { value in
            received.append(value)
            if value == 1 { source.observer?.onNext(2) }
        })
        source.observer?.onNext(1)
        subscription.dispose()
        #expect(received == [1, 2])
    }

    @Test("a scope that checks leaks only lets anomalies pass, and one that checks anomalies only lets leaks pass")
    func optionsChooseTheChecks() {
        let subject = PublishSubject<Int>()
        let leaksOnly = withRxLeakCheck(.leaksOnly) { () -> TestScopeTracker? in
            _ = Observable<Int>.error(testError).subscribe(onNext: { _ in })
            return TestScopeTracker.current
        }
        #expect(leaksOnly?.findings().isEmpty == true)
        let anomaliesOnly = withRxLeakCheck(.anomaliesOnly) { () -> TestScopeTracker? in
            _ = subject.map { $0 }.subscribe(AnyObserver { _ in })
            return TestScopeTracker.current
        }
        #expect(anomaliesOnly?.openCount == 1)
        #expect(anomaliesOnly?.findings().isEmpty == true)
    }

    @Test("an anomaly on another test's task is reported to that test only", arguments: 0..<12)
    func parallelAnomalies(index: Int) async {
        // Even cases make an anomaly, odd ones do not; all run at once.
        let registry = TestScopeTracker(options: .init(), scopeSite: nil)
        await registry.install {
            for _ in 0..<5 {
                if index.isMultiple(of: 2) {
                    _ = Observable<Int>.error(testError).subscribe(onNext: { _ in })
                } else {
                    _ = Observable<Int>.error(testError).subscribe(onError: { _ in })
                }
                await Task.yield()
            }
        }
        #expect(registry.findings().count == (index.isMultiple(of: 2) ? 5 : 0))
    }
}

// MARK: - The sign-in example's view model

private struct SignInResponse: Equatable {
    let token: String
}

/// The sign-in example's API fake: each request gets a subject the test answers.
private final class SignInAPIFake: @unchecked Sendable {
    private(set) var requests = 0
    private(set) var signInReturnValue = PublishSubject<SignInResponse>()

    func signIn(email: String, password: String) -> Observable<SignInResponse> {
        requests += 1
        signInReturnValue = PublishSubject()
        return signInReturnValue.asObservable()
    }
}

/// The example's view model as written: the request's error ends `signIn`.
private struct SignInViewModel {
    let signIn: Observable<SignInResponse>

    init(api: SignInAPIFake, email: Observable<String>, password: Observable<String>, tap: Observable<Void>) {
        signIn = tap.withLatestFrom(Observable.combineLatest(email, password))
            .flatMapLatest { email, password in api.signIn(email: email, password: password) }
    }
}

private enum SignInResult: Equatable {
    case signedIn(SignInResponse)
    case failed(TestError)
}

/// The view model fixed: a failed request is a value, and the output goes on.
private struct ResilientSignInViewModel {
    let signIn: Observable<SignInResult>

    init(api: SignInAPIFake, email: Observable<String>, password: Observable<String>, tap: Observable<Void>) {
        signIn = tap.withLatestFrom(Observable.combineLatest(email, password))
            .flatMapLatest { email, password in
                api.signIn(email: email, password: password)
                    .map(SignInResult.signedIn)
                    .catch { error in .just(.failed(error as? TestError ?? testError)) }
            }
    }
}

@Suite("Anomalies: the sign-in view model, before and after")
struct SignInAnomalyTests {
    @Test("a wrong password ends signIn with an error nobody handles")
    func aWrongPasswordGivesNoResponse() {
        let line = #line + 12
        let failures = capturingFailures {
            withRxLeakCheck {
                let bag = DisposeBag()
                let api = SignInAPIFake()
                let email = PublishSubject<String>(), password = PublishSubject<String>(), tap = PublishSubject<Void>()
                let sut = SignInViewModel(api: api, email: email, password: password, tap: tap)
                var response: SignInResponse?
                sut.signIn.subscribe(onNext: { response = $0 }).disposed(by: bag)
                email.onNext("user@example.com")
                password.onNext("Asd123!!")
                tap.onNext(())
                api.signInReturnValue.onError(testError)
                #expect(response == nil)
            }
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("""
            Rx anomaly: Unhandled error: \(testError)
            \(AnomalyTests.unhandledAdvice)
            call stack:
              closure #1 in closure #1 in SignInAnomalyTests.aWrongPasswordGivesNoResponse() at AnomalyTests.swift:\(line)
            """) == true)
        #expect(failures.first?.line == line)
    }

    @Test("a failed request is a value and the button keeps working")
    func aWrongPasswordIsAResult() {
        let registry = withRxLeakCheck { () -> TestScopeTracker? in
            let bag = DisposeBag()
            let api = SignInAPIFake()
            let email = PublishSubject<String>(), password = PublishSubject<String>(), tap = PublishSubject<Void>()
            let sut = ResilientSignInViewModel(api: api, email: email, password: password, tap: tap)
            var result: SignInResult?
            sut.signIn.subscribe(onNext: { result = $0 }).disposed(by: bag)
            email.onNext("user@example.com")
            password.onNext("Asd123!!")
            tap.onNext(())
            api.signInReturnValue.onError(testError)
            #expect(result == .failed(testError))
            tap.onNext(())
            api.signInReturnValue.onNext(SignInResponse(token: "fake_token"))
            #expect(result == .signedIn(SignInResponse(token: "fake_token")))
            #expect(api.requests == 2)
            return TestScopeTracker.current
        }
        #expect(registry?.findings().isEmpty == true)
    }
}

