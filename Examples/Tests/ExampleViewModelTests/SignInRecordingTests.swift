// A test written by rxmarbles 6.10.2 from a recording (sign-in.lanes): input lanes email, password, signInTap, output lane signInButtonEnabled, 68 entries over 1.7 s.
// One tick is 100 ms of the recording: the coarsest step at which no two input events change order. The output is subscribed at 200; the inputs' events follow at their recorded distance from that moment.
// Note: email was subscribed 3 times; its first subscription's events are the input.
// Note: password was subscribed 3 times; its first subscription's events are the input.

import ExampleViewModels
import RxSwift
import RxTest
import Testing

@Suite struct SignInButtonEnabledRecordingTests {
    @Test func recordedSignInButtonEnabled() {
        let scheduler = TestScheduler(initialClock: 0)
        let email = scheduler.createHotObservable([
            .next(201, "t"),
            .next(201, "te"),
            .next(202, "tes"),
            .next(202, "test"),
            .next(203, "test@"),
            .next(204, "test@t"),
            .next(204, "test@te"),
            .next(205, "test@test.com"),
        ])
        let password = scheduler.createHotObservable([
            .next(207, "A"),
            .next(207, "As"),
            .next(208, "Asd"),
            .next(208, "Asd1"),
            .next(209, "Asd12"),
            .next(209, "Asd123"),
            .next(210, "Asd123!"),
            .next(210, "Asd123!!"),
        ])
        let signInTap = scheduler.createHotObservable([
            .next(214, ()),
        ])
        let observer = scheduler.start(created: 100, subscribed: 200, disposed: 314) { () -> Observable<Bool> in
            // The pipeline under test: replace the next line with the code that was recorded (from email.asObservable(), password.asObservable(), signInTap.asObservable()):
            let viewModel = SignInViewModel(signInAPI: SignInAPIFake(), disposeBag: DisposeBag())
            viewModel.configure(emailText: email.asObservable(), passwordText: password.asObservable(), signInButtonTap: signInTap.asObservable())
            return viewModel.signInButtonEnabled
        }
        #expect(observer.events == [
            .next(200, false),
            .next(207, false),
            .next(207, false),
            .next(208, false),
            .next(208, false),
            .next(209, false),
            .next(209, false),
            .next(210, false),
            .next(210, true),
        ])
    }
}
