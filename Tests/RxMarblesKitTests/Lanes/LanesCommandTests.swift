import Foundation
import RxLanes
import Testing
@testable import RxMarblesKit

/// `rxmarbles lanes FILE`, run in-process.
@Suite struct LanesCommandTests {
    /// A file holding `text` in a fresh directory.
    private func file(_ text: String, named name: String = "sign-in.lanes") throws -> String {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// What `rxmarbles lanes ARGUMENTS` writes, or the exit status and stderr text.
    private func run(_ arguments: [String], environment: ToolEnvironment = pipe) -> (output: String, status: Int32, message: String) {
        var output = ""
        do {
            let command = try LanesCommand.parse(arguments)
            try command.execute(environment: environment) { output += $0 }
            return (output, 0, "")
        } catch {
            return (output, RxMarblesCommand.exitStatus(for: error), LanesCommand.message(for: error))
        }
    }

    @Test func drawsTheRecordingAsTextSVGOrHTML() throws {
        let path = try file(everyKind.fileText)
        let diagram = LaneDiagram(everyKind)
        #expect(run([path]).output == LaneTextRenderer().render(diagram))
        #expect(run([path]).status == 0)
        #expect(run([path, "--svg"]).output == LaneSVGRenderer().render(diagram))
        #expect(run([path, "--html"]).output == LaneHTMLPage.render(diagram, title: "sign-in.lanes"))
        #expect(run([path, "--color", "always"]).output == LaneTextRenderer(style: .ansi).render(diagram))
        #expect(run([path], environment: terminal).output.contains("\u{1B}["))
        #expect(run([path, "--ascii"]).output == LaneTextRenderer(asciiOnly: true).render(diagram))
    }

    @Test func aMalformedFileNamesTheLineAndColumn() throws {
        var lines = everyKind.fileText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.hasSuffix("next \"x\"") })
        lines[index] = lines[index].replacingOccurrences(of: "next", with: "nxt")
        let path = try file(lines.joined(separator: "\n"))
        let result = run([path])
        #expect(result.status == 65)
        #expect(result.output.isEmpty)
        #expect(result.message == "rxmarbles lanes: \(path): line \(index + 1), column 22: unknown event kind 'nxt': expected subscribed, next, error, completed or disposed")
    }

    @Test func aTruncatedFileSaysItIsCutShort() throws {
        let lines = everyKind.fileText.split(separator: "\n").map(String.init)
        let path = try file(lines.prefix(lines.count - 3).joined(separator: "\n") + "\n")
        let result = run([path])
        #expect(result.status == 65)
        #expect(result.message.hasPrefix("rxmarbles lanes: \(path): line \(lines.count - 3): the file ends without its 'end' line: it is cut short"))
        // Cut inside a quoted value: the column of the quote left open.
        let cut = everyKind.fileText.prefix { $0 != "B" }
        let open = run([try file(String(cut))])
        #expect(open.status == 65)
        let lastLine = try #require(cut.split(separator: "\n").last)
        #expect(lastLine.hasSuffix("error \""))
        #expect(open.message.contains(": line \(cut.split(separator: "\n").count), column \(lastLine.count): the quoted text that starts here is not closed"))
    }

    @Test func anEmptyFileDrawsAnEmptyDiagram() throws {
        #expect(run([try file("")]) == ("No events recorded.\n", 0, ""))
        #expect(run([try file("# nothing yet\n")]).output == "No events recorded.\n")
        let header = "rivulet-lanes 1\nlane 0 \"email\" \"String\" 10 0\nend 0\n"
        #expect(run([try file(header)]).output == "No events recorded (lanes: email).\n")
        #expect(run([try file(""), "--svg"]).output.contains("No events recorded."))
    }

    @Test func aFileThatCannotBeReadSaysSo() throws {
        let missing = try temporaryDirectory().appendingPathComponent("none.lanes").path
        #expect(run([missing]).status == 66)
        #expect(run([missing]).message == "rxmarbles lanes: \(missing): cannot be read: there is no such file.")
        let directory = try temporaryDirectory().path
        #expect(run([directory]).status == 66)
        #expect(run([directory]).message.contains("it is a directory"))
        let binary = try temporaryDirectory().appendingPathComponent("binary.lanes")
        try Data([0xFF, 0xFE, 0x00, 0x41]).write(to: binary)
        #expect(run([binary.path]).status == 65)
        #expect(run([binary.path]).message.hasSuffix("not a lanes recording: it is not UTF-8 text."))
    }

    @Test(arguments: [
        ([], "lanes needs the recording's file"),
        (["a.lanes", "b.lanes"], "lanes draws one recording at a time"),
        (["a.lanes", "--svg", "--html"], "give one of them"),
        (["a.lanes", "--svg", "--ascii"], "--ascii and --color are for the text drawing"),
        (["a.lanes", "--color", "sometimes"], "--color takes auto, always or never"),
        (["a.lanes", "--bogus"], "Unknown option '--bogus'"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let result = run(arguments)
        #expect(result.status == 64)
        #expect(result.message.contains(message), "\(result.message)")
        #expect(result.message.hasSuffix("\n" + LanesCommand.usage + "\nSee 'rxmarbles lanes --help'."))
    }

    @Test func helpDescribesTheDrawingAndTheExitStatus() {
        let help = run(["--help"]).output
        #expect(help == LanesCommand.helpText)
        #expect(help.contains("USAGE: rxmarbles lanes <file> [--svg | --html] [--ascii] [--color <when>]"))
        #expect(help.contains("EXIT STATUS"))
        #expect(RxMarblesCommand.helpText.contains("  lanes                   Draws a lanes recording of a running pipeline."))
        #expect(RxMarblesSubcommand.chosen(by: ["lanes", "x.lanes"])?.subcommand == .lanes)
    }
}

/// `rxmarbles lanes` as a process: the exit status and stderr.
@Suite struct LanesExecutableTests {
    @Test func aMalformedRecordingExitsWithItsLineOnStderr() throws {
        let url = try temporaryDirectory().appendingPathComponent("bad.lanes")
        try Data("rivulet-lanes 1\nlane 0 email \"String\" 10 0\n".utf8).write(to: url)
        let result = try runExecutable(["lanes", url.path])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "rxmarbles lanes: \(url.path): line 2, column 8: expected the lane's name in double quotes, found 'email'\n")
        let drawn = try runExecutable(["lanes", try {
            let good = try temporaryDirectory().appendingPathComponent("good.lanes")
            try Data(everyKind.fileText.utf8).write(to: good)
            return good.path
        }()])
        #expect(drawn.status == 0)
        #expect(drawn.stdout == LaneTextRenderer().render(LaneDiagram(everyKind)))
    }
}

extension LanesCommandTests {
    @Test func writesTheRecordingAsATestWithItsInputsAndOutput() throws {
        let path = try file(everyKind.fileText)
        let written = run([path, "--test", "swift-testing", "--inputs", "a,b", "--output", "c", "--import", "MyApp"])
        #expect(written.status == 0)
        let expected = try LaneTestWriter(style: .swiftTesting).write(everyKind, inputs: ["a", "b"], output: "c", file: "sign-in.lanes", imports: ["MyApp"])
        #expect(written.output == expected)
        #expect(written.output.contains("import MyApp"))
        #expect(run([path, "--test", "xctest", "--output", "c"]).output.contains("final class CRecordingTests: XCTestCase"))
    }

    @Test(arguments: [
        (["--test", "xctest"], "Error: --test needs the output lane: --output NAME."),
        (["--test", "junit", "--output", "c"], "Error: --test takes xctest or swift-testing, not 'junit'."),
        (["--svg", "--test", "xctest", "--output", "c"], "Error: --test prints a test, not a drawing: leave out --svg."),
        (["--output", "c"], "Error: --inputs, --output and --import go with --test."),
    ])
    func testOptionsThatDoNotFitAreUsageErrors(arguments: [String], message: String) throws {
        let result = run([try file(everyKind.fileText)] + arguments)
        #expect(result.status == 64)
        #expect(result.message.hasPrefix(message))
    }

    @Test func aLaneTheRecordingLacksIsNamed() throws {
        let path = try file(everyKind.fileText)
        let result = run([path, "--test", "xctest", "--inputs", "a", "--output", "signIn"])
        #expect(result.status == 65)
        #expect(result.message == "rxmarbles lanes: \(path): cannot be written as a test: the recording has no lane named 'signIn' (its lanes: a, b, c, d)")
    }
}
