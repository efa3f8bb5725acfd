import Foundation
import RxSwift

/// A place in a test's source: where an RxTest function was called, or a frame of a
/// call stack.
package struct SourceSite: Sendable, CustomStringConvertible {
    package let fileID: String
    package let filePath: String
    /// The path as XCTest's assertions take it, when the site came from `#filePath`.
    package let staticFilePath: StaticString?
    package let line: UInt
    package let column: UInt

    package init(fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID
        self.filePath = "\(filePath)"
        self.staticFilePath = filePath
        self.line = line
        self.column = column
    }

    package init(fileID: String, filePath: String, line: UInt, column: UInt) {
        self.fileID = fileID
        self.filePath = filePath
        self.staticFilePath = nil
        self.line = line
        self.column = column
    }

    /// `LoginTests.swift:41`.
    package var description: String {
        "\(fileID.split(separator: "/").last.map(String.init) ?? fileID):\(line)"
    }
}

/// One frame of a call stack, symbolicated.
package struct StackFrame: Sendable, CustomStringConvertible {
    /// The function, demangled.
    package let function: String
    /// The source file's path, when known.
    package let path: String?
    /// The line, when known.
    package let line: Int?
    /// The module the function belongs to, when known.
    package let module: String?

    package init(function: String, path: String?, line: Int?, module: String?) {
        self.function = function
        self.path = path
        self.line = line
        self.module = module
    }

    /// The frame as a place to report an issue at, when its file, line and module are known.
    package var site: SourceSite? {
        guard let path, let line, let module else { return nil }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return SourceSite(fileID: "\(module)/\(file)", filePath: path, line: UInt(line), column: 1)
    }

    /// `LoginTests.swift:41`, or the function when the place is unknown.
    package var place: String {
        guard let path, let line else { return function }
        return "\(path.split(separator: "/").last.map(String.init) ?? path):\(line)"
    }

    /// `function at File.swift:41`.
    package var description: String {
        guard path != nil, line != nil else { return function }
        return "\(function) at \(place)"
    }
}

/// Captures the current call stack cheaply; the returned closure symbolicates it, only
/// for what is reported (see ``CallStackFrames``).
package typealias CallStackCapture = @Sendable () -> CallStackFrames?

/// A captured call stack's frames, from the first one outside Rivulet, each named; the
/// first `locating` of them that have a source place get it (finding a place is the slow
/// part: name as many as a report shows).
package typealias CallStackFrames = @Sendable (_ locating: Int) -> [StackFrame]

/// One finding of a leak-checked scope: what is wrong and where to look.
package struct ScopeFinding: Sendable {
    package let message: String
    package let site: SourceSite?

    package init(message: String, site: SourceSite?) {
        self.message = message
        self.site = site
    }
}

/// What one test scope watches: the subscriptions opened in it (through RxSwift's
/// tracking hooks), the `TestScheduler`s created in it, the recorders to check at its
/// end, and the anomalies reported while it ran.
///
/// It is installed for the test's task only (a task-local value), so tests running in
/// parallel each count their own. Subscriptions made on threads outside the task (a
/// dispatch queue's callbacks) are not seen; their disposal is, wherever it happens.
package final class TestScopeTracker: TestKitHooks.Tracker, @unchecked Sendable {
    /// What the scope checks at its end.
    package struct Options: Sendable {
        /// Fail on subscriptions left open and on pending scheduler work.
        package var leakCheck: Bool
        /// Fail on unhandled errors and grammar anomalies.
        package var anomalies: Bool
        /// Capture the call stack of every subscription (slow; for hunting a leak).
        package var callStacks: Bool
        /// How long the end of the scope waits for subscriptions still open to be
        /// disposed on another thread before it reports them.
        package var teardownGrace: Duration
        /// The clock the grace is waited out on: the machine's by default; the tests of
        /// the grace give one of their own, so that they check the wait without racing
        /// the machine's clock.
        package var graceClock: GraceClock

        package init(
            leakCheck: Bool = true, anomalies: Bool = true, callStacks: Bool = false,
            teardownGrace: Duration = .milliseconds(250), graceClock: GraceClock = .continuous
        ) {
            self.leakCheck = leakCheck
            self.anomalies = anomalies
            self.callStacks = callStacks
            self.teardownGrace = teardownGrace
            self.graceClock = graceClock
        }
    }

    /// Where the end of a scope reads the time while it waits out the grace, and how it
    /// pauses between two looks at the subscriptions still open.
    package struct GraceClock: Sendable {
        /// The time since an origin of the clock's choosing.
        package var now: @Sendable () -> Duration
        /// Called between two looks.
        package var pause: @Sendable () -> Void

        package init(now: @escaping @Sendable () -> Duration, pause: @escaping @Sendable () -> Void) {
            self.now = now
            self.pause = pause
        }

        /// The machine's monotonic clock, looking every millisecond.
        package static let continuous: GraceClock = {
            let origin = ContinuousClock.now
            return GraceClock(now: { ContinuousClock.now - origin }, pause: { Thread.sleep(forTimeInterval: 0.001) })
        }()
    }

    /// How many frames of a call stack a report shows.
    private static let reportedFrames = 12

    /// A call of an RxTest function (`record`, `createObserver`) and where it was made.
    private struct RxTestCall {
        let name: String
        let site: SourceSite
    }

    private struct OpenSubscription {
        let order: Int
        var kind: TestKitHooks.TrackedKind
        let time: TestTime?
        let context: String?
        let site: SourceSite?
        let stack: CallStackFrames?
    }

    private struct Anomaly {
        let anomaly: TestKitHooks.Anomaly
        let context: String?
        let site: SourceSite?
        let stack: CallStackFrames?
    }

    /// Held until the scope closes: a scheduler the test dropped while work was still
    /// queued on it is still there to report that work.
    private struct TrackedScheduler {
        let scheduler: TestScheduler
        let site: SourceSite?
    }

    private struct State {
        var nextId = 0
        var open: [Int: OpenSubscription] = [:]
        var opened = 0
        var lastCall: RxTestCall?
        var activeCalls: [RxTestCall] = []
        var schedulers: [TrackedScheduler] = []
        var endChecks: [@Sendable () -> ScopeFinding?] = []
        var anomalies: [Anomaly] = []
    }

    package let options: Options
    /// Where the scope was opened (the test, or the helper's call).
    package let scopeSite: SourceSite?
    /// What opened the scope (a test's id), so that a second trait of the same test
    /// does not open another one inside it.
    package let scopeKey: String?
    private let captureStack: CallStackCapture?
    private let state = LockedState(State())

    /// A registry checking what `options` says; `captureStack`, when given, records
    /// where each subscription and anomaly came from.
    package init(options: Options, scopeSite: SourceSite?, scopeKey: String? = nil, captureStack: CallStackCapture? = nil) {
        self.options = options
        self.scopeSite = scopeSite
        self.scopeKey = scopeKey
        self.captureStack = captureStack
    }

    /// The registry of the current task's scope, if any.
    package static var current: TestScopeTracker? {
        TestKitHooks.Tracking.current as? TestScopeTracker
    }

    /// Runs `body` with this registry installed for the current task.
    package func install<Result>(_ body: () throws -> Result) rethrows -> Result {
        try TestKitHooks.Tracking.withTracker(self, operation: body)
    }

    /// Runs `body` with this registry installed for the current task.
    package func install<Result>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result) async rethrows -> Result {
        try await TestKitHooks.Tracking.withTracker(self, isolation: isolation, operation: body)
    }

    // MARK: - RxTest calls

    /// Remembers the latest RxTest call, to say where later subscriptions came from.
    package func noteRxTestCall(_ name: String, at site: SourceSite) {
        state.withLock { $0.lastCall = RxTestCall(name: name, site: site) }
    }

    /// Runs `body` as the RxTest call `name`: subscriptions made meanwhile are "during" it.
    package func during<Result>(_ name: String, at site: SourceSite, _ body: () throws -> Result) rethrows -> Result {
        state.withLock {
            $0.activeCalls.append(RxTestCall(name: name, site: site))
            $0.lastCall = RxTestCall(name: name, site: site)
        }
        defer { state.withLock { _ = $0.activeCalls.popLast() } }
        return try body()
    }

    /// Watches `scheduler`: pending work left at the scope's end is a finding.
    package func adopt(_ scheduler: TestScheduler, at site: SourceSite?) {
        state.withLock { $0.schedulers.append(TrackedScheduler(scheduler: scheduler, site: site)) }
    }

    /// Adds a check to run at the scope's end (a recorder's unconsumed events).
    package func addEndCheck(_ check: @escaping @Sendable () -> ScopeFinding?) {
        state.withLock { $0.endChecks.append(check) }
    }

    /// Ends the scope after its findings were taken: lets go of the schedulers and
    /// checks it held (the work queued on a scheduler may hold subscriptions that hold
    /// this registry).
    package func close() {
        state.withLock {
            $0.schedulers = []
            $0.endChecks = []
        }
    }

    /// How many subscriptions opened in the scope so far.
    package var openedCount: Int {
        state.withLock { $0.opened }
    }

    /// How many are open now.
    package var openCount: Int {
        state.withLock { $0.open.count }
    }

    // MARK: - TestKitHooks.Tracker

    package func opened(_ kind: TestKitHooks.TrackedKind) -> Int {
        let time = currentTime()
        let stack = options.leakCheck ? captureStack?() : nil
        return state.withLock { state in
            let id = state.nextId
            state.nextId += 1
            state.opened += 1
            let (context, site) = Self.context(state)
            state.open[id] = OpenSubscription(order: id, kind: kind, time: time, context: context, site: site, stack: stack)
            return id
        }
    }

    package func closed(_ id: Int) {
        state.withLock { _ = $0.open.removeValue(forKey: id) }
    }

    package func released(_ id: Int) {
        state.withLock { _ = $0.open.removeValue(forKey: id) }
    }

    package func renamed(_ id: Int, _ kind: TestKitHooks.TrackedKind) {
        state.withLock { $0.open[id]?.kind = kind }
    }

    package func anomaly(_ anomaly: TestKitHooks.Anomaly) {
        let time = currentTime()
        let stack = options.anomalies ? captureStack?() : nil
        state.withLock { state in
            var (context, site) = Self.context(state)
            if let time {
                context = context.map { "\($0), virtual time \(time)" } ?? "virtual time \(time)"
            }
            state.anomalies.append(Anomaly(anomaly: anomaly, context: context, site: site, stack: stack))
        }
    }

    // MARK: - The end of the scope

    /// Everything wrong at the end of the scope, in the order: recorders, open
    /// subscriptions, pending scheduler work, anomalies.
    ///
    /// - Parameter options: What to report; the registry's own options by default (a
    ///   test may change its mind while it runs, as an XCTest case opting out).
    package func findings(options: Options? = nil) -> [ScopeFinding] {
        let options = options ?? self.options
        var findings: [ScopeFinding] = []
        let checks = state.withLock { $0.endChecks }
        for check in checks {
            if let finding = check() { findings.append(finding) }
        }
        var snapshot = state.current
        let locating = options.callStacks ? Self.reportedFrames : 1
        if options.leakCheck, !snapshot.open.isEmpty {
            // A subscription on another thread may be ending right now: the test saw its
            // terminal event (and ended) while that thread was still disposing the
            // sinks. Give such a teardown a moment before calling it a leak, and find
            // where the open ones were made meanwhile (the slow part of a report; the
            // capture keeps what it found).
            let clock = options.graceClock
            let deadline = clock.now() + options.teardownGrace
            for subscription in snapshot.open.values {
                _ = subscription.stack?(locating)
            }
            while !snapshot.open.isEmpty, clock.now() < deadline {
                clock.pause()
                snapshot = state.current
            }
        }
        if options.leakCheck {
            if let finding = openSubscriptionsFinding(snapshot.open.values.sorted { $0.order < $1.order }, locating: locating, callStacks: options.callStacks) {
                findings.append(finding)
            }
            for tracked in snapshot.schedulers {
                let scheduler = tracked.scheduler
                let pending = scheduler.pendingSchedulerWork
                if pending.isEmpty { continue }
                let times = pending.prefix(10).map(String.init).joined(separator: ", ") + (pending.count > 10 ? ", ..." : "")
                let created = tracked.site.map { " created at \($0)" } ?? ""
                let noun = pending.count == 1 ? "action" : "actions"
                findings.append(ScopeFinding(
                    message: "Leak check: TestScheduler\(created) still has \(pending.count) pending \(noun) at the end of the test, due at virtual time \(times) (clock at \(scheduler.clock)).\n"
                        + "Work scheduled by operators or code under test (a timer, a delay, an interval) was never run or disposed: dispose the subscription, or run the scheduler to the end.",
                    site: tracked.site ?? scopeSite
                ))
            }
        }
        if options.anomalies {
            for anomaly in snapshot.anomalies {
                var message = "Rx anomaly: \(anomaly.anomaly.summary)"
                if let context = anomaly.context { message += " (\(context))" }
                message += "\n" + anomaly.anomaly.details
                let frames = anomaly.stack?(Self.reportedFrames) ?? []
                if !frames.isEmpty {
                    message += "\ncall stack:\n" + frames.prefix(Self.reportedFrames).map { "  \($0)" }.joined(separator: "\n")
                }
                findings.append(ScopeFinding(message: message, site: frames.lazy.compactMap(\.site).first ?? anomaly.site ?? scopeSite))
            }
        }
        return findings
    }

    private func openSubscriptionsFinding(_ open: [OpenSubscription], locating: Int, callStacks: Bool) -> ScopeFinding? {
        guard !open.isEmpty else { return nil }
        // Group identical lines, keeping the order of the first of each.
        var lines: [String] = []
        var counts: [String: Int] = [:]
        var stacks: [String: [StackFrame]] = [:]
        var firstSite: SourceSite?
        for subscription in open {
            let frames = subscription.stack?(locating) ?? []
            if firstSite == nil {
                firstSite = frames.lazy.compactMap(\.site).first ?? subscription.site
            }
            let line = Self.describe(subscription, frames: frames)
            if counts[line] == nil {
                lines.append(line)
                stacks[line] = frames
            }
            counts[line, default: 0] += 1
        }
        let noun = open.count == 1 ? "subscription" : "subscriptions"
        var message = "Leak check: \(open.count) open \(noun) at the end of the test:"
        for line in lines {
            let count = counts[line] ?? 1
            message += "\n  " + (count > 1 ? "\(count) × " : "") + line
            if callStacks {
                for frame in (stacks[line] ?? []).prefix(Self.reportedFrames) {
                    message += "\n      \(frame)"
                }
            }
        }
        message += "\nDispose them (a DisposeBag that ends with the test, take/takeUntil, or the disposable subscribe returns), or opt out with .rxLeakCheck(.disabled)."
        return ScopeFinding(message: message, site: firstSite ?? scopeSite)
    }

    /// `map, subscribed at LoginTests.swift:41, virtual time 200`; without a call stack
    /// the latest RxTest call stands in for the place.
    private static func describe(_ subscription: OpenSubscription, frames: [StackFrame]) -> String {
        var text: String
        switch subscription.kind {
        case .sink(let type):
            text = operatorName(of: type)
        case .subscription(let name):
            text = "\(name), never disposed"
        case .named(let name):
            text = name
        }
        if let frame = frames.first(where: { $0.line != nil }) {
            text += ", subscribed at \(frame.place)"
        } else if let context = subscription.context {
            text += ", subscribed \(context)"
        }
        if let time = subscription.time {
            text += ", virtual time \(time)"
        }
        return text
    }

    /// `MapSink<AnonymousObserver<Int>>` → `map`.
    package static func operatorName(of type: any Any.Type) -> String {
        var name = String(describing: type)
        if let generic = name.firstIndex(of: "<") {
            name = String(name[..<generic])
        }
        if name.hasSuffix("Sink"), name.count > 4 {
            name.removeLast(4)
        }
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }

    /// "during record at X.swift:12" / "after createObserver at X.swift:10".
    private static func context(_ state: State) -> (String?, SourceSite?) {
        if let active = state.activeCalls.last {
            return ("during \(active.name) at \(active.site)", active.site)
        }
        if let last = state.lastCall {
            return ("after \(last.name) at \(last.site)", last.site)
        }
        return (nil, nil)
    }

    /// The virtual time of the scope's scheduler, when exactly one was created in it.
    private func currentTime() -> TestTime? {
        let schedulers = state.withLock { $0.schedulers.map(\.scheduler) }
        return schedulers.count == 1 ? schedulers[0].clock : nil
    }
}
