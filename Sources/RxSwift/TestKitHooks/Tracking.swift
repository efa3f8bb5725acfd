/// How many tracking scopes are installed, process-wide (see `GlobalAtomic`): every
/// sink reads it when it opens.
private let installedScopes = GlobalAtomic<Int>(0)

// Hooks for RxTest's leak check and anomaly reports.
//
// A test scope installs a tracker for its task (a task-local value); subscriptions made
// while it is installed report to it when they open and close, and grammar anomalies
// report to it. Outside such a scope every hook is one relaxed load of a global counter
// that stays 0, so production code pays next to nothing and needs no compile flag.
//
// What reports:
// - `Sink.init` / `Sink.dispose` / `Sink.deinit`: every operator subscription.
// - `subscribe(onNext:...)` and `subscribe(_:)`: the subscription the caller must
//   dispose; open until disposed or ended by a terminal event.
// - `Hooks.callDefaultErrorHandler`: an error no `onError` handled.
// - `Observable.create`: the observer it hands out checks the grammar (no overlapping
//   or reentrant delivery, nothing after a terminal event).

/// What a tracked subscription is.
package enum RxTrackedKind: Sendable {
    /// An operator's per-subscription sink, by its type.
    case sink(any Any.Type)
    /// A `subscribe` call whose disposable the caller owns.
    case subscription(String)
    /// An operator named by its producer, for sinks several operators share.
    case named(String)
}

/// A grammar violation or an unhandled error, as the test kit reports it. The tracker
/// receives it on the thread that detected it, so it can capture the call stack.
package struct RxAnomaly: Sendable {
    /// One line saying what happened.
    package let summary: String
    /// What the Rx grammar expects, and where to look.
    package let details: String

    package init(summary: String, details: String) {
        self.summary = summary
        self.details = details
    }
}

/// Receives the reports of subscriptions and anomalies while installed for a task.
package protocol RxTracker: AnyObject, Sendable {
    /// A subscription opened; the returned id comes back in `closed` / `released`.
    func opened(_ kind: RxTrackedKind) -> Int
    /// The subscription was disposed, or ended with a terminal event.
    func closed(_ id: Int)
    /// The subscription's object was released without being disposed.
    func released(_ id: Int)
    /// The subscription is better described as `kind` than as it opened.
    func renamed(_ id: Int, _ kind: RxTrackedKind)
    /// Something broke the Rx grammar, or an error reached no handler.
    func anomaly(_ anomaly: RxAnomaly)
}

/// A tracked subscription: closes once.
package final class RxTrackingToken: Disposable, @unchecked Sendable {
    package let tracker: RxTracker
    private let id: Int
    private let done = AtomicFlag()

    package init(tracker: RxTracker, kind: RxTrackedKind) {
        self.tracker = tracker
        self.id = tracker.opened(kind)
    }

    /// Reports the subscription closed (once).
    package func dispose() {
        guard !done.testAndSet() else { return }
        tracker.closed(id)
    }

    /// Describes the subscription as `kind` from now on.
    package func rename(_ kind: RxTrackedKind) {
        tracker.renamed(id, kind)
    }

    /// Reports the subscription's object released without a dispose (once).
    package func release() {
        if done.testAndSet() { return }
        tracker.released(id)
    }
}

/// The installed tracker of the current task, behind a global "any installed" counter.
package enum RxTracking {
    /// The task-local value itself. Declared as a `TaskLocal` rather than with the
    /// `@TaskLocal` macro: every compile job that reads it would otherwise load the
    /// macro plugin and expand it again.
    private static let trackerLocal = TaskLocal<RxTracker?>(wrappedValue: nil)

    private static var tracker: RxTracker? {
        trackerLocal.get()
    }

    /// The tracker installed for the current task, or `nil` (one relaxed load when no
    /// scope anywhere installed one).
    @inline(__always)
    package static var current: RxTracker? {
        if installedScopes.loadRelaxed() == 0 { return nil }
        return tracker
    }

    /// Whether any scope, anywhere, installed a tracker (one relaxed load): when not,
    /// `open` returns `nil` and a caller may skip preparing its arguments.
    @inline(__always)
    package static var isActive: Bool {
        installedScopes.loadRelaxed() != 0
    }

    /// A token for a new subscription of `kind` when a tracker is installed.
    @inline(__always)
    package static func open(_ kind: @autoclosure () -> RxTrackedKind) -> RxTrackingToken? {
        if installedScopes.loadRelaxed() == 0 { return nil }
        guard let tracker else { return nil }
        return RxTrackingToken(tracker: tracker, kind: kind())
    }

    /// Runs `operation` with `tracker` installed for it (and the tasks it creates).
    package static func withTracker<Result>(_ tracker: RxTracker, operation: () throws -> Result) rethrows -> Result {
        addScopes(1)
        defer { addScopes(-1) }
        return try trackerLocal.withValue(tracker, operation: operation)
    }

    /// Runs `operation` with `tracker` installed for it (and the tasks it creates).
    package static func withTracker<Result>(
        _ tracker: RxTracker,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        addScopes(1)
        defer { addScopes(-1) }
        return try await trackerLocal.withValue(tracker, operation: operation, isolation: isolation)
    }

    private static func addScopes(_ delta: Int) {
        installedScopes.addRelaxed(delta)
    }
}

/// The observer `Observable.create` hands out while a tracker is installed: reports
/// events after a terminal event, and deliveries that overlap (two threads) or re-enter
/// (an observer emitting into its own source) as anomalies, then passes them on as
/// before.
final class CreateGrammarObserver<Element>: EventObserver<Element>, @unchecked Sendable {
    private let target: AnyObserver<Element>
    private let tracker: RxTracker
    /// The thread delivering an event now, and the terminal event that went through.
    private struct Delivery {
        var deliveringThread: UInt?
        var terminal: String?
    }

    private let delivery = LockedState(Delivery())

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(_ target: AnyObserver<Element>, tracker: RxTracker) {
        self.target = target
        self.tracker = tracker
    }

    override func on(_ event: Event<Element>) {
        let thread = currentThreadID()
        // Described before locking: describing an error runs its own code.
        let terminal = event.isStopEvent ? "\(event)" : nil
        let (previousThread, endedWith) = delivery.withLock { delivery -> (UInt?, String?) in
            let previous = (delivery.deliveringThread, delivery.terminal)
            if delivery.deliveringThread == nil { delivery.deliveringThread = thread }
            if delivery.terminal == nil { delivery.terminal = terminal }
            return previous
        }
        if let endedWith {
            report(
                "Observable.create: \(event) was sent after \(endedWith)",
                "The grammar is next* (error | completed)?: nothing may follow a terminal event; it was dropped."
            )
            return
        }
        if let previousThread {
            if previousThread == thread {
                report(
                    "Observable.create: reentrant delivery: \(event) was sent while the previous event was still being delivered on the same thread",
                    "An observer downstream emitted back into this source. Deliver events one after another (for example through a scheduler), or break the cycle."
                )
            } else {
                report(
                    "Observable.create: overlapping delivery: \(event) was sent from another thread while an event was being delivered",
                    "Observers receive one event at a time. Serialise the calls to the observer (a lock or a serial queue), or emit through a Subject/Relay on one thread."
                )
            }
        }
        target.on(event)
        if previousThread == nil {
            delivery.withLock { $0.deliveringThread = nil }
        }
    }

    private func report(_ summary: String, _ details: String) {
        tracker.anomaly(RxAnomaly(summary: summary, details: details))
    }
}

extension Hooks {
    /// Sends an error that reached no `onError` handler to `defaultErrorHandler`, and to
    /// the installed tracker (`tracker`, or the current task's) as an anomaly.
    package static func callDefaultErrorHandler(_ callStack: [String], _ error: Swift.Error, tracker: RxTracker? = RxTracking.current) {
        if let tracker {
            var details = "Add an onError handler, catch the error (catch, catchAndReturn, retry) or use a trait that cannot fail."
            if !callStack.isEmpty {
                details += "\nsubscribed from:\n" + callStack.joined(separator: "\n")
            }
            tracker.anomaly(RxAnomaly(summary: "Unhandled error: \(error)", details: details))
        }
        defaultErrorHandler(callStack, error)
    }
}
