import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

/// Disposes `subscription` on a thread started for it, once `start` is signalled, then
/// signals `done`.
private func dispose(_ subscription: Disposable, onAThreadOfItsOwnAfter start: DispatchSemaphore, then done: DispatchSemaphore) {
    let ending = SingleAssignmentDisposable()
    ending.setDisposable(subscription)
    Thread {
        start.wait()
        ending.dispose()
        done.signal()
    }.start()
}

/// A clock for the leak check's grace that only the waiting moves: each pause is one
/// millisecond. `onPause` runs at each, given how many there have been.
private func manualGraceClock(
    onPause: @escaping @Sendable (Int) -> Void = { _ in }
) -> (clock: TestScopeTracker.GraceClock, pauses: LockedBox<Int>) {
    let pauses = LockedBox(0)
    let clock = TestScopeTracker.GraceClock(
        now: { .milliseconds(pauses.value) },
        pause: {
            let count = pauses.withLock { count -> Int in
                count += 1
                return count
            }
            onPause(count)
        }
    )
    return (clock, pauses)
}

/// An object that outlives a test, as a service or a singleton would.
private final class LongLived: @unchecked Sendable {
    let subject = PublishSubject<Int>()
}

@Suite("Leak check: what a checked scope reports")
struct LeakCheckTests {
    static let advice = "Dispose them (a DisposeBag that ends with the test, take/takeUntil, or the disposable subscribe returns), or opt out with .rxLeakCheck(.disabled)."
    static let pendingWorkAdvice = "Work scheduled by operators or code under test (a timer, a delay, an interval) was never run or disposed: dispose the subscription, or run the scheduler to the end."

    @Test("a subscription left open on an object that outlives the test is listed with where it was made and when")
    func openSubscription() {
        let service = LongLived()
        let subscribeLine = #line + 5
        let failures = capturingFailures {
            withRxLeakCheck {
                let scheduler = TestScheduler(initialClock: 0)
                let observer = scheduler.createObserver(Int.self)
                _ = service.subject.map { $0 * 2 }.filter { $0 > 0 }.subscribe(observer)
                scheduler.advanceTo(10)
                service.subject.onNext(1)
            }
        }
        #expect(failures.map(\.message) == ["""
            Leak check: 2 open subscriptions at the end of the test:
              filter, subscribed at LeakCheckTests.swift:\(subscribeLine), virtual time 0
              map, subscribed at LeakCheckTests.swift:\(subscribeLine), virtual time 0
            \(Self.advice)
            """])
        #expect(failures.first?.line == subscribeLine)
        #expect(failures.first?.fileName == "LeakCheckTests.swift")
        #expect(failures.first?.destination == .swiftTesting)
    }

    @Test("a subscribe(onNext:) whose disposable is never disposed is reported even when everything was released")
    func neverDisposed() {
        let line = #line + 4
        let failures = capturingFailures {
            withRxLeakCheck {
                let subject = PublishSubject<Int>()
                _ = subject.subscribe(onNext: { _ in })
                subject.onNext(1)
            }
        }
        #expect(failures.map(\.message) == ["""
            Leak check: 1 open subscription at the end of the test:
              subscribe(onNext:onError:onCompleted:onDisposed:), never disposed, subscribed at LeakCheckTests.swift:\(line)
            \(Self.advice)
            """])
        #expect(failures.first?.line == line)
    }

    @Test("without call stacks a leak is placed by the latest kit call")
    func kitCallContext() {
        let service = LongLived()
        let registry = TestScopeTracker(options: .init(), scopeSite: nil)
        let startLine = #line + 3
        registry.install {
            let scheduler = TestScheduler(initialClock: 0)
            _ = scheduler.start(disposed: 300) {
                Observable<Int>.create { observer in
                    // An inner subscription the outer one never disposes.
                    _ = service.subject.map { $0 }.subscribe(observer)
                    return Disposables.create()
                }
            }
            let observerLine = #line + 1
            let observer = scheduler.createObserver(Int.self)
            _ = service.subject.filter { _ in true }.subscribe(observer)
            let findings = registry.findings()
            #expect(findings.count == 1)
            #expect(findings.first?.message == """
                Leak check: 2 open subscriptions at the end of the test:
                  map, subscribed during scheduler.start at LeakCheckTests.swift:\(startLine), virtual time 200
                  filter, subscribed after createObserver at LeakCheckTests.swift:\(observerLine), virtual time 300
                \(Self.advice)
                """)
            #expect(findings.first?.site?.line == UInt(startLine))
        }
    }

    @Test("a subscription another thread is still tearing down at the end is not a leak; one nobody ends still is")
    func teardownOnAnotherThread() {
        let service = LongLived()
        // Disposed on a thread of its own once the check has begun waiting: the check's
        // first pause lasts until that disposal, so the teardown is in flight during the
        // grace however busy the machine is, and the grace runs on a clock only the
        // waiting moves.
        let checkStarts = DispatchSemaphore(value: 0)
        let disposed = DispatchSemaphore(value: 0)
        let grace = manualGraceClock { pause in
            guard pause == 1 else { return }
            checkStarts.signal()
            _ = disposed.wait(timeout: .now() + 10)
        }
        let registry = TestScopeTracker(options: .init(graceClock: grace.clock), scopeSite: nil)
        registry.install {
            dispose(service.subject.map { $0 }.subscribe(onNext: { _ in }), onAThreadOfItsOwnAfter: checkStarts, then: disposed)
            #expect(registry.findings().isEmpty)
            #expect(grace.pauses.value == 1)
            // Never disposed: still reported, after the whole default grace.
            _ = service.subject.filter { _ in true }.subscribe(onNext: { _ in })
            let findings = registry.findings()
            #expect(findings.count == 1)
            #expect(grace.pauses.value == 1 + 250)
            let message = findings.first?.message ?? ""
            #expect(message.contains("\n  filter"))
            #expect(!message.contains("\n  map"))
        }
    }

    @Test("a leak is reported once the default grace is over, with the one line it was made at")
    func reportTime() {
        let service = LongLived()
        #expect(RxCheckOptions().teardownGrace == .milliseconds(250))
        #expect(RxCheckOptions.enabled.teardownGrace == .milliseconds(250))
        let clock = ContinuousClock()
        var failures: [CapturedFailure] = []
        let line = #line + 5
        let elapsed = clock.measure {
            failures = capturingFailures {
                withRxLeakCheck {
                    for _ in 0..<3 {
                        _ = service.subject.map { $0 }.filter { _ in true }.subscribe(onNext: { _ in })
                    }
                }
            }
        }
        #expect(failures.count == 1)
        #expect(failures.map(\.message) == ["""
            Leak check: 6 open subscriptions at the end of the test:
              3 × subscribe(onNext:onError:onCompleted:onDisposed:), never disposed, subscribed at LeakCheckTests.swift:\(line)
              3 × map, subscribed at LeakCheckTests.swift:\(line)
            \(Self.advice)
            """])
        #expect(elapsed >= .milliseconds(250), "the default grace is waited out before a leak is reported")
    }

    @Test("the end of a scope waits the grace it is given for a teardown in flight")
    func configuredGrace() {
        // On clocks of the test's own, which only the waiting moves: how long each wait
        // lasted is exact, whatever the load of the machine.
        let service = LongLived()

        // A leak waits out the whole grace, and no more.
        let leaking = manualGraceClock()
        let leakingScope = TestScopeTracker(options: .init(teardownGrace: .milliseconds(400), graceClock: leaking.clock), scopeSite: nil)
        leakingScope.install {
            _ = service.subject.map { $0 }.subscribe(onNext: { _ in })
        }
        #expect(leakingScope.findings().count == 1)
        leakingScope.close()
        #expect(leaking.pauses.value == 400)

        // No grace: reported at once.
        let immediate = manualGraceClock()
        let immediateScope = TestScopeTracker(options: .init(teardownGrace: .zero, graceClock: immediate.clock), scopeSite: nil)
        immediateScope.install {
            _ = service.subject.map { $0 }.subscribe(onNext: { _ in })
        }
        #expect(immediateScope.findings().count == 1)
        immediateScope.close()
        #expect(immediate.pauses.value == 0)

        // A long grace ends as soon as the teardown in flight does: here, a subscription
        // another thread disposes once the check has begun waiting.
        let checkBegan = DispatchSemaphore(value: 0)
        let disposed = DispatchSemaphore(value: 0)
        let inFlight = manualGraceClock { pause in
            guard pause == 1 else { return }
            checkBegan.signal()
            _ = disposed.wait(timeout: .now() + 10)
        }
        let registry = TestScopeTracker(options: .init(teardownGrace: .seconds(20), graceClock: inFlight.clock), scopeSite: nil)
        registry.install {
            dispose(service.subject.map { $0 }.subscribe(onNext: { _ in }), onAThreadOfItsOwnAfter: checkBegan, then: disposed)
        }
        let findings = registry.findings()
        registry.close()
        #expect(findings.isEmpty)
        #expect(inFlight.pauses.value == 1)
    }

    @Test("disposed, completed and failed subscriptions are not leaks")
    func cleanScopes() {
        let service = LongLived()
        let registry = withRxLeakCheck { () -> TestScopeTracker? in
            let scheduler = TestScheduler(initialClock: 0)
            let bag = DisposeBag()
            service.subject.map { $0 + 1 }.subscribe(onNext: { _ in }).disposed(by: bag)
            _ = Observable.of(1, 2, 3).map { $0 * 2 }.subscribe(onNext: { _ in })
            _ = Observable<Int>.error(testError).subscribe(onError: { _ in })
            let res = scheduler.start { Observable<Int>.interval(.seconds(10), scheduler: scheduler).take(3) }
            #expect(res.events.count == 4)
            let xs = scheduler.createHotObservable([.next(1500, 1)])
            scheduler.advanceTo(1100)
            _ = xs
            return TestScopeTracker.current
        }
        // Counting happened: the scope saw the subscriptions and closed each of them.
        #expect((registry?.openedCount ?? 0) >= 8)
        #expect(registry?.openCount == 0)
    }

    @Test("work left pending on a TestScheduler is reported with where the scheduler was made")
    func pendingWork() {
        var keep: TestScheduler?
        let schedulerLine = #line + 3
        let failures = capturingFailures {
            withRxLeakCheck(.leaksOnly) {
                let scheduler = TestScheduler(initialClock: 0)
                keep = scheduler
                let subscription = Observable<Int>.timer(.seconds(300), scheduler: scheduler).subscribe(onNext: { _ in })
                let delayed = Observable.just(1).delay(.seconds(500), scheduler: scheduler).subscribe(onNext: { _ in })
                scheduler.advanceTo(250)
                // Disposing cancels the timer's work; the delay's subscription stays open,
                // and its pending timer holds the delay, as RxSwift's does.
                subscription.dispose()
                _ = delayed
            }
        }
        #expect(failures.map(\.message) == [
            """
            Leak check: 2 open subscriptions at the end of the test:
              subscribe(onNext:onError:onCompleted:onDisposed:), never disposed, subscribed at LeakCheckTests.swift:\(schedulerLine + 3), virtual time 0
              delay, subscribed at LeakCheckTests.swift:\(schedulerLine + 3), virtual time 0
            \(Self.advice)
            """,
            "Leak check: TestScheduler created at LeakCheckTests.swift:\(schedulerLine) still has 1 pending action at the end of the test, due at virtual time 500 (clock at 250).\n"
                + Self.pendingWorkAdvice,
        ])
        #expect(failures.map(\.line) == [schedulerLine + 3, schedulerLine])
        #expect(keep?.pendingSchedulerWork == [500])
    }

    @Test("scripted events of testable observables are not pending work")
    func scriptedWorkIsNotALeak() {
        let registry = withRxLeakCheck { () -> TestScopeTracker? in
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(300, 1), .completed(400)])
            let ys = scheduler.createColdObservable([.next(300, 1)])
            scheduler.scheduleAt(500) {}
            scheduler.advanceTo(200)
            #expect(scheduler.pendingSchedulerWork.isEmpty)
            _ = (xs, ys)
            return TestScopeTracker.current
        }
        #expect(registry?.findings().isEmpty == true)
    }

    @Test("subscriptions made while scheduler.start runs are placed where they were made, at the time they were made")
    func duringStart() {
        let service = LongLived()
        let innerLine = #line + 7
        let failures = capturingFailures {
            withRxLeakCheck {
                let scheduler = TestScheduler(initialClock: 0)
                _ = scheduler.start(disposed: 300) {
                    Observable<Int>.create { observer in
                        // An inner subscription the outer one never disposes.
                        _ = service.subject.map { $0 }.subscribe(observer)
                        return Disposables.create()
                    }
                }
            }
        }
        #expect(failures.map(\.message) == ["""
            Leak check: 1 open subscription at the end of the test:
              map, subscribed at LeakCheckTests.swift:\(innerLine), virtual time 200
            \(Self.advice)
            """])
    }

    @Test("with call stacks, each leak lists the frames it was subscribed from")
    func callStacks() {
        let service = LongLived()
        let line = #line + 4
        let scopeLine = line - 1
        let failures = capturingFailures {
            withRxLeakCheck(.callStacks) {
                _ = service.subject.map { $0 }.subscribe(AnyObserver { _ in })
            }
        }
        #expect(failures.count == 1)
        let lines = failures.first?.message.split(separator: "\n").map(String.init) ?? []
        #expect(lines.count > 4)
        #expect(lines.prefix(4) == [
            "Leak check: 1 open subscription at the end of the test:",
            "  map, subscribed at LeakCheckTests.swift:\(line)",
            "      closure #1 in closure #1 in LeakCheckTests.callStacks() at LeakCheckTests.swift:\(line)",
            "      closure #1 in LeakCheckTests.callStacks() at LeakCheckTests.swift:\(scopeLine)",
        ])
    }

    @Test("the .rxLeakCheck trait reports at the end of the test it scopes")
    func traitScope() async throws {
        let service = LongLived()
        let test = try #require(Test.current)
        let trait = RxLeakCheckTrait.rxLeakCheck(.enabled)
        let testCase = Test.Case.current
        let line = #line + 3
        let failures = try await capturingFailures {
            try await trait.provideScope(for: test, testCase: testCase) {
                _ = service.subject.map { $0 }.subscribe(AnyObserver { _ in })
            }
        }
        #expect(failures.map(\.message) == ["Leak check: 1 open subscription at the end of the test:\n  map, subscribed at LeakCheckTests.swift:\(line)\n" + Self.advice])
        #expect(failures.first?.line == line)
        // Opting out reports nothing.
        try await RxLeakCheckTrait.rxLeakCheck(.disabled).provideScope(for: test, testCase: Test.Case.current) {
            _ = service.subject.map { $0 }.subscribe(AnyObserver { _ in })
        }
    }

    @Test("outside a checked scope nothing is tracked")
    func inactiveOutsideAScope() {
        #expect(TestKitHooks.Tracking.current == nil)
        withRxLeakCheck {
            #expect(TestKitHooks.Tracking.current != nil)
            let inner = withRxLeakCheck(.disabled) { TestKitHooks.Tracking.current as? TestScopeTracker }
            #expect(inner?.options.leakCheck == false)
        }
        #expect(TestKitHooks.Tracking.current == nil)
    }

    @Test("parallel tests count only their own subscriptions", arguments: 1...24)
    func parallelCounts(leaks: Int) async {
        let service = LongLived()
        let subscribeLine = #line + 4
        let failures = await capturingFailures {
            await withRxLeakCheck(.leaksOnly) {
                for _ in 0..<leaks {
                    _ = service.subject.map { $0 }.subscribe(AnyObserver { _ in })
                    await Task.yield()
                }
                // Clean subscriptions on other tasks of this test count and close too.
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            let bag = DisposeBag()
                            Observable.of(1, 2).map { $0 }.subscribe(onNext: { _ in }).disposed(by: bag)
                            service.subject.filter { _ in true }.subscribe(onNext: { _ in }).disposed(by: bag)
                        }
                    }
                }
            }
        }
        let noun = leaks == 1 ? "subscription" : "subscriptions"
        let site = "map, subscribed at LeakCheckTests.swift:\(subscribeLine)\n"
        let line = leaks == 1 ? "  " + site : "  \(leaks) × " + site
        #expect(failures.map(\.message) == ["Leak check: \(leaks) open \(noun) at the end of the test:\n" + line + Self.advice])
    }
}

/// The metronome example, cut down: a beat every `period` on an injected
/// scheduler, counted 1...numerator.
private struct MetronomeViewModel {
    let beat: Observable<Int>

    init(numerator: Int, period: RxTimeInterval, beatScheduler: SchedulerType) {
        beat = Observable<Int>.interval(period, scheduler: beatScheduler)
            .map { $0 % numerator + 1 }
    }
}

@Suite("Leak check: the metronome, before and after")
struct MetronomeLeakTests {
    @Test("a beat subscription nobody disposes is listed with the timer work it left behind")
    func forgottenBeat() {
        let schedulerLine = #line + 4
        let subscribeLine = schedulerLine + 3
        let failures = capturingFailures {
            withRxLeakCheck {
                let scheduler = TestScheduler(initialClock: 0)
                let viewModel = MetronomeViewModel(numerator: 4, period: .seconds(10), beatScheduler: scheduler)
                let beat = scheduler.createObserver(Int.self)
                _ = viewModel.beat.subscribe(beat)
                scheduler.advanceTo(80)
                #expect(beat.events.compactMap(\.value.element) == [1, 2, 3, 4, 1, 2, 3, 4])
            }
        }
        #expect(failures.map(\.message) == [
            """
            Leak check: 2 open subscriptions at the end of the test:
              map, subscribed at LeakCheckTests.swift:\(subscribeLine), virtual time 0
              interval, subscribed at LeakCheckTests.swift:\(subscribeLine), virtual time 0
            \(LeakCheckTests.advice)
            """,
            "Leak check: TestScheduler created at LeakCheckTests.swift:\(schedulerLine) still has 1 pending action at the end of the test, due at virtual time 90 (clock at 80).\n"
                + LeakCheckTests.pendingWorkAdvice,
        ])
    }

    @Test("taking eight beats and disposing with the test is clean")
    func eightBeats() {
        let registry = withRxLeakCheck { () -> TestScopeTracker? in
            let bag = DisposeBag()
            let scheduler = TestScheduler(initialClock: 0)
            let viewModel = MetronomeViewModel(numerator: 4, period: .seconds(10), beatScheduler: scheduler)
            let beat = scheduler.createObserver(Int.self)
            viewModel.beat.take(8).subscribe(beat).disposed(by: bag)
            scheduler.start()
            #expect(beat.events.compactMap(\.value.element) == [1, 2, 3, 4, 1, 2, 3, 4])
            return TestScopeTracker.current
        }
        #expect(registry?.findings().isEmpty == true)
    }
}

@Suite("Leak check: a checked suite", .rxLeakCheck)
struct CheckedSuiteTests {
    @Test("a clean test in a checked suite passes, and the scope is installed")
    func clean() {
        #expect(TestScopeTracker.current?.options.leakCheck == true)
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.map { $0 * 10 } }
        #expect(res.events == [.next(210, 10), .completed(300)])
    }

    @Test("a test opts out of the suite's check", .rxLeakCheck(.disabled))
    func optOut() {
        #expect(TestScopeTracker.current?.options.leakCheck == false)
        #expect(TestScopeTracker.current?.options.anomalies == false)
    }
}
