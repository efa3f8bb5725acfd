/// Guarded `unsafeBitCast`s: a cast site calls one of these helpers rather than
/// `unsafeBitCast` itself. Each reinterprets a value on an assumption the compiler
/// cannot check: in debug builds it checks that assumption first, and stops with a
/// message naming both types when it does not hold; in release builds it is the plain
/// cast, with nothing added.
///
/// A failed check stops the program (`rxFatalError`) even inside a test, rather than
/// being recorded as a test's failure: going on would read memory as the wrong type.

/// `value` as `Target`, which must be `Source` itself: how a direct-path `receiveNext<T>`
/// reads its element at its own element type (a sender sends only the type the
/// receiver's `acceptsElements(of:)` accepted), and how the virtual-time scheduler reads
/// its time as an `Int` when it orders by ticks.
///
/// Debug builds compare the two types' metatypes (`isSameType`) first.
@inline(__always)
func unsafeSameTypeCast<Source, Target>(
    _ value: Source, to target: Target.Type, file: StaticString = #file, line: UInt = #line
) -> Target {
    #if DEBUG
    if !isSameType(Source.self, Target.self) { sameTypeCastFailed(Source.self, Target.self, file: file, line: line) }
    #endif
    return unsafeBitCast(value, to: Target.self)
}

/// `value`, an instance of a class deriving from `Base` that the generic type `Source`
/// does not say is one, as an unretained reference to `Base`: how `directPath(of:)` reaches
/// an observer's `ObserverBase` without a dynamic cast or a retain. Valid while `value`
/// is alive.
///
/// Debug builds check that `Source` is `Base` or a subclass of it.
@inline(__always)
func unsafeUnretainedUpcast<Source, Base: AnyObject>(
    _ value: Source, to base: Base.Type, file: StaticString = #file, line: UInt = #line
) -> Unmanaged<Base> {
    #if DEBUG
    if !(Source.self is Base.Type) { upcastFailed(Source.self, Base.self, file: file, line: line) }
    #endif
    return unsafeBitCast(value, to: Unmanaged<Base>.self)
}

/// The function at `address` (a symbol looked up with `dlsym`), as the function type
/// `Function`, which must be a C function pointer type (`@convention(c)`) of the
/// symbol's signature.
///
/// Debug builds check what can be checked: that a `Function` is the size of an address.
/// The signature cannot be checked at all.
package func unsafeFunctionPointerCast<Function>(
    _ address: UnsafeMutableRawPointer, to function: Function.Type, file: StaticString = #file, line: UInt = #line
) -> Function {
    #if DEBUG
    if MemoryLayout<Function>.size != MemoryLayout<UnsafeMutableRawPointer>.size {
        functionPointerCastFailed(Function.self, size: MemoryLayout<Function>.size, file: file, line: line)
    }
    #endif
    return unsafeBitCast(address, to: Function.self)
}

// The failed checks of the helpers above. Out of line, so that the messages are built
// here rather than at every cast site of a debug build.

@inline(never)
private func sameTypeCastFailed(_ source: Any.Type, _ target: Any.Type, file: StaticString, line: UInt) -> Never {
    rxFatalError(
        "unsafeSameTypeCast: a value of type \(String(reflecting: source)) was read as \(String(reflecting: target)), "
            + "a cast that holds only between a type and itself. A direct-path sender must send only "
            + "the element type its receiver's acceptsElements(of:) accepted.",
        file: file, line: line)
}

@inline(never)
private func upcastFailed(_ source: Any.Type, _ base: AnyClass, file: StaticString, line: UInt) -> Never {
    rxFatalError(
        "unsafeUnretainedUpcast: a value of type \(String(reflecting: source)) was read as a reference to "
            + "\(String(reflecting: base)), a class it does not derive from.",
        file: file, line: line)
}

@inline(never)
private func functionPointerCastFailed(_ function: Any.Type, size: Int, file: StaticString, line: UInt) -> Never {
    rxFatalError(
        "unsafeFunctionPointerCast: an address (\(String(reflecting: UnsafeMutableRawPointer.self)), "
            + "\(MemoryLayout<UnsafeMutableRawPointer>.size) bytes) was read as \(String(reflecting: function)) "
            + "(\(size) bytes), which is not a C function pointer type.",
        file: file, line: line)
}
