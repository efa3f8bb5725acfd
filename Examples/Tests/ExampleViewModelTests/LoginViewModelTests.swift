import Foundation
import RxCocoa
import RxSwift
import RxTest
import ExampleViewModels
import XCTest

/// The login example: relays in, Drivers out, cold observables bound to the relays. XCTest runs
/// on the main thread, where Drivers deliver at once.
final class LoginViewModelTests: XCTestCase {
    var testScheduler: TestScheduler!
    var sut: LoginViewModel!
    var disposeBag: DisposeBag!

    override func setUp() {
        testScheduler = TestScheduler(initialClock: 0)
        sut = LoginViewModel()
        disposeBag = DisposeBag()
    }

    override func tearDown() {
        testScheduler = nil
        sut = nil
        disposeBag = nil
    }

    func test5LettersEnablesPassword() {
        let boolObserver = testScheduler.createObserver(Bool.self)
        sut.passwordFieldEnabled
            .drive(boolObserver)
            .disposed(by: disposeBag)

        let userInputEvents: [Recorded<Event<String>>] = [
            .next(10, "use"),
            .next(20, "username"),
            .next(30, "user"),
        ]
        testScheduler.createColdObservable(userInputEvents)
            .bind(to: sut.loginInput)
            .disposed(by: disposeBag)

        testScheduler.start()

        XCTAssertEqual(boolObserver.events, [
            .next(0, false),
            .next(10, false),
            .next(20, true),
            .next(30, false),
        ])
    }

    func test5LettersEnablesPasswordWithMarbles() {
        let enabled = testScheduler.createObserver(Bool.self)
        sut.passwordFieldEnabled.drive(enabled).disposed(by: disposeBag)
        testScheduler.createColdObservable([.next(10, "use"), .next(20, "username"), .next(30, "user")])
            .bind(to: sut.loginInput)
            .disposed(by: disposeBag)
        testScheduler.start()

        let expected = testScheduler.parseEventsAndTimes(
            timeline: "f---------f---------t---------f",
            values: ["f": false, "t": true]
        ).first!
        XCTAssertEqual(enabled.events, expected)
    }

    func testLoginSignal() {
        let boolObserver = testScheduler.createObserver(Bool.self)
        sut.loginButtonEnabled
            .drive(boolObserver)
            .disposed(by: disposeBag)

        let loginInputEvents: [Recorded<Event<String>>] = [
            .next(10, "user"),
            .next(20, "username"),
            .next(50, "use"),
        ]
        let passwordInputEvents: [Recorded<Event<String>>] = [
            .next(30, "pas"),
            .next(40, "password"),
        ]
        testScheduler.createColdObservable(passwordInputEvents)
            .bind(to: sut.passwordInput)
            .disposed(by: disposeBag)
        testScheduler.createColdObservable(loginInputEvents)
            .bind(to: sut.loginInput)
            .disposed(by: disposeBag)

        testScheduler.start()

        XCTAssertEqual(boolObserver.events, [
            .next(0, false),
            .next(10, false),
            .next(20, false),
            .next(30, false),
            .next(40, true),
            .next(50, false),
        ])
    }

    func testLoginActionEmitsTheLatestCredentials() {
        let observer = testScheduler.createObserver(String.self)
        sut.loginSignal
            .map { "\($0.0):\($0.1)" }
            .emit(to: observer)
            .disposed(by: disposeBag)
        testScheduler.createColdObservable([.next(10, "username")]).bind(to: sut.loginInput).disposed(by: disposeBag)
        testScheduler.createColdObservable([.next(20, "password")]).bind(to: sut.passwordInput).disposed(by: disposeBag)
        testScheduler.createColdObservable([.next(5, ()), .next(30, ())]).bind(to: sut.loginAction).disposed(by: disposeBag)
        testScheduler.start()
        // The tap at 5 finds no credentials yet, and a Signal replays nothing.
        XCTAssertEqual(observer.events, [.next(30, "username:password")])
    }
}

/// The login example's contrast: the same behaviour tested in real time on a concurrent
/// dispatch queue, with `delay` and an expectation.
final class StraightForwardLoginViewModelTests: XCTestCase {
    var sut: LoginViewModel!
    var disposeBag: DisposeBag!
    var results: [(Bool, TimeInterval)]!
    var scheduler: ConcurrentDispatchQueueScheduler!

    override func setUp() {
        sut = LoginViewModel()
        disposeBag = DisposeBag()
        results = []
        scheduler = ConcurrentDispatchQueueScheduler(qos: .background)
    }

    override func tearDown() {
        sut = nil
        disposeBag = nil
        results = nil
        scheduler = nil
    }

    func test5LettersEnablesPassword() {
        let initialTimeStamp = Date.timeIntervalSinceReferenceDate

        sut.passwordFieldEnabled
            .drive(onNext: { [weak self] value in
                self?.results.append((value, Date.timeIntervalSinceReferenceDate - initialTimeStamp))
            })
            .disposed(by: disposeBag)

        let expectation = XCTestExpectation(description: "last event was sent")

        Observable<String>.just("use").delay(0.1, scheduler: scheduler).bind(to: sut.loginInput).disposed(by: disposeBag)
        Observable<String>.just("username").delay(0.2, scheduler: scheduler).bind(to: sut.loginInput).disposed(by: disposeBag)
        Observable<String>.just("user").delay(0.3, scheduler: scheduler).bind(to: sut.loginInput).disposed(by: disposeBag)
        Observable<Int>.empty()
            .delay(0.4, scheduler: scheduler)
            .observe(on: MainScheduler.instance)
            .subscribe(onCompleted: { expectation.fulfill() })
            .disposed(by: disposeBag)

        wait(for: [expectation], timeout: 5)

        XCTAssertEqual(results.map(\.0), [false, false, true, false])
        // Real time only bounds the times from below: a loaded machine delivers late,
        // never early. This is the fragility virtual time removes.
        let times = results.map(\.1)
        XCTAssertEqual(times[0], 0, accuracy: 0.05)
        XCTAssertGreaterThanOrEqual(times[1], 0.1 - 0.001)
        XCTAssertGreaterThanOrEqual(times[2], 0.2 - 0.001)
        XCTAssertGreaterThanOrEqual(times[3], 0.3 - 0.001)
        XCTAssertLessThan(times[1], times[2])
        XCTAssertLessThan(times[2], times[3])
    }
}
