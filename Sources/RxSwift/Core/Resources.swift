#if os(Linux) || os(Android) || os(Windows) || os(FreeBSD)
import Synchronization

/// The count behind `Resources.total`, stored in place: a global `Atomic` is set up
/// statically, so an update is one atomic instruction with no object to reach first.
private let resourceCount = Atomic<Int32>(0)
#else
import Atomics

/// The count behind `Resources.total` (`Synchronization.Atomic` needs macOS 15 /
/// iOS 18 on Apple platforms).
private let resourceCount = ManagedAtomic<Int32>(0)
#endif

/// Counts the live resources (observables, subscriptions, disposables) of Rivulet.
/// Always on, with no compile flag: a test can compare `total` before and after.
///
/// The operations are relaxed: the count orders nothing, and every change is seen by
/// a later read on the same thread and eventually by every other thread.
public enum Resources {
    /// The number of live resources.
    public static var total: Int32 {
        resourceCount.load(ordering: .relaxed)
    }

    /// Counts one more resource.
    @discardableResult @inline(__always)
    public static func incrementTotal() -> Int32 {
        #if os(Linux) || os(Android) || os(Windows) || os(FreeBSD)
        resourceCount.wrappingAdd(1, ordering: .relaxed).newValue
        #else
        resourceCount.wrappingIncrementThenLoad(ordering: .relaxed)
        #endif
    }

    /// Counts one resource less.
    @discardableResult @inline(__always)
    public static func decrementTotal() -> Int32 {
        #if os(Linux) || os(Android) || os(Windows) || os(FreeBSD)
        resourceCount.wrappingSubtract(1, ordering: .relaxed).newValue
        #else
        resourceCount.wrappingDecrementThenLoad(ordering: .relaxed)
        #endif
    }
}
