import Foundation
import RxMarblesKit
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

    @Test func serveIsASubcommandListedInTheRootHelp() throws {
        let help = try runExecutable(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("\nSUBCOMMANDS (the first argument; each has its own options and --help):\n  serve                   The marble playground in a browser.\n"))
        let serveHelp = try runExecutable(["serve", "--help"])
        #expect(serveHelp.status == 0)
        #expect(serveHelp.stdout == ServeCommand.helpText)
        #expect(serveHelp.stderr.isEmpty)
    }

    @Test func onlyTheFirstArgumentChoosesTheSubcommand() throws {
        #expect(RxMarblesSubcommand.chosen(by: ["serve", "--port", "0"])?.subcommand == .serve)
        #expect(RxMarblesSubcommand.chosen(by: ["serve", "--port", "0"])?.arguments == ["--port", "0"])
        // An operator is the root command's plain argument, wherever it stands.
        #expect(RxMarblesSubcommand.chosen(by: ["debounce"]) == nil)
        #expect(RxMarblesSubcommand.chosen(by: ["--events", "serve"]) == nil)
        #expect(RxMarblesSubcommand.chosen(by: ["--", "serve"]) == nil)
        #expect(RxMarblesSubcommand.chosen(by: []) == nil)
        // Elsewhere its name is no operator, and the error says where it goes.
        let misplaced = try runExecutable(["--events", "serve"])
        #expect(misplaced.status == 64)
        #expect(misplaced.stderr.contains("serve is a subcommand, not an operator: give it first, as in rxmarbles serve [--port <port>] [--host <host>] [--lanes <file>]."))
        #expect(try runExecutable(["debounce"]).status == 0)
    }

    @Test func aLanesRecordingThatCannotBeReadStopsServeAtOnce() throws {
        #expect(try ServeCommand.parse(["--lanes", "sign-in.lanes"]).lanesFile == "sign-in.lanes")
        let missing = try temporaryDirectory().appendingPathComponent("none.lanes").path
        let result = try runExecutable(["serve", "--port", "0", "--lanes", missing])
        #expect(result.status == 66)
        #expect(result.stderr == "rxmarbles serve: --lanes \(missing): cannot be read: there is no such file.\n")
        #expect(result.stdout.isEmpty)
        #expect(try runExecutable(["serve", "--help"]).stdout.contains("--lanes <file>  Also draw this lanes recording"))
    }

    @Test(arguments: [["--port", "70000"], ["--port", "-1"], ["--bogus"], ["map"], ["--lanes", ""]])
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
