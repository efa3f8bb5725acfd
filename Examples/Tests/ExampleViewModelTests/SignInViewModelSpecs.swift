import Nimble
import RxBlocking
import RxSwift
import RxTest
import ExampleViewModels
import Testing

// The sign-in example's specs, written as Swift Testing suites with Nimble matchers: each suite
// is a `describe`, its initialiser the `beforeEach`, each test an `it`. A fresh suite
// instance is made for every test.

@Suite("The SignInViewModel, driven by PublishSubjects")
struct SignInViewModelPublishSubjectSpec {
    let sut: SignInViewModel
    let signInAPI = SignInAPIFake()
    let disposeBag = DisposeBag()
    let emailText = PublishSubject<String>()
    let passwordText = PublishSubject<String>()
    let signInButtonTap = PublishSubject<Void>()
    let results = Results()

    final class Results: @unchecked Sendable {
        var emailIsValid: Bool?
        var passwordIsValid: Bool?
        var signInButtonEnabled: Bool?
        var signInResponse: SignInResponse?
    }

    init() {
        sut = SignInViewModel(signInAPI: signInAPI, disposeBag: disposeBag)
        sut.configure(emailText: emailText, passwordText: passwordText, signInButtonTap: signInButtonTap)
        let results = self.results
        sut.emailIsValid.subscribe(onNext: { results.emailIsValid = $0 }).disposed(by: disposeBag)
        sut.passwordIsValid.subscribe(onNext: { results.passwordIsValid = $0 }).disposed(by: disposeBag)
        sut.signInButtonEnabled.subscribe(onNext: { results.signInButtonEnabled = $0 }).disposed(by: disposeBag)
        sut.signIn.subscribe(onNext: { results.signInResponse = $0 }).disposed(by: disposeBag)
    }

    @Test("should start with the sign-in button disabled")
    func buttonStartsDisabled() {
        expect(results.signInButtonEnabled).to(equal(false))
    }

    @Test("should find an incomplete email invalid")
    func incompleteEmail() {
        emailText.onNext("test@")
        expect(results.emailIsValid).to(equal(false))
    }

    @Test("should find a complete email valid")
    func completeEmail() {
        emailText.onNext(validEmail)
        expect(results.emailIsValid).to(beTrue())
    }

    @Test("should find a weak password invalid and a strong one valid")
    func password() {
        passwordText.onNext("asd")
        expect(results.passwordIsValid).to(beFalse())
        passwordText.onNext(validPassword)
        expect(results.passwordIsValid).to(beTrue())
    }

    @Test("should enable the button when both fields are valid")
    func buttonEnabled() {
        emailText.onNext(validEmail)
        passwordText.onNext("asd")
        expect(results.signInButtonEnabled).to(beFalse())
        passwordText.onNext(validPassword)
        expect(results.signInButtonEnabled).to(beTrue())
    }

    @Test("should make a sign-in request on tap and pass the response on")
    func signIn() {
        emailText.onNext(validEmail)
        passwordText.onNext(validPassword)
        expect(signInAPI.signInCalled).to(beFalse())
        signInButtonTap.onNext(())
        expect(signInAPI.signInCalled).to(beTrue())
        signInAPI.signInReturnValue.onNext(signInResponse)
        expect(results.signInResponse).to(equal(signInResponse))
    }

    @Test("should not sign in while a field is invalid")
    func noSignInWhenInvalid() {
        emailText.onNext("test@")
        passwordText.onNext(validPassword)
        signInButtonTap.onNext(())
        expect(signInAPI.signInCalled).to(beFalse())
    }
}

@Suite("The SignInViewModel, read with RxBlocking")
struct SignInViewModelBlockingSpec {
    let sut: SignInViewModel
    let signInAPI = SignInAPIFakeObservable()

    init() {
        sut = SignInViewModel(signInAPI: signInAPI, disposeBag: DisposeBag())
        signInAPI.signInReturnValue = .just(signInResponse)
        sut.configure(
            emailText: .of("test@", validEmail),
            passwordText: .of("asd", validPassword),
            signInButtonTap: .just(())
        )
    }

    @Test("should validate every email typed")
    func emails() throws {
        expect(try sut.emailIsValid.toBlocking().toArray()).to(equal([false, true]))
    }

    @Test("should validate every password typed")
    func passwords() throws {
        expect(try sut.passwordIsValid.toBlocking().toArray()).to(equal([false, true]))
    }

    @Test("should start with the button disabled")
    func buttonStartsDisabled() throws {
        expect(try sut.signInButtonEnabled.toBlocking().first()).to(equal(false))
    }

    @Test("should end with the button enabled")
    func buttonEndsEnabled() throws {
        expect(try sut.signInButtonEnabled.toBlocking().last()).to(equal(true))
    }

    @Test("should sign in with the last valid details")
    func signIn() throws {
        let result = sut.signIn.toBlocking(timeout: 2).materialize()
        guard case .completed(let elements) = result else {
            Issue.record("expected the sign-in to complete, got \(result)")
            return
        }
        expect(elements).to(equal([signInResponse]))
        expect(signInAPI.signInDetails).to(equal(SignInDetails(emailText: validEmail, passwordText: validPassword)))
    }
}

@Suite("The SignInViewModel, in virtual time")
struct SignInViewModelTestableObservableSpec {
    let scheduler = TestScheduler(initialClock: 0)
    let signInAPI = SignInAPIFakeObservable()
    let disposeBag = DisposeBag()
    let emailIsValidObserver: TestableObserver<Bool>
    let passwordIsValidObserver: TestableObserver<Bool>
    let signInButtonEnabledObserver: TestableObserver<Bool>
    let signInActionObserver: TestableObserver<SignInResponse>
    let emailText: TestableObservable<String>
    let passwordText: TestableObservable<String>
    let signInButtonTap: TestableObservable<Void>

    init() {
        let sut = SignInViewModel(signInAPI: signInAPI, disposeBag: disposeBag)
        emailIsValidObserver = scheduler.createObserver(Bool.self)
        passwordIsValidObserver = scheduler.createObserver(Bool.self)
        signInButtonEnabledObserver = scheduler.createObserver(Bool.self)
        signInActionObserver = scheduler.createObserver(SignInResponse.self)

        emailText = scheduler.createHotObservable([.next(1, "test@"), .next(3, validEmail)])
        passwordText = scheduler.createHotObservable([.next(2, "asd"), .next(3, validPassword)])
        signInButtonTap = scheduler.createHotObservable([.next(4, ())])
        signInAPI.signInReturnValue = scheduler.createColdObservable([.next(0, signInResponse)]).asObservable()

        sut.configure(
            emailText: emailText.asObservable(),
            passwordText: passwordText.asObservable(),
            signInButtonTap: signInButtonTap.asObservable()
        )
        let (bag, email, password, button, action) = (disposeBag, emailIsValidObserver, passwordIsValidObserver, signInButtonEnabledObserver, signInActionObserver)
        scheduler.scheduleAt(0) {
            sut.emailIsValid.subscribe(email).disposed(by: bag)
            sut.passwordIsValid.subscribe(password).disposed(by: bag)
            sut.signInButtonEnabled.subscribe(button).disposed(by: bag)
            sut.signIn.subscribe(action).disposed(by: bag)
        }
        scheduler.start()
    }

    @Test("should get the correct signInButtonEnabled events")
    func buttonEvents() {
        expect(signInButtonEnabledObserver.events).to(equal([
            .next(0, false),  // the initial value
            .next(2, false),  // both fields typed, the password invalid
            .next(3, false),  // a valid email, still an invalid password
            .next(3, true),   // both valid
        ]))
    }

    @Test("should get the correct emailIsValid events")
    func emailEvents() {
        expect(emailIsValidObserver.events).to(equal([.next(1, false), .next(3, true)]))
    }

    @Test("should get the correct passwordIsValid events")
    func passwordEvents() {
        expect(passwordIsValidObserver.events).to(equal([.next(2, false), .next(3, true)]))
    }

    @Test("a sign in request should be made")
    func requestMade() {
        expect(signInAPI.signInCalled).to(beTrue())
    }

    @Test("should get the correct sign-in events: the response when tapped, and no completion while the inputs live")
    func signInEvents() {
        expect(signInActionObserver.events).to(equal([.next(4, signInResponse)]))
    }

    @Test("should have subscribed to every input once, from 0 on")
    func inputSubscriptions() {
        // emailIsValid and the button each read the email field once; the sign-in
        // reads it twice (the text, and its validity).
        expect(emailText.subscriptions).to(equal([Subscription(0), Subscription(0), Subscription(0), Subscription(0)]))
        expect(signInButtonTap.subscriptions).to(equal([Subscription(0)]))
    }
}

@Suite("The SignInViewModel, specified with marble strings")
struct SignInViewModelMarbleSyntaxSpec {
    let scheduler = TestScheduler(initialClock: 0)
    let signInAPI = SignInAPIFake()
    let disposeBag = DisposeBag()
    let emailIsValidObserver: TestableObserver<Bool>
    let passwordIsValidObserver: TestableObserver<Bool>
    let signInButtonEnabledObserver: TestableObserver<Bool>
    let signInObserver: TestableObserver<SignInResponse>
    let expectedEmailIsValidEvents: [Recorded<Event<Bool>>]
    let expectedPasswordIsValidEvents: [Recorded<Event<Bool>>]
    let signInEnabledExpectedEvents: [Recorded<Event<Bool>>]
    let signInExpectedEvents: [Recorded<Event<SignInResponse>>]

    init() {
        let sut = SignInViewModel(signInAPI: signInAPI, disposeBag: disposeBag)
        emailIsValidObserver = scheduler.createObserver(Bool.self)
        passwordIsValidObserver = scheduler.createObserver(Bool.self)
        signInButtonEnabledObserver = scheduler.createObserver(Bool.self)
        signInObserver = scheduler.createObserver(SignInResponse.self)

        let emails = ["e1": "test@", "e2": validEmail]
        let passwords = ["p1": "asd", "p2": validPassword]
        let signInButtonClick: [String: Void] = ["s1": ()]

        let emailEvents = scheduler.parseEventsAndTimes(timeline: "---e1----e2-----", values: emails).first!
        let passwordEvents = scheduler.parseEventsAndTimes(timeline: "-----p1-----p2-----", values: passwords).first!
        let signInButtonTapEvents = scheduler.parseEventsAndTimes(timeline: "---------------------------s1-", values: signInButtonClick).first!

        let emailIsValid = ["v1": false, "v2": true]
        let passwordIsValid = ["u1": false, "u2": true]
        let signInButtonEnabled = ["b1": false, "b2": false, "b3": false, "b4": true]
        let signInResponseEvents = ["x1": signInResponse]

        expectedEmailIsValidEvents = scheduler.parseEventsAndTimes(timeline: "---v1----v2-----", values: emailIsValid).first!
        expectedPasswordIsValidEvents = scheduler.parseEventsAndTimes(timeline: "-----u1-----u2-----", values: passwordIsValid).first!
        signInEnabledExpectedEvents = scheduler.parseEventsAndTimes(timeline: "b1---b2--b3-b4--", values: signInButtonEnabled).first!
        signInExpectedEvents = scheduler.parseEventsAndTimes(timeline: "---------------------------------x1-", values: signInResponseEvents).first!

        let emailText = scheduler.createHotObservable(emailEvents)
        let passwordText = scheduler.createHotObservable(passwordEvents)
        let signInButtonTap = scheduler.createHotObservable(signInButtonTapEvents)

        sut.configure(
            emailText: emailText.asObservable(),
            passwordText: passwordText.asObservable(),
            signInButtonTap: signInButtonTap.asObservable()
        )
        sut.emailIsValid.subscribe(emailIsValidObserver).disposed(by: disposeBag)
        sut.passwordIsValid.subscribe(passwordIsValidObserver).disposed(by: disposeBag)
        sut.signInButtonEnabled.subscribe(signInButtonEnabledObserver).disposed(by: disposeBag)
        sut.signIn.subscribe(signInObserver).disposed(by: disposeBag)

        let api = signInAPI
        scheduler.scheduleAt(33) {
            api.signInReturnValue.on(.next(signInResponse))
        }
        scheduler.start()
    }

    @Test("the example's timelines parse to the example's times")
    func parsedTimes() {
        expect(signInEnabledExpectedEvents.map(\.time)).to(equal([0, 5, 9, 12]))
    }

    @Test("should get the correct signInButtonEnabled events")
    func buttonEvents() {
        expect(signInButtonEnabledObserver.events).to(equal(signInEnabledExpectedEvents))
    }

    @Test("should get the correct emailIsValid events")
    func emailEvents() {
        expect(emailIsValidObserver.events).to(equal(expectedEmailIsValidEvents))
    }

    @Test("should get the correct passwordIsValid events")
    func passwordEvents() {
        expect(passwordIsValidObserver.events).to(equal(expectedPasswordIsValidEvents))
    }

    @Test("a sign in request should be made")
    func requestMade() {
        expect(signInAPI.signInCalled).to(beTrue())
    }

    @Test("should get the correct sign-in events")
    func signInEvents() {
        expect(signInObserver.events).to(equal(signInExpectedEvents))
    }
}
