import AllocCounter

/// Returns `object` through a C function compiled apart from this module: the
/// optimizer cannot tell what comes back, so it cannot inline or specialise the
/// closures the object holds. The floor calls its per-element work this way.
@inline(never)
func hidden<T: AnyObject>(_ object: T) -> T {
    let pointer = bench_opaque_pointer(Unmanaged.passUnretained(object).toOpaque())!
    return Unmanaged<T>.fromOpaque(pointer).takeUnretainedValue()
}

/// Returns `value` through the opaque C function, so it is not a compile-time constant.
@inline(never)
func hiddenInt(_ value: Int) -> Int {
    Int(bitPattern: bench_opaque_pointer(UnsafeMutableRawPointer(bitPattern: value)))
}

/// Closures for the floor: the same work as the Rx chains, called indirectly.
final class Transform: @unchecked Sendable {
    let apply: (Int) -> Int
    init(_ apply: @escaping (Int) -> Int) { self.apply = apply }
}

final class Predicate: @unchecked Sendable {
    let apply: (Int) -> Bool
    init(_ apply: @escaping (Int) -> Bool) { self.apply = apply }
}

final class Combine: @unchecked Sendable {
    let apply: (Int, Int) -> Int
    init(_ apply: @escaping (Int, Int) -> Int) { self.apply = apply }
}

final class Consumer: @unchecked Sendable {
    let apply: (Int) -> Void
    init(_ apply: @escaping (Int) -> Void) { self.apply = apply }
}

/// Objects the floor calls in a loop, held so that the loop pays no retain/release per
/// call (an array of closures or of objects costs two atomic reference-count updates
/// per element read, which would inflate the floor several times). Keep the list alive
/// around the loop with `withExtendedLifetime`.
struct Unretained<Object: AnyObject> {
    private let owners: [Object]
    private let references: [Unmanaged<Object>]

    init(_ objects: [Object]) {
        owners = objects
        references = objects.map { Unmanaged.passUnretained(hidden($0)) }
    }

    var count: Int { references.count }

    /// Calls `body` with each object in order.
    @inline(__always)
    func forEach(_ body: (Object) -> Void) {
        for reference in references { reference._withUnsafeGuaranteedRef(body) }
    }

    /// Calls `body` with the object at `index`.
    @inline(__always)
    func with<Result>(_ index: Int, _ body: (Object) -> Result) -> Result {
        references[index]._withUnsafeGuaranteedRef(body)
    }
}
