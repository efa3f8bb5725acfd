import RxSwift
import ExampleViewModels

/// The sign-in example's fake back end: each sign-in returns a fresh subject the test drives.
final class SignInAPIFake: SignInAPIType, @unchecked Sendable {
    var signInCalled = false
    var signInReturnValue: PublishSubject<SignInResponse>!

    func signIn(with signInDetails: SignInDetails) -> Observable<SignInResponse> {
        signInReturnValue = PublishSubject()
        return signInReturnValue.asObservable()
            .do(onSubscribe: { [weak self] in self?.signInCalled = true })
    }
}

/// The sign-in example's fake back end for TestScheduler specs: returns a prepared observable.
final class SignInAPIFakeObservable: SignInAPIType, @unchecked Sendable {
    var signInCalled = false
    var signInDetails: SignInDetails?
    var signInReturnValue: Observable<SignInResponse>!

    func signIn(with signInDetails: SignInDetails) -> Observable<SignInResponse> {
        self.signInDetails = signInDetails
        return signInReturnValue
            .do(onSubscribe: { [weak self] in self?.signInCalled = true })
    }
}

let validEmail = "test@test.com"
let validPassword = "Asd123!!"
let signInResponse = SignInResponse(email: "test@test.com", account: "workable")
