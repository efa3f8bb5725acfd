import RxSwift

/// The scheduler `Driver` and `Signal` deliver on: a new `MainScheduler` by default,
/// replaceable for tests with `mock`.
public enum SharingScheduler {
    private static let factory = LockedValue<() -> SchedulerType>({ MainScheduler() })

    /// Makes the scheduler for the next shared sequence.
    public static var make: () -> SchedulerType {
        factory.withLock { $0 }
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
        let original = factory.withLock { current -> () -> SchedulerType in
            defer { current = makeScheduler }
            return current
        }
        defer { factory.withLock { $0 = original } }
        try action()
    }
}
