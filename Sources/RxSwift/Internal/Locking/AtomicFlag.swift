/// A one-way boolean flag, safe across threads.
package final class AtomicFlag: @unchecked Sendable {
    private let storage = InlineAtomicInt(0)

    package init() {}

    @inline(__always)
    package var isSet: Bool { storage.load() != 0 }

    /// Sets the flag; returns whether it was already set.
    @inline(__always)
    package func testAndSet() -> Bool {
        storage.fetchOr(1) != 0
    }
}
