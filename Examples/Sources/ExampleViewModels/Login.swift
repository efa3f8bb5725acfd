import RxCocoa
import RxRelay
import RxSwift

/// Validation limits of the login screen.
public enum Constants {
    public static let minimalUsernameLength = 5
    public static let minimalPasswordLength = 5
}

/// The login screen's view model: relays in, Drivers and a Signal out.
public struct LoginViewModel {
    public var loginInput: PublishRelay<String> = .init()
    public var passwordInput: PublishRelay<String> = .init()
    public var loginAction: PublishRelay<Void> = .init()

    public var login: Driver<String>
    public var password: Driver<String>
    public var passwordFieldEnabled: Driver<Bool>
    public var loginWarningHidden: Driver<Bool>
    public var passwordWarningHidden: Driver<Bool>
    public var loginButtonEnabled: Driver<Bool>

    public var loginSignal: Signal<(String, String)>

    public let disposeBag = DisposeBag()

    public init() {
        login = loginInput.asDriver(onErrorJustReturn: "")
        password = passwordInput.asDriver(onErrorJustReturn: "")

        let usernameValid = loginInput
            .map { $0.count >= Constants.minimalUsernameLength }
            .startWith(false)
            .share(replay: 1)

        let passwordValid = passwordInput
            .map { $0.count >= Constants.minimalPasswordLength }
            .startWith(false)
            .share(replay: 1)

        let everythingValid = Observable.combineLatest(usernameValid, passwordValid) { $0 && $1 }

        passwordFieldEnabled = usernameValid.asDriver(onErrorJustReturn: false)
        loginWarningHidden = usernameValid.asDriver(onErrorJustReturn: false)
        passwordWarningHidden = passwordValid.asDriver(onErrorJustReturn: false)
        loginButtonEnabled = everythingValid.asDriver(onErrorJustReturn: false)

        loginSignal = loginAction
            .withLatestFrom(loginInput)
            .withLatestFrom(passwordInput) { ($0, $1) }
            .asSignal(onErrorJustReturn: ("", ""))
    }
}
