import RxSwift
import RxTestCore
import Testing

/// What a checked test scope reports at its end.
///
/// ```swift
/// @Test(.rxLeakCheck) func allChecks() { ... }
/// @Test(.rxLeakCheck(.disabled)) func optOut() { ... }
/// @Test(.rxLeakCheck(.callStacks)) func huntingALeak() { ... }
/// ```
public struct RxCheckOptions: Sendable, Equatable {
    /// Subscriptions left open and work left pending on a `TestScheduler` fail the test.
    public var leaks: Bool
    /// Errors that reach no `onError` handler, overlapping or reentrant delivery through
    /// `Observable.create`, and events after a terminal event fail the test.
    public var anomalies: Bool
    /// Each subscription records the call stack it was made from, listed with a leak
    /// (slow: for hunting a leak, not for every run).
    public var callStacks: Bool
    /// How long the end of a scope waits for subscriptions still open to be disposed on
    /// another thread (a test that saw a terminal event may end while the thread that
    /// sent it is still tearing down) before it reports them as leaks; a quarter of a
    /// second by default. A test without leaks never waits: the wait ends as soon as
    /// nothing is open. A leak report takes at least this long; where each open
    /// subscription was made is found meanwhile.
    public var teardownGrace: Duration

    /// Options with each check chosen.
    public init(leaks: Bool = true, anomalies: Bool = true, callStacks: Bool = false, teardownGrace: Duration = .milliseconds(250)) {
        self.leaks = leaks
        self.anomalies = anomalies
        self.callStacks = callStacks
        self.teardownGrace = teardownGrace
    }

    /// Leaks and anomalies (the default).
    public static let enabled = RxCheckOptions()
    /// Nothing is checked; a test opts out of a suite's check with it.
    public static let disabled = RxCheckOptions(leaks: false, anomalies: false)
    /// Leaks only.
    public static let leaksOnly = RxCheckOptions(leaks: true, anomalies: false)
    /// Anomalies only.
    public static let anomaliesOnly = RxCheckOptions(leaks: false, anomalies: true)
    /// Leaks and anomalies, with the call stack of every subscription.
    public static let callStacks = RxCheckOptions(callStacks: true)

    var registryOptions: TestScopeTracker.Options {
        TestScopeTracker.Options(leakCheck: leaks, anomalies: anomalies, callStacks: callStacks, teardownGrace: teardownGrace)
    }

    /// A new scope, made at `site`, that checks what these options choose.
    func scope(at site: SourceSite?, key: String? = nil) -> TestScopeTracker {
        TestScopeTracker(options: registryOptions, scopeSite: site, scopeKey: key, captureStack: StackCapture.make())
    }
}

/// Runs `body` as a checked scope: at its end, subscriptions made in it that are still
/// open, work still pending on a `TestScheduler` created in it, events an
/// ``EventRecorder`` left unconsumed, unhandled errors and grammar anomalies each fail
/// the test, with what is left and where it was made.
///
/// For XCTest (in Swift Testing, prefer the `.rxLeakCheck` trait):
///
/// ```swift
/// func testLogin() {
///     withRxLeakCheck {
///         let scheduler = TestScheduler(initialClock: 0)
///         let viewModel = LoginViewModel()
///         let enabled = scheduler.createObserver(Bool.self)
///         let bag = DisposeBag()
///         viewModel.loginButtonEnabled.drive(enabled).disposed(by: bag)
///         ...
///     }   // the bag is gone: nothing open, nothing reported
/// }
/// ```
///
/// The scope counts what its own task does (a task-local registry), so tests running in
/// parallel never see each other's subscriptions. Subscriptions made on other threads
/// (inside a dispatch queue's callback) are not counted.
///
/// - Parameters:
///   - options: What to check; ``RxCheckOptions/enabled`` by default.
///   - fileID: The file the scope is reported in; the caller's by default.
///   - filePath: The path of that file; the caller's by default.
///   - line: The line the scope is reported at; the caller's by default.
///   - column: The column the scope is reported at; the caller's by default.
///   - body: The test code. Release what it owns before it returns (a `DisposeBag`
///     local to it, not a property that outlives it).
/// - Returns: What `body` returns.
public func withRxLeakCheck<Result>(
    _ options: RxCheckOptions = .enabled,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: () throws -> Result
) rethrows -> Result {
    let registry = options.scope(at: SourceSite(fileID: fileID, filePath: filePath, line: line, column: column))
    defer { reportFindings(of: registry) }
    return try registry.install(body)
}

/// The asynchronous form of ``withRxLeakCheck(_:fileID:filePath:line:column:_:)``: the
/// tasks `body` creates (not detached ones) count too.
public func withRxLeakCheck<Result>(
    _ options: RxCheckOptions = .enabled,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
) async rethrows -> Result {
    let registry = options.scope(at: SourceSite(fileID: fileID, filePath: filePath, line: line, column: column))
    defer { reportFindings(of: registry) }
    return try await registry.install(isolation: isolation, body)
}

/// Reports every finding of a scope that ended, then closes it.
func reportFindings(of registry: TestScopeTracker) {
    for finding in registry.findings() {
        reportFinding(finding, fallback: registry.scopeSite)
    }
    registry.close()
}

/// The `.rxLeakCheck` trait: the test (or every test of the suite) runs as a checked
/// scope (see ``withRxLeakCheck(_:fileID:filePath:line:column:_:)``).
///
/// ```swift
/// @Suite(.rxLeakCheck) struct LoginViewModelTests {
///     @Test func enablesTheButton() { ... }
///     @Test(.rxLeakCheck(.disabled)) func keepsAGlobalSubscription() { ... }
/// }
/// ```
///
/// The trait nearest to the test decides: a test's own `.rxLeakCheck(...)` replaces its
/// suite's, and a suite's replaces the enclosing suite's. Each test case (each argument
/// of a parameterized test) is a scope of its own.
public struct RxLeakCheckTrait: TestTrait, SuiteTrait, TestScoping {
    /// What the scope checks.
    public let options: RxCheckOptions

    /// Applies to every test of a suite.
    public var isRecursive: Bool { true }

    /// A scope for each test case, from the trait nearest to the test only.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        guard testCase != nil, !test.isSuite else { return nil }
        if let nearest = test.traits.last(where: { $0 is RxLeakCheckTrait }) as? RxLeakCheckTrait,
           nearest.options != options {
            return nil
        }
        return self
    }

    /// Runs the test as a checked scope.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withCheckedTestScope(for: test, testCase: testCase, options: options, performing: function)
    }
}

extension Trait where Self == RxLeakCheckTrait {
    /// Checks the test for open subscriptions, pending virtual work, unconsumed recorder
    /// events and Rx anomalies at its end.
    public static var rxLeakCheck: Self {
        RxLeakCheckTrait(options: .enabled)
    }

    /// Checks what `options` chooses; `.rxLeakCheck(.disabled)` opts a test out of its
    /// suite's check.
    public static func rxLeakCheck(_ options: RxCheckOptions) -> Self {
        RxLeakCheckTrait(options: options)
    }
}

/// The options of the `.rxLeakCheck` trait nearest to `test`, or `fallback` when it has
/// none: what a trait of the kit that checks by default (the leak check is on unless
/// the test opts out) passes to ``withCheckedTestScope(for:testCase:options:performing:)``.
func rxCheckOptions(of test: Test, fallback: RxCheckOptions = .enabled) -> RxCheckOptions {
    (test.traits.last { $0 is RxLeakCheckTrait } as? RxLeakCheckTrait)?.options ?? fallback
}

/// Runs one test case of `test` as a checked scope and reports its findings as issues of
/// the test, at the place each was made. Shared by the kit's scoping traits: when a
/// scope for the same test is already installed (two traits of the kit on one test),
/// the test runs in that one.
func withCheckedTestScope(
    for test: Test,
    testCase: Test.Case?,
    options: RxCheckOptions,
    isolation: isolated (any Actor)? = #isolation,
    performing function: () async throws -> Void
) async throws {
    let key = "\(test.id)"
    if TestScopeTracker.current?.scopeKey == key {
        try await function()
        return
    }
    let location = test.sourceLocation
    let site = SourceSite(fileID: location.fileID, filePath: location.filePath, line: UInt(location.line), column: UInt(location.column))
    let registry = options.scope(at: site, key: key)
    defer { reportFindings(of: registry) }
    try await registry.install(isolation: isolation) { try await function() }
}
