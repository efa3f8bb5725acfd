import Foundation
import Testing
@testable import RxMarblesKit
import RxMarblesServer

/// The command line as typed: marble text with any number of leading dashes, the
/// version, the help's contents, and plain-words errors before anything is drawn.
@Suite struct ArgumentTests {
    @Test("marble text starting with dashes is taken as typed", arguments: ["---1|", "--1|", "-|", "----------0--1--2--3-"])
    func inputsWithLeadingDashes(marbles: String) throws {
        #expect(try RxMarblesCommand.parse(["map", "--input", marbles]).inputs == [marbles])
        #expect(try RxMarblesCommand.parse(["map", "--input=\(marbles)"]).inputs == [marbles])
    }

    @Test func theGallerysOwnOutputCanBePastedBack() throws {
        let result = try runExecutable(["map", "--input", "---0--1--2--3-"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("  source  ---0--1--2--3-"))
        #expect(result.stdout.contains("          ---0--a--b--c-"))
    }

    @Test func versionIsTheRelease() throws {
        let result = try runExecutable(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "rxmarbles \(RivuletVersion.current)\n")
    }

    @Test func theHelpShowsServeAndLeavesOutTheMaintainersOption() throws {
        let help = try runTool(["--help"])
        #expect(help.contains("rxmarbles serve [--port <port>] [--host <host>]"))
        #expect(help.contains("--version"))
        #expect(!help.contains("--docc"))
        #expect(failure(["--docc", "catalog", "map"])?.code == 64)
    }

    @Test func unknownOptionsAndMissingValuesAreNamed() {
        #expect(failure(["--bogus"])?.message.contains("Unknown option '--bogus'.") == true)
        #expect(failure(["--inptu", "-1|"])?.message.contains("Did you mean '--input'?") == true)
        #expect(failure(["map", "--input"])?.message.contains("--input needs a value.") == true)
        #expect(failure(["map", "--list=yes"])?.message.contains("--list takes no value.") == true)
        #expect(failure(["map", "--svg", "a.svg", "--svg", "b.svg"])?.message.contains("--svg was given 2 times") == true)
        let usage = failure(["--bogus"])?.message ?? ""
        #expect(usage.contains(RxMarblesCommand.usage))
        #expect(usage.hasSuffix("See 'rxmarbles --help'."))
    }

    @Test func emptyValuesAreRefusedWithWhatToGive() {
        let input = failure(["map", "--input", ""])
        #expect(input?.code == 64)
        #expect(input?.message.contains("--input 1 is empty") == true)
        #expect(failure(["map", "--svg", ""])?.message.contains("--svg is empty") == true)
        #expect(failure(["--svg-dir", ""])?.message.contains("--svg-dir is empty") == true)
    }

    @Test func onlyCloseOperatorNamesAreSuggested() {
        #expect(failure(["foo"])?.message.contains("Did you mean") == false)
        #expect(failure([""])?.message.contains("No operator is named by an empty argument.") == true)
        #expect(failure(["mpa"])?.message.contains("Did you mean 'map'?") == true)
    }

    @Test func aDoubleDashEndsTheOptions() throws {
        #expect(try RxMarblesCommand.parse(["--", "map"]).operatorName == "map")
        #expect(failure(["--", "--list"])?.message.contains("Unknown operator '--list'") == true)
    }

    @Test func serveArgumentsAreCheckedBeforeStarting() throws {
        #expect(try ServeCommand.parse(["--port", "0", "--host", "::1"]).port == 0)
        #expect(try ServeCommand.parse(["--port=9000"]).port == 9000)
        #expect(throws: UsageError.self) { try ServeCommand.parse(["--port", "http"]) }
        #expect(throws: UsageError.self) { try ServeCommand.parse(["--host", ""]) }
        #expect(try ServeCommand.parse(["-h"]).help)
    }
}

/// Where the output goes: dumb terminals and other character sets, and picture paths
/// that cannot be written, refused before anything is drawn.
@Suite struct OutputDestinationTests {
    @Test func aDumbTerminalGetsNeitherColourNorBoxDrawing() throws {
        let dumb = ToolEnvironment(stdoutIsTerminal: true, variables: ["TERM": "dumb"])
        let text = try runTool(["map"], environment: dumb)
        #expect(!text.contains("\u{1B}["))
        #expect(text.contains("+------------------------+"))
        #expect(text.contains("| source.map { $0 * 10 } |"))
        #expect(!text.contains("╭"))
        #expect(try runTool(["map"], environment: terminal).contains("╭"))
    }

    @Test func asciiOnRequestOrForANonUTF8Locale() throws {
        #expect(try runTool(["map", "--ascii"]).contains("+---"))
        #expect(!(try runTool(["map"], environment: ToolEnvironment(stdoutIsTerminal: false, variables: ["LANG": "en_US.UTF-8"]))).contains("+---"))
        #expect(try runTool(["map"], environment: ToolEnvironment(stdoutIsTerminal: false, variables: ["LANG": "en_US.ISO-8859-1"])).contains("+---"))
        #expect(try runTool(["--ascii"]).contains("-- Creating "))
    }

    @Test func svgNamingADirectoryIsRefusedBeforeDrawing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try runExecutable(["map", "--svg", directory.path])
        #expect(result.status == 73)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--svg writes one file, and \(directory.path) is a directory"))
        #expect(result.stderr.contains("--svg-dir \(directory.path)"))
        #expect(!result.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test func svgInAMissingDirectoryOrSvgDirNamingAFileAreRefused() throws {
        let missing = failure(["map", "--svg", "/nonexistent-dir-for-rxmarbles/map.svg"])
        #expect(missing?.code == 73)
        #expect(missing?.message.contains("the directory /nonexistent-dir-for-rxmarbles does not exist") == true)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("taken.txt")
        try Data("x".utf8).write(to: file)
        let notADirectory = failure(["--svg-dir", file.path])
        #expect(notADirectory?.message.contains("--svg-dir needs a directory, and \(file.path) is a file.") == true)
    }
}
