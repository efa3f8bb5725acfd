import Foundation
import Testing

/// Inputs the rxmarbles fuzz target (Fuzz/Sources/FuzzRxMarbles) stopped on, kept as
/// regression tests of the tool itself.
@Suite struct FuzzRegressionTests {
    /// Fuzz input 5ffdb8ed (`\0--help`, command mode): the target first took `--help`
    /// for a failure. The tool must print the usage and exit with 0.
    @Test("rxmarbles --help and -h print the usage and exit with 0", arguments: [["--help"], ["-h"], ["take", "--help"]])
    func helpPrintsUsage(arguments: [String]) throws {
        let result = try runExecutable(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: rxmarbles"))
        #expect(result.stdout.contains("--input <marbles>"))
        #expect(result.stderr.isEmpty)
    }
}
