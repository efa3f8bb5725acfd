// The sign-in example, running: a user types an e-mail address and a password on a
// keyboard queue, taps "Sign in", and a back end on a network queue answers 300 ms
// later. Lanes record the view model's inputs and outputs; the recording is saved to
// the file named by the first argument (sign-in.lanes by default), for
// `rxmarbles lanes sign-in.lanes` to draw, or to write as a test:
//
//     rxmarbles lanes sign-in.lanes --test xctest \
//         --inputs email,password,signInTap --output signInButtonEnabled
import ExampleViewModels
import Foundation
import RxLanes
import RxSwift

/// A back end that answers each sign-in after 300 ms, on its own queue.
final class DelayedSignInAPI: SignInAPIType {
    let network = SerialDispatchQueueScheduler(internalSerialQueueName: "com.example.network")

    func signIn(with details: SignInDetails) -> Observable<SignInResponse> {
        Observable.just(SignInResponse(email: details.emailText, account: "workable"))
            .delay(.milliseconds(300), scheduler: network)
    }
}

let path = CommandLine.arguments.dropFirst().first ?? "sign-in.lanes"
let recorder = LaneRecorder()
let email = PublishSubject<String>()
let password = PublishSubject<String>()
let signInTap = PublishSubject<Void>()

let disposeBag = DisposeBag()
let viewModel = SignInViewModel(signInAPI: DelayedSignInAPI(), disposeBag: disposeBag)
viewModel.configure(
    emailText: email.recordLane("email", in: recorder),
    passwordText: password.recordLane("password", in: recorder),
    signInButtonTap: signInTap.recordLane("signInTap", in: recorder)
)

// The view binds the outputs on the main queue, as an app does.
let finished = DispatchSemaphore(value: 0)
viewModel.signInButtonEnabled.recordLane("signInButtonEnabled", in: recorder)
    .observe(on: MainScheduler.instance)
    .subscribe(onNext: { print("sign-in button enabled: \($0)") })
    .disposed(by: disposeBag)
viewModel.signIn.recordLane("signIn", in: recorder)
    .observe(on: MainScheduler.instance)
    .subscribe(onNext: { response in
        print("signed in: \(response.account)")
        finished.signal()
    })
    .disposed(by: disposeBag)

// What the user does, in milliseconds from now: each keystroke sends the field's text.
var script: [(at: Int, action: @Sendable () -> Void)] = []
for (index, prefix) in ["t", "te", "tes", "test", "test@", "test@t", "test@te", "test@test.com"].enumerated() {
    script.append((100 + 60 * index, { email.onNext(prefix) }))
}
for (index, prefix) in ["A", "As", "Asd", "Asd1", "Asd12", "Asd123", "Asd123!", "Asd123!!"].enumerated() {
    script.append((700 + 50 * index, { password.onNext(prefix) }))
}
script.append((1_400, { signInTap.onNext(()) }))

let keyboard = DispatchQueue(label: "com.example.keyboard")
let start = DispatchTime.now()
for step in script {
    keyboard.asyncAfter(deadline: start + .milliseconds(step.at), execute: step.action)
}

// Serve the main queue until the back end answered (at most 10 s).
let deadline = Date().addingTimeInterval(10)
while finished.wait(timeout: .now()) == .timedOut, Date() < deadline {
    RunLoop.main.run(until: Date().addingTimeInterval(0.01))
}

let recording = recorder.snapshot()
do {
    try recording.fileText.write(toFile: path, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("sign-in-recording: cannot write \(path): \(error)\n".utf8))
    exit(1)
}
print("recorded \(recording.entries.count) entries in \(recording.lanes.count) lanes to \(path)")
