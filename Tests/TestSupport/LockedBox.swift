import Foundation

/// A value shared between threads in tests: every read and write takes the box's lock.
public final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    public init(_ value: Value) {
        stored = value
    }

    public var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    public func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&stored) }
    }

    public func mutate(_ body: (inout Value) -> Void) {
        lock.withLock { body(&stored) }
    }
}

extension LockedBox where Value: RangeReplaceableCollection {
    /// Appends `element` under the lock: a log written from several threads.
    public func append(_ element: Value.Element) {
        mutate { $0.append(element) }
    }
}

extension LockedBox where Value: BinaryInteger {
    /// Adds one under the lock: a count kept from several threads.
    public func increment() {
        mutate { $0 += 1 }
    }
}
