import RxSwift
import RxTest
import Testing

/// The parts of the example view models that rest on the combining operators, on virtual time.
@Suite("example flows built on the combining operators", .rxLeakCheck)
struct CombiningExampleFlowTests {
    @Test("login: validity combined from two inputs, the login action takes the latest of both")
    func loginViewModel() {
        let scheduler = TestScheduler(initialClock: 0)
        let loginInput = scheduler.createHotObservable([.next(210, "ab"), .next(230, "abcde"), .next(260, "abcdef")])
        let passwordInput = scheduler.createHotObservable([.next(220, "1"), .next(240, "123456")])

        let usernameValid = loginInput.map { $0.count >= 5 }
        let passwordValid = passwordInput.map { $0.count >= 6 }
        let buttonEnabled = scheduler.start { Observable.combineLatest(usernameValid, passwordValid) { $0 && $1 } }
        #expect(buttonEnabled.events == [.next(220, false), .next(230, false), .next(240, true), .next(260, true)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let login2 = scheduler2.createHotObservable([.next(210, "ab"), .next(230, "abcde"), .next(260, "abcdef")])
        let password2 = scheduler2.createHotObservable([.next(220, "1"), .next(240, "123456")])
        let action2 = scheduler2.createHotObservable([.next(215, ()), .next(250, ()), .next(270, ())])
        let signals = scheduler2.start {
            action2.withLatestFrom(login2).withLatestFrom(password2) { ($0, $1) }.map { "\($0):\($1)" }
        }
        #expect(signals.events == [.next(250, "abcde:123456"), .next(270, "abcdef:123456")])
    }

    @Test("sign in: five inputs combined, each valid combination signs in, only the latest request counts")
    func signInViewModel() {
        struct Details: Equatable { let email: String; let password: String }
        let scheduler = TestScheduler(initialClock: 0)
        let emailText = scheduler.createHotObservable([.next(210, "a@b.c"), .next(300, "x@y.z")])
        let passwordText = scheduler.createHotObservable([.next(220, "secret")])
        let taps = scheduler.createHotObservable([.next(230, ()), .next(240, ()), .next(310, ())])
        let emailIsValid = emailText.map { $0.contains("@") }
        let passwordIsValid = passwordText.map { $0.count >= 6 }

        let responses = scheduler.start {
            Observable.combineLatest(emailText, emailIsValid, passwordText, passwordIsValid, taps,
                                     resultSelector: { email, emailValid, password, passwordValid, _ -> Details? in
                guard emailValid, passwordValid else { return nil }
                return Details(email: email, password: password)
            })
            .filter { $0 != nil }
            .map { $0! }
            .flatMapLatest { details in
                // A fake sign-in API answering 15 ticks after each request.
                scheduler.createColdObservable([.next(15, "signed in \(details.email)"), .completed(16)])
            }
        }
        // The tap at 240 cancels the request of 230; the new e-mail at 300 makes a request
        // that the tap at 310 cancels in turn.
        #expect(responses.events == [.next(255, "signed in a@b.c"), .next(325, "signed in x@y.z")])
    }
}
