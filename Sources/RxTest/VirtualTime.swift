import RxSwift
import RxTestCore
import Testing

/// Runs `body` in virtual time: a new `TestScheduler` stands in for the main schedulers
/// (`MainScheduler.instance`, `MainScheduler.asyncInstance`, `ConcurrentMainScheduler`,
/// every `MainScheduler()`) and for the scheduler of `Driver` and `Signal`, for this
/// task only, and is `TestScheduler.current`. Code under test moves onto virtual
/// time without taking a scheduler parameter; tests running in parallel each have their own.
///
/// The XCTest counterpart of the `.virtualTime` trait:
///
/// ```swift
/// func testTempoText() {
///     withVirtualTime { scheduler in
///         let viewModel = MetronomeViewModel()          // delivers on MainScheduler.instance
///         let tempo = scheduler.createObserver(String.self)
///         viewModel.tempoText.drive(tempo).disposed(by: disposeBag)
///         scheduler.start()
///     }
/// }
/// ```
///
/// - Parameters:
///   - initialClock: The scheduler's first tick.
///   - resolution: Seconds per tick.
///   - simulateProcessingDelay: Whether work scheduled for now runs a tick later.
///   - body: The test, given the scheduler.
public func withVirtualTime<Result>(
    initialClock: TestTime = 0,
    resolution: Double = 1,
    simulateProcessingDelay: Bool = true,
    _ body: (TestScheduler) throws -> Result
) rethrows -> Result {
    let scheduler = TestScheduler(initialClock: initialClock, resolution: resolution, simulateProcessingDelay: simulateProcessingDelay)
    return try TestKitHooks.SchedulerSubstitution(scheduler: scheduler, taskExecutor: scheduler.executor).install {
        try body(scheduler)
    }
}

/// Runs the asynchronous `body` in virtual time, as the synchronous `withVirtualTime`
/// does, and also on the scheduler's task executor: `body`, its child tasks and the
/// tasks of Rivulet's async bridges run there, so the scheduler's asynchronous
/// `TestScheduler.advance(byTicks:)`, `TestScheduler.advance(toTick:)` and
/// `TestScheduler.run()` wait for them (see `VirtualClock`).
///
/// ```swift
/// try await withVirtualTime { scheduler in
///     async let first = ticks.take(1).asSingle().value
///     await scheduler.advance(byTicks: 10)
///     #expect(try await first == 0)
/// }
/// ```
public func withVirtualTime<Result>(
    initialClock: TestTime = 0,
    resolution: Double = 1,
    simulateProcessingDelay: Bool = true,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TestScheduler) async throws -> Result
) async throws -> Result {
    let scheduler = TestScheduler(initialClock: initialClock, resolution: resolution, simulateProcessingDelay: simulateProcessingDelay)
    let substitution = TestKitHooks.SchedulerSubstitution(scheduler: scheduler, taskExecutor: scheduler.executor)
    guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else {
        return try await substitution.install(isolation: isolation) { try await body(scheduler) }
    }
    return try await withTaskExecutorPreference(scheduler.executor, isolation: isolation) {
        try await substitution.install(isolation: isolation) { try await body(scheduler) }
    }
}

/// Runs each test in virtual time: the trait behind `.virtualTime`.
public struct VirtualTimeTrait: TestTrait, SuiteTrait, TestScoping {
    /// The first tick of each test's scheduler.
    public var initialClock: TestTime
    /// Seconds per tick.
    public var resolution: Double
    /// Whether work scheduled for now runs a tick later.
    public var simulateProcessingDelay: Bool

    /// On a suite, every test in it (and in nested suites) gets its own scheduler.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withVirtualTime(
            initialClock: initialClock, resolution: resolution, simulateProcessingDelay: simulateProcessingDelay
        ) { _ in
            try await function()
        }
    }
}

extension Trait where Self == VirtualTimeTrait {
    /// Runs the test in virtual time: a new `TestScheduler` (clock at 0, one second per
    /// tick) stands in for the main schedulers and the `Driver`/`Signal` scheduler of
    /// this test only, and is reachable as `TestScheduler.current`.
    ///
    /// ```swift
    /// @Test(.virtualTime) func tempoText() {
    ///     let scheduler = TestScheduler.current
    ///     ...
    /// }
    /// ```
    public static var virtualTime: Self {
        VirtualTimeTrait(initialClock: 0, resolution: 1, simulateProcessingDelay: true)
    }

    /// Runs the test in virtual time with a scheduler configured as given.
    public static func virtualTime(initialClock: TestTime = 0, resolution: Double = 1, simulateProcessingDelay: Bool = true) -> Self {
        VirtualTimeTrait(initialClock: initialClock, resolution: resolution, simulateProcessingDelay: simulateProcessingDelay)
    }
}
