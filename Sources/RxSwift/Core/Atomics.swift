// Atomic integers stored inline in the object that owns them. On Linux the standard
// library's `Synchronization.Atomic` has no availability restriction and lives inside
// the object (no extra allocation); on Apple platforms, where it needs macOS 15 /
// iOS 18, swift-atomics' `UnsafeAtomic` is used, one small allocation per value.

#if os(Linux) || os(Android) || os(Windows) || os(FreeBSD)
import Synchronization

/// An atomic `Int` owned by one object.
package struct InlineAtomicInt: ~Copyable {
    private let value: Atomic<Int>

    @inline(__always)
    package init(_ initial: Int) {
        value = Atomic(initial)
    }

    @inline(__always)
    package func load() -> Int {
        value.load(ordering: .acquiring)
    }

    @inline(__always)
    package func loadRelaxed() -> Int {
        value.load(ordering: .relaxed)
    }

    /// Sets `bits`; returns the value before.
    @inline(__always)
    package func fetchOr(_ bits: Int) -> Int {
        value.bitwiseOr(bits, ordering: .acquiringAndReleasing).oldValue
    }

    /// Adds `delta`; returns the value after.
    @inline(__always)
    package func add(_ delta: Int) -> Int {
        value.wrappingAdd(delta, ordering: .acquiringAndReleasing).newValue
    }
}
#else
import Atomics

/// An atomic `Int` owned by one object.
package struct InlineAtomicInt: ~Copyable {
    private let value: UnsafeAtomic<Int>

    @inline(__always)
    package init(_ initial: Int) {
        value = .create(initial)
    }

    deinit {
        value.destroy()
    }

    @inline(__always)
    package func load() -> Int {
        value.load(ordering: .acquiring)
    }

    @inline(__always)
    package func loadRelaxed() -> Int {
        value.load(ordering: .relaxed)
    }

    @inline(__always)
    package func fetchOr(_ bits: Int) -> Int {
        value.loadThenBitwiseOr(with: bits, ordering: .acquiringAndReleasing)
    }

    @inline(__always)
    package func add(_ delta: Int) -> Int {
        value.loadThenWrappingIncrement(by: delta, ordering: .acquiringAndReleasing) &+ delta
    }
}
#endif

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
