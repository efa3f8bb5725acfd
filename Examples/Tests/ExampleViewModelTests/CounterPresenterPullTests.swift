import RxSwift
import RxTest
import ExampleViewModels
import Testing

/// The counter example, tested step by step: each expectation runs the scheduler just
/// far enough for the event it waits for.
@Suite("The counter presenter, pulled one event at a time", .rxLeakCheck)
struct CounterPresenterPullTests {
    @Test("each tap counts one more, at the tap's time")
    func countsTaps() {
        let scheduler = TestScheduler(initialClock: 0)
        let buttonTaps = scheduler.createHotObservable([.next(100, ()), .next(200, ()), .next(300, ())])
        let presenter = Presenter(eventProvider: EventProvider(buttonTapped: buttonTaps.asObservable()))

        let count = scheduler.record(presenter.count)
        count.expectNoEvents(for: 99)
        count.expectNext(1, at: 100)
        count.expectNext(2, at: 200)
        count.expectNext(3, at: 300)
        count.finish()
        #expect(buttonTaps.subscriptions == [Subscription(0, 300)])
    }
}

/// The sign-in example's view model, driven by subjects and read step by step.
@Suite("The SignInViewModel, pulled one event at a time", .rxLeakCheck)
struct SignInViewModelPullTests {
    @Test("each email typed is validated as it is typed")
    func emailValidation() {
        let scheduler = TestScheduler(initialClock: 0)
        let emailText = PublishSubject<String>()
        let passwordText = PublishSubject<String>()
        let signInButtonTap = PublishSubject<Void>()
        let viewModel = SignInViewModel(signInAPI: SignInAPIFakeObservable(), disposeBag: DisposeBag())
        viewModel.configure(emailText: emailText, passwordText: passwordText, signInButtonTap: signInButtonTap)

        scheduler.test(viewModel.emailIsValid) { valid in
            emailText.onNext("test@")
            valid.expectNext(false)
            emailText.onNext(validEmail)
            valid.expectNext(true)
        }
    }
}
