// What a TestScheduler-driven test of each example view model costs in a debug build
// (what `swift test` compiles), against a hand-written floor: the same test's work with
// no library, a view model of plain state and closures driven by a list of timed
// actions run in time order (a virtual clock by hand).
//
//   swift run view-model-test-cost [--quick]
//
// Each row runs one test body (a test of the example's suite, as written there, minus
// the assertion framework) many times and prints the median time per test over the
// repetitions, for Rivulet and for the floor. Both must produce the test's expected
// events, or the program stops with `CHECK FAILED` and status 2.

import ExampleViewModels
import Foundation
import RxCocoa
import RxSwift
import RxTest

// MARK: - The hand-written virtual clock

/// Timed actions, run in time order (those of one time in the order they were added).
final class HandClock {
    private var actions: [(time: Int, order: Int, action: () -> Void)] = []
    private(set) var now = 0

    func at(_ time: Int, _ action: @escaping () -> Void) {
        actions.append((time, actions.count, action))
    }

    func run() {
        // Actions added while running are picked up in their turn.
        var done = 0
        while done < actions.count {
            let next = actions[done...].indices.min { left, right in
                (actions[left].time, actions[left].order) < (actions[right].time, actions[right].order)
            }!
            actions.swapAt(done, next)
            now = actions[done].time
            actions[done].action()
            done += 1
        }
    }
}

/// A recorded output of the floor: its time and value.
struct Output<Value: Equatable>: Equatable {
    let time: Int
    let value: Value
}

// MARK: - The rows

struct Row {
    let name: String
    let test: String
    /// One test, with Rivulet; whether it produced the expected events.
    let rivulet: () -> Bool
    /// The same test's work by hand; whether it produced the expected events.
    let floor: () -> Bool
}

/// The counter: `CounterPresenterTests.testPresenterCount`.
let counter = Row(
    name: "counter",
    test: "hot taps at 100, 200, 300 → the count at each",
    rivulet: {
        let scheduler = TestScheduler(initialClock: 0)
        let disposeBag = DisposeBag()
        let buttonTaps = scheduler.createHotObservable([.next(100, ()), .next(200, ()), .next(300, ())])
        let results = scheduler.createObserver(Int.self)
        let presenter = Presenter(eventProvider: EventProvider(buttonTapped: buttonTaps.asObservable()))
        scheduler.scheduleAt(0) { presenter.count.subscribe(results).disposed(by: disposeBag) }
        scheduler.start()
        return results.events == [.next(100, 1), .next(200, 2), .next(300, 3)]
            && buttonTaps.subscriptions == [Subscription(0)]
    },
    floor: {
        let clock = HandClock()
        var onTap: (() -> Void)?
        var outputs: [Output<Int>] = []
        for time in [100, 200, 300] { clock.at(time) { onTap?() } }
        clock.at(0) {
            var count = 0
            onTap = {
                count += 1
                outputs.append(Output(time: clock.now, value: count))
            }
        }
        clock.run()
        return outputs == [Output(time: 100, value: 1), Output(time: 200, value: 2), Output(time: 300, value: 3)]
    }
)

/// The login: `LoginViewModelTests.test5LettersEnablesPassword`.
let login = Row(
    name: "login",
    test: "a cold username bound to the relay → passwordFieldEnabled",
    rivulet: {
        let scheduler = TestScheduler(initialClock: 0)
        let sut = LoginViewModel()
        let disposeBag = DisposeBag()
        let enabled = scheduler.createObserver(Bool.self)
        sut.passwordFieldEnabled.drive(enabled).disposed(by: disposeBag)
        scheduler.createColdObservable([.next(10, "use"), .next(20, "username"), .next(30, "user")])
            .bind(to: sut.loginInput)
            .disposed(by: disposeBag)
        scheduler.start()
        return enabled.events == [.next(0, false), .next(10, false), .next(20, true), .next(30, false)]
    },
    floor: {
        let clock = HandClock()
        var outputs: [Output<Bool>] = []
        let usernameValid: (String) -> Bool = { $0.count >= Constants.minimalUsernameLength }
        let emit: (Bool) -> Void = { outputs.append(Output(time: clock.now, value: $0)) }
        emit(false)
        for (time, text) in [(10, "use"), (20, "username"), (30, "user")] {
            clock.at(time) { emit(usernameValid(text)) }
        }
        clock.run()
        return outputs == [
            Output(time: 0, value: false), Output(time: 10, value: false),
            Output(time: 20, value: true), Output(time: 30, value: false),
        ]
    }
)

/// The metronome: `MetronomeTests.testBeatBy4` (4/4 at 120 BPM: a beat every 0.5 s,
/// 5 ticks of 0.1 s).
let metronome = Row(
    name: "metronome",
    test: "autoplay at 4/4, 120 BPM → 8 beats",
    rivulet: {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
        let viewModel = MetronomeViewModel(initialMeter: Meter(signature: "4/4"), autoplay: true, beatScheduler: scheduler)
        let disposeBag = DisposeBag()
        let beat = scheduler.createObserver(Beat.self)
        viewModel.beat.asObservable().take(8).bind(to: beat).disposed(by: disposeBag)
        scheduler.start()
        return beat.events == [
            .next(5, .first), .next(10, .regular), .next(15, .regular), .next(20, .regular),
            .next(25, .first), .next(30, .regular), .next(35, .regular), .next(40, .regular),
            .completed(40),
        ]
    },
    floor: {
        let clock = HandClock()
        var outputs: [Output<Beat?>] = []
        let numerator = 4
        let ticks = Int((60.0 / 120.0 * 4.0 / 4.0 / 0.1).rounded())
        var index = 0
        func tick() {
            outputs.append(Output(time: clock.now, value: index % numerator == 0 ? .first : .regular))
            index += 1
            if index == 8 {
                outputs.append(Output(time: clock.now, value: nil))
            } else {
                clock.at(clock.now + ticks, tick)
            }
        }
        clock.at(ticks, tick)
        clock.run()
        let expected: [Beat?] = [.first, .regular, .regular, .regular, .first, .regular, .regular, .regular, nil]
        return outputs == zip([5, 10, 15, 20, 25, 30, 35, 40, 40], expected).map { Output(time: $0, value: $1) }
    }
)

/// The sign-in example's fake back end for the TestScheduler test.
final class SignInAPIFake: SignInAPIType {
    var response: Observable<SignInResponse> = .empty()
    func signIn(with signInDetails: SignInDetails) -> Observable<SignInResponse> { response }
}

let validEmail = "test@test.com"
let validPassword = "Asd123!!"
let response = SignInResponse(email: "test@test.com", account: "workable")

/// The sign-in: the TestScheduler spec of `SignInViewModelSpecs` (hot email, password
/// and tap; a cold response), its four event assertions.
let signIn = Row(
    name: "sign-in",
    test: "hot email, password and tap → validity, button, response",
    rivulet: {
        let scheduler = TestScheduler(initialClock: 0)
        let api = SignInAPIFake()
        let disposeBag = DisposeBag()
        let sut = SignInViewModel(signInAPI: api, disposeBag: disposeBag)
        let email = scheduler.createObserver(Bool.self)
        let password = scheduler.createObserver(Bool.self)
        let button = scheduler.createObserver(Bool.self)
        let action = scheduler.createObserver(SignInResponse.self)
        let emailText = scheduler.createHotObservable([.next(1, "test@"), .next(3, validEmail)])
        let passwordText = scheduler.createHotObservable([.next(2, "asd"), .next(3, validPassword)])
        let tap = scheduler.createHotObservable([.next(4, ())])
        api.response = scheduler.createColdObservable([.next(0, response)]).asObservable()
        sut.configure(emailText: emailText.asObservable(), passwordText: passwordText.asObservable(), signInButtonTap: tap.asObservable())
        scheduler.scheduleAt(0) {
            sut.emailIsValid.subscribe(email).disposed(by: disposeBag)
            sut.passwordIsValid.subscribe(password).disposed(by: disposeBag)
            sut.signInButtonEnabled.subscribe(button).disposed(by: disposeBag)
            sut.signIn.subscribe(action).disposed(by: disposeBag)
        }
        scheduler.start()
        return button.events == [.next(0, false), .next(2, false), .next(3, false), .next(3, true)]
            && email.events == [.next(1, false), .next(3, true)]
            && password.events == [.next(2, false), .next(3, true)]
            && action.events == [.next(4, response)]
    },
    floor: {
        let clock = HandClock()
        var emailValid: [Output<Bool>] = []
        var passwordValid: [Output<Bool>] = []
        var button: [Output<Bool>] = []
        var action: [Output<SignInResponse>] = []
        var latest: (email: String?, emailValid: Bool?, password: String?, passwordValid: Bool?) = (nil, nil, nil, nil)
        func buttonChanged() {
            if let emailIsValid = latest.emailValid, let passwordIsValid = latest.passwordValid {
                button.append(Output(time: clock.now, value: emailIsValid && passwordIsValid))
            }
        }
        clock.at(0) { button.append(Output(time: clock.now, value: false)) }
        for (time, text) in [(1, "test@"), (3, validEmail)] {
            clock.at(time) {
                let valid = RegexMatcher.email.matches(string: text)
                latest.email = text
                latest.emailValid = valid
                emailValid.append(Output(time: clock.now, value: valid))
                buttonChanged()
            }
        }
        for (time, text) in [(2, "asd"), (3, validPassword)] {
            clock.at(time) {
                let valid = RegexMatcher.password.matches(string: text)
                latest.password = text
                latest.passwordValid = valid
                passwordValid.append(Output(time: clock.now, value: valid))
                buttonChanged()
            }
        }
        clock.at(4) {
            guard latest.emailValid == true, latest.passwordValid == true, latest.email != nil, latest.password != nil else { return }
            action.append(Output(time: clock.now, value: response))
        }
        clock.run()
        return button == [false, false, false, true].enumerated().map { Output(time: [0, 2, 3, 3][$0.offset], value: $0.element) }
            && emailValid == [Output(time: 1, value: false), Output(time: 3, value: true)]
            && passwordValid == [Output(time: 2, value: false), Output(time: 3, value: true)]
            && action == [Output(time: 4, value: response)]
    }
)

// MARK: - Timing

func nanoseconds() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// The median over `repetitions` runs of `iterations` tests, in microseconds per test.
func measure(_ row: Row, _ implementation: String, _ test: () -> Bool, iterations: Int, repetitions: Int) -> Double {
    guard test() else {
        print("CHECK FAILED: \(row.name) (\(implementation)) did not produce the test's expected events")
        exit(2)
    }
    var times: [Double] = []
    for _ in 0..<repetitions {
        let start = nanoseconds()
        for _ in 0..<iterations where !test() {
            print("CHECK FAILED: \(row.name) (\(implementation)) did not produce the test's expected events")
            exit(2)
        }
        times.append(Double(nanoseconds() - start) / Double(iterations) / 1000)
    }
    return times.sorted()[times.count / 2]
}

let quick = CommandLine.arguments.contains("--quick")
let iterations = quick ? 20 : 300
let repetitions = quick ? 3 : 7
#if DEBUG
let build = "debug build (what swift test compiles)"
#else
let build = "release build (swift test compiles in debug: run without -c release)"
#endif
print("TestScheduler-driven tests of the example view models, \(build)")
print("µs per test: median of \(repetitions) runs of \(iterations) tests each")
print("")
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
print(pad("view model", 11) + pad("test", 60) + pad("floor µs", 10) + pad("Rivulet µs", 12) + "Riv/floor")
for row in [signIn, login, metronome, counter] {
    let floor = measure(row, "floor", row.floor, iterations: iterations, repetitions: repetitions)
    let rivulet = measure(row, "Rivulet", row.rivulet, iterations: iterations, repetitions: repetitions)
    print(pad(row.name, 11) + pad(row.test, 60) + pad(String(format: "%.1f", floor), 10)
        + pad(String(format: "%.1f", rivulet), 12) + String(format: "%.1fx", rivulet / floor))
}
