/// A one-way boolean flag, safe across threads, stored in place in the object that owns
/// it (non-copyable, as the atomic it wraps): a `BooleanDisposable` or a sink that keeps
/// one costs no allocation for it, where a flag object of its own would cost one each.
package struct AtomicFlag: ~Copyable {
    private let storage = InlineAtomicInt(0)

    @inline(__always)
    package init() {}

    @inline(__always)
    package func isSet(fileID: StaticString = #fileID, line: UInt = #line) -> Bool {
        storage.load(fileID: fileID, line: line) != 0
    }

    /// Sets the flag, for a caller that does not ask whether it was set before: an
    /// atomic store, so neither the once-flag mutant nor the split read-modify-write one
    /// applies to it (answering "first", or storing what a load read, changes nothing).
    @inline(__always)
    package func set(fileID: StaticString = #fileID, line: UInt = #line) {
        storage.store(1, fileID: fileID, line: line)
    }

    /// Sets the flag; returns whether it was already set. A mutant (`alwaysFirst`) makes
    /// it answer "not yet" every time.
    @inline(__always)
    package func testAndSet(fileID: StaticString = #fileID, line: UInt = #line) -> Bool {
        let before = storage.fetchOr(1, fileID: fileID, line: line)
        #if DEBUG
        if Mutation.applies(.alwaysFirst, at: SyncSite(fileID, line)) { return false }
        #endif
        return before != 0
    }
}
