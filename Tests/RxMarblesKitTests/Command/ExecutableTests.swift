import Foundation
import Testing

/// Runs the built `rxmarbles` next to the test bundle, with a pipe for stdout (so
/// not a terminal) and a bounded wait.
func runExecutable(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var executable = products.appendingPathComponent("rxmarbles")
    if !FileManager.default.fileExists(atPath: executable.path) {
        // macOS runs tests from inside the .xctest bundle.
        executable = products.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("rxmarbles")
    }
    try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build the rxmarbles product first (swift build --build-tests)")
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env.removeValue(forKey: "NO_COLOR")
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let done = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in done.signal() }
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    if done.wait(timeout: .now() + 60) == .timedOut {
        process.terminate()
        Issue.record("rxmarbles \(arguments) did not finish within 60 s")
    }
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

@Suite struct ExecutableTests {
    @Test func theGalleryIsPlainTextThroughAPipe() throws {
        let result = try runExecutable([])
        #expect(result.status == 0)
        #expect(result.stdout.contains("source.map { $0 * 10 }"))
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(result.stderr.isEmpty)
    }

    @Test func anUnknownOperatorExitsWithAUsageError() throws {
        let result = try runExecutable(["fliter"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Did you mean 'filter'?"))
        #expect(result.stdout.isEmpty)
    }

    @Test func colourCanBeForcedAndNoColorIsHonoured() throws {
        #expect(try runExecutable(["map", "--color", "always"]).stdout.contains("\u{1B}["))
        #expect(!(try runExecutable(["map"], environment: ["NO_COLOR": "1"])).stdout.contains("\u{1B}["))
    }

    @Test func aMalformedMarbleExitsWithADataError() throws {
        let result = try runExecutable(["map", "--input", "-1-(2|"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("'(' at position 3"))
        #expect(result.stdout.isEmpty)
    }

    @Test func marbleInputsFromTheCommandLineAreDrawn() throws {
        let result = try runExecutable(["combineLatest", "--input", "-1--2---3|", "--input", "--a--b|"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("  a  -1--2---3|\n  b  --a--b|\n"))
        #expect(result.stdout.contains("--c-de--f|\n     c = 1a, d = 2a, e = 2b, f = 3b\n"))
    }

    @Test func anUnwritableSVGExitsWithCannotCreate() throws {
        let result = try runExecutable(["map", "--svg", "/nonexistent-dir-for-rxmarbles/map.svg"])
        #expect(result.status == 73)
        #expect(result.stderr.contains("cannot write"))
    }
}
