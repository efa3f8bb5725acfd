import RxSwift

/// The scheduler `Driver` and `Signal` deliver on: a new `MainScheduler` by default,
/// replaceable for tests with `mock`, and the test's virtual main scheduler inside
/// RxTest's `withVirtualTime` and `.virtualTime` trait (a `mock` inside those wins).
///
/// A mock applies to the task (or thread) that calls `mock` and to the child tasks
/// it starts, for as long as `action` runs, so tests running in parallel can each
/// mock their own scheduler without seeing each other's.
public enum SharingScheduler {
    /// A factory installed by `mock`; the closure is only called on the mocking
    /// task and the tasks it starts, which is what makes carrying it across sound.
    private struct Factory: @unchecked Sendable {
        let make: () -> SchedulerType
    }

    @TaskLocal private static var mocked: Factory?

    /// Makes the scheduler for the next shared sequence: the mocked one, else the
    /// `MainScheduler.instance` stand-in of a test that substitutes the main schedulers
    /// (RxTest's `withVirtualTime` and `.virtualTime` trait), else a new `MainScheduler`.
    public static var make: () -> SchedulerType {
        if let factory = mocked { return factory.make }
        if let substitution = TestKitHooks.SchedulerSubstitution.current {
            let main = substitution.mainInstance
            return { main }
        }
        return { MainScheduler() }
    }

    /// Runs `action` with shared sequences delivering on `scheduler`, then restores
    /// the previous scheduler (also when `action` throws).
    ///
    /// ```swift
    /// SharingScheduler.mock(scheduler: testScheduler) {
    ///     let driver = relay.asDriver()   // delivers on testScheduler
    /// }
    /// ```
    public static func mock(scheduler: SchedulerType, action: () throws -> Void) rethrows {
        try mock(makeScheduler: { scheduler }, action: action)
    }

    /// Runs `action` with shared sequences delivering on the schedulers
    /// `makeScheduler` makes, then restores the previous factory.
    public static func mock(makeScheduler: @escaping () -> SchedulerType, action: () throws -> Void) rethrows {
        try $mocked.withValue(Factory(make: makeScheduler)) {
            try action()
        }
    }
}
