import XCTest

// RxTest's platform splits, both here. The `AppleLockingPath` trait (Package.swift),
// which compiles RxSwift's Apple implementation on Linux, selects neither: Apple's side
// of each needs what Linux does not have, so Linux compiles only its own side.
//
// | split                          | Apple platforms                  | Linux (and the trait)         | why Apple's side cannot run on Linux |
// | ------------------------------ | -------------------------------- | ----------------------------- | ------------------------------------ |
// | run code when the image loads  | Mach-O `__DATA,__mod_init_func`  | ELF `.init_array`             | an ELF loader never runs a Mach-O section |
// | record a failure at a line     | `record(XCTIssue)`               | `recordFailure(withDescription:inFile:atLine:expected:)` | swift-corelibs-xctest has no `XCTIssue` or `XCTSourceCodeLocation` |
//
// Each of them is a few lines, compiled for Apple platforms only by a machine that
// builds for them (ARCHITECTURE.md, "Apple platforms").

/// The loader runs `installMisuseReporter` before `main`: an entry in the image's
/// initializer list (MisuseReports.swift).
#if os(Linux) || os(Android) || os(FreeBSD) || os(OpenBSD)
@used @section(".init_array")
private let installAtLoad: @convention(c) () -> Void = installMisuseReporter
#elseif canImport(Darwin)
@used @section("__DATA,__mod_init_func")
private let installAtLoad: @convention(c) () -> Void = installMisuseReporter
#endif

private func installMisuseReporter() {
    MisuseReports.install()
}

extension XCTestCase {
    /// Records `message` as a failure of this test at `filePath`, `line`: on Apple
    /// platforms as an `XCTIssue` (`recordFailure(withDescription:...)` is deprecated
    /// there), on Linux with the only call its XCTest has.
    func recordFailure(_ message: String, filePath: String, line: Int) {
        #if canImport(Darwin)
        let location = XCTSourceCodeLocation(filePath: filePath, lineNumber: line)
        record(XCTIssue(type: .assertionFailure, compactDescription: message, sourceCodeContext: XCTSourceCodeContext(location: location)))
        #else
        recordFailure(withDescription: message, inFile: filePath, atLine: line, expected: true)
        #endif
    }
}
