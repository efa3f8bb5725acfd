import Foundation
import RivuletTestSupport
import RxCocoa
import RxRelay
import RxSwift
import RxTest
import Testing
import XCTest

/// A view model of the kind the login example has: relays in, a Driver and a Signal out.
private final class FormViewModel {
    let name = PublishRelay<String>()
    let submitted = PublishRelay<Void>()
    let isValid: Driver<Bool>
    let submissions: Signal<String>

    init() {
        isValid = name
            .map { $0.count >= 3 }
            .startWith(false)
            .asDriver(onErrorJustReturn: false)
        submissions = submitted
            .withLatestFrom(name)
            .asSignal(onErrorJustReturn: "")
    }
}

/// Drives the form's Driver and emits its Signal on the main actor, types a short and
/// a valid name and submits: what each received.
@MainActor
private func driveTheForm() -> (valid: [Bool], submitted: [String]) {
    let viewModel = FormViewModel()
    let disposeBag = DisposeBag()
    var valid: [Bool] = []
    var submitted: [String] = []
    viewModel.isValid.drive(onNext: { valid.append($0) }).disposed(by: disposeBag)
    viewModel.submissions.emit(onNext: { submitted.append($0) }).disposed(by: disposeBag)
    viewModel.name.accept("al")
    viewModel.name.accept("alice")
    viewModel.submitted.accept(())
    return (valid, submitted)
}

/// Drives a relay's Driver after a suspension of the main actor: what it received.
@MainActor
private func driveAfterSuspending() async -> [Int] {
    await Task.yield()
    let relay = BehaviorRelay(value: 1)
    var seen: [Int] = []
    let subscription = relay.asDriver().drive(onNext: { seen.append($0) })
    relay.accept(2)
    subscription.dispose()
    return seen
}

/// On Linux the main actor's jobs run on the main queue, which a worker thread serves
/// while the test runner's main thread waits: `drive` and `emit` must take that for the
/// main thread, as they do on the main thread itself.
@Suite("Driver and Signal from @MainActor tests")
@MainActor
struct MainActorDriveTests {
    @Test("drive and emit on the real main scheduler")
    func driveAndEmitOnTheMainScheduler() {
        let (valid, submitted) = driveTheForm()
        #expect(valid == [false, false, true])
        #expect(submitted == ["alice"])
    }

    @Test("the main scheduler runs work scheduled from the main actor at once")
    func mainSchedulerRunsAtOnceOnTheMainActor() {
        var ran = false
        _ = MainScheduler.instance.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        #expect(ran)
        MainScheduler.ensureRunningOnMainThread()
    }

    @Test("drive and emit with a mocked sharing scheduler, in virtual time")
    func driveAndEmitWithAMockedScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let valid = scheduler.createObserver(Bool.self)
        let submitted = scheduler.createObserver(String.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = FormViewModel()
            let disposeBag = DisposeBag()
            viewModel.isValid.drive(valid).disposed(by: disposeBag)
            viewModel.submissions.emit(to: submitted).disposed(by: disposeBag)
            scheduler.createColdObservable([.next(10, "al"), .next(20, "alice")])
                .bind(to: viewModel.name)
                .disposed(by: disposeBag)
            scheduler.createColdObservable([.next(30, ())])
                .bind(to: viewModel.submitted)
                .disposed(by: disposeBag)
            scheduler.start()
        }
        // RxSwift's timings: the test scheduler runs work scheduled at the current tick
        // one tick later, so each element the Driver observes on it arrives 1 late.
        #expect(valid.events == [.next(1, false), .next(11, false), .next(21, true)])
        #expect(submitted.events == [.next(31, "alice")])
    }

    @Test("an async @MainActor test drives after a suspension")
    func driveAfterASuspension() async {
        #expect(await driveAfterSuspending() == [1, 2])
    }
}

/// Misuse inside a test fails that test, at the line that made it, and the run goes on.
@Suite("Misuse fails the test, not the process")
struct MisuseInTestsTests {
    @Test("drive off the main actor records an issue at the drive call and still subscribes")
    func driveOffTheMainThread() async {
        let line = LockedBox(0)
        let failures = await capturingFailures {
            // A task of the test's own (not detached): it runs off the main actor and
            // still knows its test.
            await Task {
                let relay = BehaviorRelay(value: 7)
                let seen = LockedBox(0)
                line.value = #line + 1
                let subscription = relay.asDriver().drive(onNext: { seen.value = $0 })
                // The Driver delivers on the main queue, so the element comes later.
                #expect(await eventually { seen.value == 7 })
                subscription.dispose()
            }.value
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.contains("drive(...) was called off the main thread") == true)
        #expect(failures.first?.destination == .swiftTesting)
        #expect(failures.first?.fileName == "MainActorDriveTests.swift")
        #expect(failures.first?.line == line.value)
    }

    @Test("TestScheduler.current outside a virtual-time test records an issue and gives a scheduler")
    func currentOutsideVirtualTime() {
        let failures = capturingFailures {
            let scheduler = TestScheduler.current
            let observer = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(5) { observer.onNext(1) }
            scheduler.start()
            #expect(observer.events == [.next(5, 1)])
        }
        #expect(failures.map(\.message).joined().contains("TestScheduler.current was read outside a virtual-time test"))
        #expect(failures.count == 1)
    }

    @Test("binding an error to a relay records an issue")
    func bindingAnErrorToARelay() {
        let failures = capturingFailures {
            let relay = PublishRelay<Int>()
            _ = Observable<Int>.error(testError).bind(to: relay)
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.contains("Binding error to PublishRelay<Int>: \(testError)") == true)
    }
}

/// The same in XCTest, in the two forms that XCTest's test discovery on Linux takes: an
/// `async` `@MainActor` test, and a plain synchronous test that enters the main actor
/// with `MainActor.assumeIsolated` (a synchronous `@MainActor` test aborts the run when
/// it is its class's only kind of test, and fails to build beside a plain one). Misuse
/// is recorded as the case's failure.
final class MainActorDriveXCTests: XCTestCase {
    func testDriveAndEmitOnTheMainActorEnteredFromASynchronousTest() {
        XCTAssertTrue(Thread.isMainThread)
        let (valid, submitted) = MainActor.assumeIsolated { driveTheForm() }
        XCTAssertEqual(valid, [false, false, true])
        XCTAssertEqual(submitted, ["alice"])
    }

    @MainActor
    func testDriveOnTheMainActorAfterASuspension() async {
        let seen = await driveAfterSuspending()
        XCTAssertEqual(seen, [1, 2])
    }

    @MainActor
    func testDriveWithAMockedScheduler() async {
        let scheduler = TestScheduler(initialClock: 0)
        let valid = scheduler.createObserver(Bool.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = FormViewModel()
            let disposeBag = DisposeBag()
            viewModel.isValid.drive(valid).disposed(by: disposeBag)
            scheduler.createColdObservable([.next(10, "alice")])
                .bind(to: viewModel.name)
                .disposed(by: disposeBag)
            scheduler.start()
        }
        XCTAssertEqual(valid.events, [.next(1, false), .next(11, true)])
    }

    private var captured: [(description: String, line: Int)] = []
    private var capturing = false

    #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
        guard capturing else { return super.record(issue) }
        captured.append((issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0))
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard capturing else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        captured.append((description, lineNumber))
    }
    #endif

    func testDriveOffTheMainThreadFailsTheCase() {
        capturing = true
        let line = LockedBox(0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            line.value = #line + 1
            let subscription = Driver.just(1).drive(onNext: { _ in })
            subscription.dispose()
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        capturing = false
        XCTAssertEqual(captured.count, 1)
        XCTAssertTrue(captured.first?.description.contains("drive(...) was called off the main thread") ?? false)
        XCTAssertEqual(captured.first?.line, line.value)
    }
}

/// A class whose only test is an `async` `@MainActor` one: XCTest's discovery on Linux
/// lists it as an asynchronous test, so the run goes on (a synchronous one alone would
/// stop the whole run at discovery).
final class MainActorAsyncOnlyXCTests: XCTestCase {
    @MainActor
    func testDriveAndEmitFromAnAsyncMainActorTest() async {
        let (valid, submitted) = driveTheForm()
        XCTAssertEqual(valid, [false, false, true])
        XCTAssertEqual(submitted, ["alice"])
    }
}
