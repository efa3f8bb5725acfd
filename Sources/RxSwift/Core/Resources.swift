import Atomics

/// Counts the live resources (observables, subscriptions, disposables) of Rivulet.
/// Always on, with no compile flag: a test can compare `total` before and after.
public enum Resources {
    private static let counter = ManagedAtomic<Int32>(0)

    /// The number of live resources.
    public static var total: Int32 {
        counter.load(ordering: .relaxed)
    }

    /// Counts one more resource.
    @discardableResult @inline(__always)
    public static func incrementTotal() -> Int32 {
        counter.wrappingIncrementThenLoad(ordering: .relaxed)
    }

    /// Counts one resource less.
    @discardableResult @inline(__always)
    public static func decrementTotal() -> Int32 {
        counter.wrappingDecrementThenLoad(ordering: .relaxed)
    }
}
