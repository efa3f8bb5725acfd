import Foundation
import RxSwift

/// What the user typed, once both fields are valid.
public struct SignInDetails: Equatable, Sendable {
    public let emailText: String
    public let passwordText: String

    public init(emailText: String, passwordText: String) {
        self.emailText = emailText
        self.passwordText = passwordText
    }
}

/// The back end's answer to a sign-in.
public struct SignInResponse: Decodable, Equatable, Sendable {
    public let email: String
    public let account: String

    public init(email: String, account: String) {
        self.email = email
        self.account = account
    }
}

/// The sign-in back end, faked in tests.
public protocol SignInAPIType: AnyObject {
    func signIn(with signInDetails: SignInDetails) -> Observable<SignInResponse>
}

/// Matches whole strings against a regular expression.
public struct RegexMatcher: Sendable {
    private let pattern: String

    public init(regex: String) {
        pattern = regex
    }

    public func matches(string: String) -> Bool {
        string.range(of: pattern, options: .regularExpression) != nil
    }

    /// An e-mail address: something, an @, a domain with a dot.
    public static let email = RegexMatcher(regex: "^[^@\\s]+@[^@\\s]+\\.[A-Za-z]{2,}$")
    /// A password: at least 8 characters with a lower-case letter, an upper-case
    /// letter, a digit and a symbol.
    public static let password = RegexMatcher(regex: "^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9])(?=.*[^A-Za-z0-9]).{8,}$")
}

/// The sign-in screen's view model: inputs are configured, outputs are
/// observables the view binds to.
public final class SignInViewModel {
    // Outputs.
    public private(set) var emailIsValid: Observable<Bool>!
    public private(set) var passwordIsValid: Observable<Bool>!
    public private(set) var signInButtonEnabled: Observable<Bool>!
    public private(set) var signIn: Observable<SignInResponse>!

    private let signInAPI: SignInAPIType
    private let disposeBag: DisposeBag

    public init(signInAPI: SignInAPIType, disposeBag: DisposeBag) {
        self.signInAPI = signInAPI
        self.disposeBag = disposeBag
    }

    /// Wires the inputs to the outputs.
    public func configure(emailText: Observable<String>, passwordText: Observable<String>, signInButtonTap: Observable<Void>) {
        let emailIsValid = emailText.map { RegexMatcher.email.matches(string: $0) }
        let passwordIsValid = passwordText.map { RegexMatcher.password.matches(string: $0) }
        self.emailIsValid = emailIsValid
        self.passwordIsValid = passwordIsValid

        signInButtonEnabled = Observable.combineLatest(emailIsValid, passwordIsValid) { $0 && $1 }
            .startWith(false)

        signIn = Observable.combineLatest(emailText, emailIsValid, passwordText, passwordIsValid, signInButtonTap) {
            email, emailIsValid, password, passwordIsValid, _ -> SignInDetails? in
            guard emailIsValid, passwordIsValid else { return nil }
            return SignInDetails(emailText: email, passwordText: password)
        }
        .compactMap { $0 }
        .flatMapLatest { [weak self] details -> Observable<SignInResponse> in
            guard let self else { return .empty() }
            return self.signInAPI.signIn(with: details)
        }
    }
}
