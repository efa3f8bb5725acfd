import RxCocoa
import RxSwift
import RxTest
import Testing
import XCTest

// The view models and tests of the RxRelay and RxCocoa articles ("Relays as view-model
// inputs", "Driver or Signal"), run as written there. `drive` insists on the main
// thread; on Linux only XCTest runs tests on it, hence XCTest here.

private enum Constants {
    static let minimalUsernameLength = 5
    static let minimalPasswordLength = 5
}

/// The login view model of "Driver or Signal".
private struct LoginViewModel {
    let loginInput = PublishRelay<String>()
    let passwordInput = PublishRelay<String>()
    let loginAction = PublishRelay<Void>()

    let login: Driver<String>
    let password: Driver<String>
    let passwordFieldEnabled: Driver<Bool>
    let loginWarningHidden: Driver<Bool>
    let passwordWarningHidden: Driver<Bool>
    let loginButtonEnabled: Driver<Bool>

    let loginSignal: Signal<(String, String)>

    init() {
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

        passwordFieldEnabled = usernameValid.asDriver(onErrorJustReturn: false)
        loginWarningHidden = usernameValid.asDriver(onErrorJustReturn: false)
        passwordWarningHidden = passwordValid.asDriver(onErrorJustReturn: false)
        loginButtonEnabled = Observable
            .combineLatest(usernameValid, passwordValid) { $0 && $1 }
            .asDriver(onErrorJustReturn: false)

        loginSignal = loginAction
            .withLatestFrom(loginInput)
            .withLatestFrom(passwordInput) { ($0, $1) }
            .asSignal(onErrorJustReturn: ("", ""))
    }
}

/// The sign-in view model of "Relays as view-model inputs".
private struct SignInViewModel {
    let username = PublishRelay<String>()
    let password = PublishRelay<String>()
    let signInTaps = PublishRelay<Void>()

    let signInEnabled: Driver<Bool>
    let signIn: Signal<(String, String)>

    init() {
        let usernameValid = username.map { $0.count >= 5 }.startWith(false)
        let passwordValid = password.map { $0.count >= 8 }.startWith(false)

        signInEnabled = Observable
            .combineLatest(usernameValid, passwordValid) { $0 && $1 }
            .asDriver(onErrorJustReturn: false)

        signIn = signInTaps
            .withLatestFrom(username)
            .withLatestFrom(password) { ($0, $1) }
            .asSignal(onErrorJustReturn: ("", ""))
    }
}

final class ArticleExamplesTests: XCTestCase {
    func testFiveLettersEnablePasswordFieldOnAMockedScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let enabled = scheduler.createObserver(Bool.self)
        let disposeBag = DisposeBag()

        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = LoginViewModel()
            viewModel.passwordFieldEnabled.drive(enabled).disposed(by: disposeBag)
            scheduler.createColdObservable([.next(10, "use"), .next(20, "username"), .next(30, "user")])
                .bind(to: viewModel.loginInput)
                .disposed(by: disposeBag)
            scheduler.start()
        }

        XCTAssertEqual(enabled.events, [.next(1, false), .next(11, false), .next(21, true), .next(31, false)])
    }

    func testFiveLettersEnablePasswordFieldOnTheMainScheduler() {
        XCTAssertTrue(Thread.isMainThread)
        let scheduler = TestScheduler(initialClock: 0)
        let enabled = scheduler.createObserver(Bool.self)
        let disposeBag = DisposeBag()
        let viewModel = LoginViewModel()
        viewModel.passwordFieldEnabled.drive(enabled).disposed(by: disposeBag)
        scheduler.createColdObservable([.next(10, "use"), .next(20, "username"), .next(30, "user")])
            .bind(to: viewModel.loginInput)
            .disposed(by: disposeBag)
        scheduler.start()

        XCTAssertEqual(enabled.events, [.next(0, false), .next(10, false), .next(20, true), .next(30, false)])
    }

    func testTheLoginSignalReplaysNothingToALateObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        let early = scheduler.createObserver(String.self)
        let late = scheduler.createObserver(String.self)
        let disposeBag = DisposeBag()

        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = LoginViewModel()
            let credentials = viewModel.loginSignal.map { "\($0):\($1)" }
            credentials.emit(to: early).disposed(by: disposeBag)
            scheduler.scheduleAt(45) { credentials.emit(to: late).disposed(by: disposeBag) }
            scheduler.createColdObservable([.next(10, "username")]).bind(to: viewModel.loginInput).disposed(by: disposeBag)
            scheduler.createColdObservable([.next(20, "password")]).bind(to: viewModel.passwordInput).disposed(by: disposeBag)
            scheduler.createColdObservable([.next(5, ()), .next(40, ()), .next(50, ())]).bind(to: viewModel.loginAction).disposed(by: disposeBag)
            scheduler.start()
        }

        // The tap at 5 comes before any text and is dropped by withLatestFrom.
        XCTAssertEqual(early.events, [.next(41, "username:password"), .next(51, "username:password")])
        XCTAssertEqual(late.events, [.next(51, "username:password")])
    }

    func testSignInIsEnabledOnceBothFieldsAreLongEnough() {
        let scheduler = TestScheduler(initialClock: 0)
        let enabled = scheduler.createObserver(Bool.self)
        let disposeBag = DisposeBag()

        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = SignInViewModel()
            viewModel.signInEnabled.drive(enabled).disposed(by: disposeBag)

            scheduler.createColdObservable([.next(10, "ann"), .next(20, "annie")])
                .bind(to: viewModel.username)
                .disposed(by: disposeBag)
            scheduler.createColdObservable([.next(30, "secret-pw")])
                .bind(to: viewModel.password)
                .disposed(by: disposeBag)

            scheduler.start()
        }

        XCTAssertEqual(enabled.events, [.next(1, false), .next(11, false), .next(21, false), .next(31, true)])
    }
}

/// "Driver or Signal", "Testing on the main actor": the forms a `@MainActor` test takes,
/// each driving the login view model on the main actor.
@MainActor
private func passwordFieldEnabledAfterTypingAUsername() -> [Bool] {
    let viewModel = LoginViewModel()
    var enabled: [Bool] = []
    let subscription = viewModel.passwordFieldEnabled.drive(onNext: { enabled.append($0) })
    viewModel.loginInput.accept("username")
    subscription.dispose()
    return enabled
}

/// A Swift Testing suite on the main actor.
@Suite @MainActor struct MainActorArticleTests {
    @Test func fiveLettersEnablePasswordField() {
        #expect(passwordFieldEnabledAfterTypingAUsername() == [false, true])
    }
}

/// XCTest: an `async` `@MainActor` test beside a plain synchronous test that enters the
/// main actor with `MainActor.assumeIsolated`.
final class MainActorArticleXCTests: XCTestCase {
    @MainActor
    func testFiveLettersEnablePasswordField() async {
        XCTAssertEqual(passwordFieldEnabledAfterTypingAUsername(), [false, true])
    }

    func testFiveLettersEnablePasswordFieldEnteringTheMainActor() {
        let enabled = MainActor.assumeIsolated { passwordFieldEnabledAfterTypingAUsername() }
        XCTAssertEqual(enabled, [false, true])
    }
}
