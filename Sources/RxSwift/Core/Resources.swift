/// The count behind `Resources.total` (see `GlobalAtomic`).
private let resourceCount = GlobalAtomic<Int32>(0)
/// The count behind `Resources.numberOfSerialDispatchQueueObservables`.
private let serialDispatchQueueObservableCount = GlobalAtomic<Int32>(0)

/// Counts the live resources (observables, subscriptions, disposables) of Rivulet.
/// Always on, with no compile flag: a test can compare `total` before and after.
///
/// The operations are relaxed: the count orders nothing, and every change is seen by
/// a later read on the same thread and eventually by every other thread.
public enum Resources {
    /// The number of live resources.
    public static var total: Int32 {
        resourceCount.loadRelaxed()
    }

    /// Counts one more resource.
    @discardableResult @inline(__always)
    public static func incrementTotal() -> Int32 {
        resourceCount.addRelaxed(1)
    }

    /// Counts one resource less.
    @discardableResult @inline(__always)
    public static func decrementTotal() -> Int32 {
        resourceCount.addRelaxed(-1)
    }

    /// The number of live observables made by `observe(on:)` with a
    /// `SerialDispatchQueueScheduler` (`MainScheduler` included), whether subscribed or
    /// not: a test can check that they are released.
    public static var numberOfSerialDispatchQueueObservables: Int32 {
        serialDispatchQueueObservableCount.loadRelaxed()
    }
}

/// One `observe(on:)` observable on a serial dispatch queue scheduler, counted in
/// `Resources.numberOfSerialDispatchQueueObservables` from its creation to its release.
final class SerialDispatchQueueObservableMark: Sendable {
    init() {
        _ = serialDispatchQueueObservableCount.addRelaxed(1)
    }

    deinit {
        _ = serialDispatchQueueObservableCount.addRelaxed(-1)
    }
}
