import RxSwift

/// A lock of your own code that the schedule explorer sees: in a body run by
/// ``exploreSchedules(_:schedules:patience:fileID:filePath:line:column:_:)``, taking it is
/// a point where another thread may go first, a thread waiting for it cannot be chosen,
/// and a deadlock report names it beside the library's locks.
///
/// Use it in a test where your code would hold a lock of its own (an `NSLock`, a
/// `Mutex`) while it calls into Rx or is called by it: the explorer cannot see those,
/// and a thread blocked on one counts as stalled. Outside an exploration it is a plain,
/// non-recursive lock.
public final class ExplorableLock: @unchecked Sendable {
    private let state = LockedState(ExplorableLock.Owner())

    /// What a deadlock report names as the owner of the lock.
    struct Owner {}

    public init() {}

    /// Runs `body` with the lock held.
    ///
    /// - Parameters:
    ///   - fileID: The file a schedule's trace and a deadlock report name as the place
    ///     the lock was taken; the caller's by default.
    ///   - line: The line they name; the caller's by default.
    ///   - body: What runs with the lock held.
    /// - Returns: What `body` returns.
    public func withLock<Result>(fileID: StaticString = #fileID, line: UInt = #line, _ body: () throws -> Result) rethrows -> Result {
        try state.withLock(fileID: fileID, line: line) { _ in try body() }
    }
}
