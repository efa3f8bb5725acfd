import Foundation
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

/// Swift names for the symbols of a call stack.
package enum SwiftSymbolNames {
    private typealias Demangle = @convention(c) (
        UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
    ) -> UnsafeMutablePointer<CChar>?

    /// The Swift runtime's demangler (`swift_demangle`, exported by the standard
    /// library's image on every platform), looked up once.
    private static let demangler: Demangle? = {
        guard let image = dlopen(nil, RTLD_NOW), let symbol = dlsym(image, "swift_demangle") else { return nil }
        return unsafeFunctionPointerCast(symbol, to: Demangle.self)
    }()

    /// `mangled` demangled, or `nil` when it is not a Swift symbol (the demangler gives
    /// back a text it cannot read unchanged).
    package static func demangle(_ mangled: String) -> String? {
        guard let demangler else { return nil }
        let demangled = mangled.withCString { text -> String? in
            guard let demangled = demangler(text, strlen(text), nil, nil, 0) else { return nil }
            defer { free(demangled) }
            return String(cString: demangled)
        }
        return demangled == mangled ? nil : demangled
    }

    /// A frame's function as Swift spells it.
    ///
    /// - Parameters:
    ///   - name: The name the backtracer gave.
    ///   - rawName: The symbol; demangled instead when `name` is still mangled.
    /// - Returns: The name, with every mangled name inside it demangled too: the
    ///   functions Swift Testing's `@Test` macro generates are named after one
    ///   (`static LoginTests.$s9LoginTests...fMu_()`). What is not a Swift symbol stays
    ///   as it was.
    package static func readable(_ name: String, rawName: String) -> String {
        var text = name
        if name == rawName || isMangled(name), let demangled = demangle(rawName) {
            text = demangled
        }
        return demanglingEmbeddedNames(in: text)
    }

    private static func isMangled(_ name: String) -> Bool {
        ["$s", "_$s", "$S", "_$S", "_T0"].contains { name.hasPrefix($0) }
    }

    /// `text` with each `$s…` run of identifier characters inside it demangled; a macro's
    /// unique name loses its hash (`unique name #1 of 1a2b3c in `).
    private static func demanglingEmbeddedNames(in text: String) -> String {
        guard text.contains("$s") else { return text }
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: "$s") {
            out += rest[..<start.lowerBound]
            let name = rest[start.lowerBound...].prefix { $0 == "$" || $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            rest = rest[name.endIndex...]
            guard var demangled = demangle(String(name)) else {
                out += name
                continue
            }
            if let unique = demangled.range(of: #"^unique name #\d+ of [0-9a-f]+ in "#, options: .regularExpression) {
                demangled.removeSubrange(unique)
            }
            out += "(" + demangled + ")"
        }
        return out + rest
    }
}

#if canImport(Runtime)
@available(macOS 26.0, *)
private final class RuntimeStackCapture: Sendable {
    static let shared = RuntimeStackCapture()

    /// The loaded images, captured once: capturing them per backtrace costs a hundred
    /// times more than the backtrace itself.
    private let images = ImageMap.capture()

    /// Rivulet's modules, whose frames are skipped.
    private static let ownModules: Set<String> = ["RxSwift", "RxTest", "RxTestCore", "RxCocoa", "RxRelay", "RxBlocking"]

    /// The source place of every address looked up so far, as the runtime gave it (`nil`
    /// inside: it has none).
    ///
    /// Names come from the symbol tables in microseconds, but the runtime finds a place by
    /// running the image's line-number programs, frame by frame: a tenth of a second or
    /// more per frame in a large test binary. So only the frames a report shows get a
    /// place, each address once per run.
    private let places = LockedState<[Backtrace.Address: SymbolicatedBacktrace.SourceLocation?]>([:])

    var capture: CallStackCapture {
        { [self] in
            guard let backtrace = try? Backtrace.capture(algorithm: .fast, limit: 64, offset: 1, top: 0, images: images) else {
                return nil
            }
            return { locating in self.frames(of: backtrace, locating: locating) }
        }
    }

    /// The frames after the last one of Rivulet's modules at the top of the stack,
    /// without thunks, system frames and the test runners', named; the first `count`
    /// that have a source place get it. Frames looked up and found compiler-generated
    /// (line 0) are left out, as the runtime's system frames are.
    private func frames(of backtrace: Backtrace, locating count: Int) -> [StackFrame] {
        guard let named = backtrace.symbolicated(with: images, options: [.useSymbolCache]) else { return [] }
        var kept: [(frame: SymbolicatedBacktrace.Frame, symbol: SymbolicatedBacktrace.Symbol)] = []
        var leftRivulet = false
        for frame in named.frames {
            guard let symbol = frame.symbol else { continue }
            let owner = Self.owner(of: symbol.rawName)
            let own = owner.map(Self.ownModules.contains) ?? false
            if !leftRivulet {
                if own || frame.isSwiftThunk || frame.isSystem { continue }
                leftRivulet = true
            }
            // The standard library's code is skipped wherever it was compiled (generic
            // code is, into its callers).
            if own || frame.isSwiftThunk || frame.isSystem || owner == "Swift" || symbol.imageName.hasPrefix("libswift") { continue }
            // The runners, and the code SwiftPM writes for XCTest to find the tests on Linux.
            if symbol.imageName.hasPrefix("libTesting") || symbol.imageName.hasPrefix("libXCTest") || symbol.name.contains("__allTests__") { break }
            kept.append((frame, symbol))
        }
        var located = 0
        var next = 0
        while located < count, next < kept.count {
            let batch = kept[next..<min(kept.count, next + count - located)].map(\.frame.captured)
            next += batch.count
            located += locate(batch, architecture: backtrace.architecture).filter { $0.map(Self.isCompilerGenerated) == false }.count
        }
        let found = places.current
        return kept.compactMap { frame, symbol in
            let location = found[frame.captured.adjustedProgramCounter].flatMap { $0 }
            if let location, Self.isCompilerGenerated(location) { return nil }
            return StackFrame(
                function: SwiftSymbolNames.readable(symbol.name, rawName: symbol.rawName),
                path: location?.path, line: location?.line, module: Self.owner(of: symbol.rawName)
            )
        }
    }

    /// The module that declared a Swift symbol: `$s11RxTestTests…` → `RxTestTests`; a
    /// symbol in the context of a standard-library type is the standard library's
    /// (`Swift`) unless an extension of another module declared it
    /// (`$sSa7RxSwiftE…` → `RxSwift`). `nil` for a symbol that is not Swift's.
    private static func owner(of rawName: String) -> String? {
        guard rawName.hasPrefix("$s") else { return nil }
        var rest = rawName.dropFirst(2)
        func identifier() -> Substring? {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard let length = Int(digits), length > 0 else { return nil }
            let name = rest.dropFirst(digits.count).prefix(length)
            guard name.count == length else { return nil }
            rest = rest.dropFirst(digits.count + length)
            return name
        }
        func isLetter(_ character: Character?) -> Bool {
            character.map { $0.isASCII && $0.isLetter } ?? false
        }
        switch rest.first {
        case "S" where isLetter(rest.dropFirst().first):
            // A standard type by its short name: `Sa` (Array), `ScT` (Task).
            rest = rest.dropFirst(rest.dropFirst().first == "c" ? 3 : 2)
        case "s":
            // A standard type by name and kind: `s15ContiguousArrayV`.
            rest = rest.dropFirst()
            guard identifier() != nil, isLetter(rest.first) else { return "Swift" }
            rest = rest.dropFirst()
        default:
            return identifier().map(String.init)
        }
        guard let module = identifier(), rest.first == "E" else { return "Swift" }
        return String(module)
    }

    /// The source places of `frames`, looked up in one pass for those not known yet.
    private func locate(_ frames: [Backtrace.Frame], architecture: String) -> [SymbolicatedBacktrace.SourceLocation?] {
        let known = places.current
        let unknown = frames.filter { known[$0.adjustedProgramCounter] == nil }
        if !unknown.isEmpty {
            let found = Self.backtrace(of: unknown, architecture: architecture)?
                .symbolicated(with: images, options: [.showSourceLocations, .useSymbolCache])?.frames
            places.withLock { places in
                for (index, frame) in unknown.enumerated() {
                    places[frame.adjustedProgramCounter] = found.flatMap { index < $0.count ? $0[index].symbol?.sourceLocation : nil }
                }
            }
        }
        let all = places.current
        return frames.map { all[$0.adjustedProgramCounter].flatMap { $0 } }
    }

    /// Whether a place is the compiler's rather than a line of a source file: the
    /// runtime's rule for a system frame.
    private static func isCompilerGenerated(_ location: SymbolicatedBacktrace.SourceLocation) -> Bool {
        (location.line == 0 && location.column == 0) || location.path.hasPrefix("<") || location.path.hasSuffix("<compiler-generated>")
    }

    /// A backtrace of `frames` alone, so that the runtime looks up their places and no
    /// other frame's.
    ///
    /// It is decoded from the backtrace's `Codable` form, whose frames are in the Compact
    /// Backtrace Format (version 0, described in the Swift repository's
    /// `docs/CompactBacktraceFormat.md`): an information byte for the word size, then per
    /// frame an instruction byte (kind, absolute, byte count) and the address, big-endian;
    /// a zero byte ends it. `nil` when the decoded backtrace does not hold exactly
    /// `frames` (a runtime that reads the format differently).
    private static func backtrace(of frames: [Backtrace.Frame], architecture: String) -> Backtrace? {
        let wordSize = MemoryLayout<UInt>.size
        var bytes: [UInt8] = [wordSize == 8 ? 2 : 1]
        for frame in frames {
            let kind: UInt8
            let address: Backtrace.Address
            switch frame {
            case .programCounter(let value): (kind, address) = (0b0001_0000, value)
            case .returnAddress(let value): (kind, address) = (0b0010_0000, value)
            case .asyncResumePoint(let value): (kind, address) = (0b0011_0000, value)
            default: return nil
            }
            guard let word = UInt64(address) else { return nil }
            bytes.append(kind | 0b0000_1000 | UInt8(wordSize - 1))
            for byte in (0..<wordSize).reversed() {
                bytes.append(UInt8(truncatingIfNeeded: word >> (8 * UInt64(byte))))
            }
        }
        bytes.append(0)
        let encoded: [String: String] = ["architecture": architecture, "backtrace": Data(bytes).base64EncodedString()]
        guard let json = try? JSONEncoder().encode(encoded),
              let backtrace = try? JSONDecoder().decode(Backtrace.self, from: json) else { return nil }
        let decoded = Array(backtrace.frames)
        guard decoded.count == frames.count,
              zip(decoded, frames).allSatisfy({ $0.originalProgramCounter == $1.originalProgramCounter }) else { return nil }
        return backtrace
    }

}
#endif
