/// A one-way boolean flag, safe across threads, stored in place in the object that owns
/// it (non-copyable, as the atomic it wraps): a `BooleanDisposable` or a sink that keeps
/// one costs no allocation for it, where a flag object of its own would cost one each.
package struct AtomicFlag: ~Copyable {
    private let storage = InlineAtomicInt(0)

    @inline(__always)
    package init() {}

    @inline(__always)
    package var isSet: Bool { storage.load() != 0 }

    /// Sets the flag; returns whether it was already set.
    @inline(__always)
    package func testAndSet() -> Bool {
        storage.fetchOr(1) != 0
    }
}
