import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import RxMarblesKit

let terminal = ToolEnvironment(stdoutIsTerminal: true, variables: [:])
let pipe = ToolEnvironment(stdoutIsTerminal: false, variables: [:])

func runTool(_ arguments: [String], environment: ToolEnvironment = pipe) throws -> String {
    let command = try RxMarblesCommand.parse(arguments)
    var text = ""
    try command.execute(environment: environment) { text += $0 }
    return text
}

/// The exit status and message the tool gives for the error `arguments` raise.
func failure(_ arguments: [String], environment: ToolEnvironment = pipe) -> (code: Int32, message: String)? {
    do {
        _ = try runTool(arguments, environment: environment)
        return nil
    } catch let failure as ToolFailure {
        return (failure.code, failure.message)
    } catch {
        return (RxMarblesCommand.exitStatus(for: error), RxMarblesCommand.message(for: error))
    }
}

func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("rxmarbles-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite struct CommandTests {
    @Test func listShowsEveryOperatorWithItsSummary() throws {
        let text = try runTool(["--list"])
        let lines = text.split(separator: "\n")
        #expect(lines.count == Gallery.entries.count)
        for (line, entry) in zip(lines, Gallery.entries) {
            #expect(line.hasPrefix(entry.name + " "))
            #expect(line.hasSuffix(entry.summary))
        }
    }

    @Test func oneOperatorShowsItsDiagram() throws {
        let text = try runTool(["take"])
        #expect(text.hasPrefix("take  "))
        #expect(text.contains("source.take(2)"))
        #expect(text.contains("-1-(2|)"))
        #expect(!text.contains("map"))
    }

    @Test func theGalleryShowsEveryFamilyAndEveryOperator() throws {
        let text = try runTool([])
        for entry in Gallery.entries {
            #expect(text.contains("\n" + entry.name + "  " + entry.summary + "\n"), "gallery lacks \(entry.name)")
        }
        for family in Set(Gallery.entries.map(\.family)) {
            #expect(text.contains("── " + family.rawValue + " "))
        }
    }

    @Test func coloursOnlyOnATerminalWithoutNoColor() throws {
        #expect(try runTool(["map"], environment: terminal).contains("\u{1B}["))
        #expect(!(try runTool(["map"], environment: pipe)).contains("\u{1B}["))
        let noColor = ToolEnvironment(stdoutIsTerminal: true, variables: ["NO_COLOR": "1"])
        #expect(!(try runTool(["map"], environment: noColor)).contains("\u{1B}["))
        let emptyNoColor = ToolEnvironment(stdoutIsTerminal: true, variables: ["NO_COLOR": ""])
        #expect(try runTool(["map"], environment: emptyNoColor).contains("\u{1B}["))
        #expect(try runTool(["map", "--color", "always"], environment: pipe).contains("\u{1B}["))
        #expect(!(try runTool(["map", "--color", "never"], environment: terminal)).contains("\u{1B}["))
    }

    @Test func eventsFlagPrintsRxTestNotation() throws {
        let text = try runTool(["take", "--events"])
        #expect(text.contains("source: [.next(1, 1), .next(3, 2), .next(5, 3), .next(7, 4), .completed(9)]"))
        #expect(text.contains("output: [.next(1, 1), .next(3, 2), .completed(3)]"))
    }

    @Test func subscriptionsFlagDrawsThemUnderTheInputs() throws {
        let text = try runTool(["take", "--subscriptions"])
        #expect(text.contains("  source  -1-2   -3-4-|\n          ^--!\n"))
        #expect(try runTool(["take", "--events"]).contains("source.subscriptions: [Subscription(0, 3)]"))
    }

    @Test func unknownOperatorIsAUsageErrorNamingTheNearest() throws {
        let result = try #require(failure(["fliter"]))
        #expect(result.code == 64)
        #expect(result.message.contains("Unknown operator 'fliter'"))
        #expect(result.message.contains("Did you mean 'filter'?"))
        #expect(result.message.contains("map"))
    }

    @Test func marbleInputsMayStartWithADash() throws {
        let command = try RxMarblesCommand.parse(["map", "--input", "-1--2---3|", "--input", "--a--b|"])
        #expect(command.inputs == ["-1--2---3|", "--a--b|"])
        #expect(try RxMarblesCommand.parse(["map", "--input=-1|"]).inputs == ["-1|"])
    }

    @Test func userInputsRunTheRealOperator() throws {
        let text = try runTool(["combineLatest", "--input", "-1--2---3|", "--input", "--a--b|"])
        // The inputs as typed, one character a frame; long labels as keys.
        #expect(text.contains("  a  -1--2---3|\n"))
        #expect(text.contains("  b  --a--b|\n"))
        #expect(text.contains("     --c-de--f|\n     c = 1a, d = 2a, e = 2b, f = 3b\n"))
        let mapped = try runTool(["map", "--input", "--5-(67)|", "--events"])
        #expect(mapped.contains("output: [.next(2, 50), .next(4, 60), .next(4, 70), .completed(5)]"))
    }

    @Test func malformedMarblesAreDataErrorsNamingTheCharacterAndPosition() throws {
        let result = try #require(failure(["map", "--input", "-1-)-|"]))
        #expect(result.code == 65)
        #expect(result.message.contains("')' at position 3"))
        #expect(result.message.hasSuffix("\n  -1-)-|\n     ^"))
    }

    @Test func valuesTheExampleCannotTakeAreDataErrors() throws {
        let result = try #require(failure(["map", "--input", "-1-x|"]))
        #expect(result.code == 65)
        #expect(result.message.contains("'x' at position 3 is not a digit"))
        #expect(result.message.hasSuffix("\n  -1-x|\n     ^"))
    }

    @Test func theWrongNumberOfInputsIsAUsageError() throws {
        let result = try #require(failure(["combineLatest", "--input", "-1|"]))
        #expect(result.code == 64)
        #expect(result.message.contains("combineLatest takes 2 input streams (a, b); got 1 --input."))
        #expect(failure(["just", "--input", "-1|"])?.code == 64)
    }

    @Test func misusedOptionsAreUsageErrors() {
        #expect(failure(["--input", "-1|"])?.code == 64)
        #expect(failure(["--svg", "x.svg"])?.code == 64)
        #expect(failure(["--list", "map"])?.code == 64)
        #expect(failure(["--color", "sometimes"])?.code == 64)
        #expect(failure(["map", "extra"])?.code == 64)
    }

    @Test func svgWritesOnePicture() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("map.svg")
        _ = try runTool(["map", "--svg", file.path])
        let document = try XMLDocument(contentsOf: file, options: [])
        #expect(document.rootElement()?.name == "svg")
        #expect(try document.nodes(forXPath: "//*[local-name()='title']").first?.stringValue == "map")
        #expect(try document.nodes(forXPath: "//*[@class='marble']").count == 6)
    }

    @Test func svgDirWritesTheWholeGallery() throws {
        let directory = try temporaryDirectory().appendingPathComponent("nested")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        _ = try runTool(["--svg-dir", directory.path])
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files == Gallery.entries.map { RxMarblesCommand.fileName(for: $0.name) }.sorted())
        for file in files {
            let document = try XMLDocument(contentsOf: directory.appendingPathComponent(file), options: [])
            #expect(document.rootElement()?.name == "svg")
        }
    }

    @Test func anUnwritableFileIsCannotCreate() {
        let result = failure(["map", "--svg", "/nonexistent-dir-for-rxmarbles/x.svg"])
        #expect(result?.code == 73)
        #expect(result?.message.contains("/nonexistent-dir-for-rxmarbles/x.svg") == true)
    }

    @Test func fileNamesAreSafe() {
        #expect(RxMarblesCommand.fileName(for: "map") == "map.svg")
        #expect(RxMarblesCommand.fileName(for: "observe(on:)") == "observe_on__.svg")
    }

    @Test func inputErrorsAreWordedForWhereTheyAreRead() {
        let count = GalleryInputError.wrongInputCount(operator: "zip", expected: 2...2, names: ["a", "b"], got: 1)
        #expect(count.description == "zip takes 2 input streams (a, b); got 1 --input.")
        #expect(count.description(for: .page) == "zip takes 2 input streams (a, b); got 1 input.")
        let value = GalleryInputError.valueNotAccepted(operator: "map", input: 1, name: "source", key: "x", frame: 3, position: 3, expected: "a digit")
        #expect(value.description == "--input 1 (source) of map: 'x' at position 3 is not a digit.")
        #expect(value.description(for: .page) == "Input 1 (source) of map: 'x' at position 3 is not a digit.")
    }
}
