import Foundation
import RxMarblesServer
import Testing

/// `rxmarbles serve` on the command line (the server itself is tested in RxMarblesServerTests).
@Suite struct ServeCommandLineTests {
    @Test func serveHasItsOwnHelp() throws {
        let result = try runExecutable(["serve", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: rxmarbles serve [--port <port>] [--host <host>]"))
        #expect(try runExecutable(["--help"]).stdout.contains("rxmarbles serve --port 8080"))
    }

    @Test(arguments: [["--port", "70000"], ["--port", "-1"], ["--bogus"], ["map"]])
    func badArgumentsAreUsageErrors(_ arguments: [String]) throws {
        let result = try runExecutable(["serve"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error: "))
        #expect(result.stdout.isEmpty)
    }
}

/// Without the Playground trait the tool has no server: `serve` says so and how to get
/// it, and exits with EX_UNAVAILABLE.
@Suite struct ServeWithoutThePlaygroundTests {
    @Test(.enabled(if: !ServeCommand.isAvailable))
    func serveSaysHowToGetTheServer() throws {
        let result = try runExecutable(["serve", "--port", "0"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("built without the playground server"))
        #expect(result.stderr.contains("swift run --traits Playground --scratch-path .build-playground rxmarbles serve"))
        #expect(result.stdout.isEmpty)
    }
}
