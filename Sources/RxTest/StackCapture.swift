import RxSwift
import RxTestCore
#if canImport(Runtime)
import Runtime
#endif

/// Call stacks for the leak check and anomaly reports, through the Swift runtime's
/// backtracer where the toolchain has it (the `Runtime` module: Swift 6.2 on Linux,
/// macOS 26): capturing costs a few microseconds per tracked subscription, and only
/// what is reported is symbolicated, to `function at File.swift:line`.
///
/// Elsewhere there is no capture, and reports fall back to the latest kit call.
enum StackCapture {
    /// The capture for a new scope, or `nil` where the backtracer is unavailable.
    static func make() -> CallStackCapture? {
        #if canImport(Runtime)
        if #available(macOS 26.0, *) {
            return RuntimeStackCapture.shared.capture
        }
        #endif
        return nil
    }
}

#if canImport(Runtime)
@available(macOS 26.0, *)
private final class RuntimeStackCapture: Sendable {
    static let shared = RuntimeStackCapture()

    /// The loaded images, captured once: capturing them per backtrace costs a hundred
    /// times more than the backtrace itself.
    private let images = ImageMap.capture()

    /// Mangled-name prefixes of Rivulet's own modules, whose frames are skipped.
    private static let ownModules = ["$s7RxSwift", "$s6RxTest", "$s10RxTestCore", "$s7RxCocoa", "$s7RxRelay", "$s10RxBlocking"]

    /// The source folders of Rivulet's modules: extensions of standard-library types
    /// (`ContiguousArray` in RxSwift) are mangled under the standard library's name, but
    /// their source file says where they belong.
    private static let ownFolders = ["/Sources/RxSwift/", "/Sources/RxTest/", "/Sources/RxTestCore/", "/Sources/RxCocoa/", "/Sources/RxRelay/", "/Sources/RxBlocking/"]

    private static func isOwn(_ symbol: SymbolicatedBacktrace.Symbol) -> Bool {
        if ownModules.contains(where: { symbol.rawName.hasPrefix($0) }) { return true }
        guard let path = symbol.sourceLocation?.path else { return false }
        return ownFolders.contains { path.contains($0) }
    }

    /// Frames already symbolicated, by the addresses of the backtrace they came from.
    /// Symbolicating with source locations costs a quarter of a second or more per
    /// backtrace (the debug information is read anew each time), so leaks and
    /// anomalies made at the same place, in any test, are symbolicated once.
    private let symbolicated = LockedState<[[Backtrace.Address]: [StackFrame]]>([:])

    var capture: CallStackCapture {
        { [self] in
            guard let backtrace = try? Backtrace.capture(algorithm: .fast, limit: 64, offset: 1, top: 0, images: images) else {
                return nil
            }
            return { self.frames(of: backtrace) }
        }
    }

    private func frames(of backtrace: Backtrace) -> [StackFrame] {
        let key = backtrace.frames.map(\.originalProgramCounter)
        if let frames = symbolicated.withLock({ $0[key] }) {
            return frames
        }
        let frames = Self.frames(of: backtrace, images: images)
        symbolicated.withLock { $0[key] = frames }
        return frames
    }

    /// The frames after the last one of Rivulet's modules at the top of the stack,
    /// without thunks, system frames and the test runners'.
    private static func frames(of backtrace: Backtrace, images: ImageMap) -> [StackFrame] {
        guard let symbolicated = backtrace.symbolicated(with: images) else { return [] }
        var frames: [StackFrame] = []
        var leftRivulet = false
        for frame in symbolicated.frames {
            guard let symbol = frame.symbol else { continue }
            let own = isOwn(symbol)
            if !leftRivulet {
                if own || frame.isSwiftThunk || frame.isSystem { continue }
                leftRivulet = true
            }
            if own || frame.isSwiftThunk || frame.isSystem || symbol.imageName.hasPrefix("libswift") { continue }
            if symbol.imageName.hasPrefix("libTesting") || symbol.imageName.hasPrefix("libXCTest") { break }
            let location = symbol.sourceLocation.flatMap { $0.path.hasPrefix("<") || $0.path.contains("<compiler-generated>") ? nil : $0 }
            frames.append(StackFrame(function: symbol.name, path: location?.path, line: location?.line, module: module(of: symbol.rawName)))
        }
        return frames
    }

    /// The module of a mangled Swift symbol: `$s11RxTestTests...` → `RxTestTests`.
    private static func module(of rawName: String) -> String? {
        guard rawName.hasPrefix("$s") else { return nil }
        let rest = rawName.dropFirst(2)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard let length = Int(digits), length > 0 else { return nil }
        let name = rest.dropFirst(digits.count).prefix(length)
        return name.count == length ? String(name) : nil
    }
}
#endif
