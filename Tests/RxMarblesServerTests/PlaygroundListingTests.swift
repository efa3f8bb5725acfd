// Without HTTP, so with or without the Playground trait: what `Playground.diagram`
// answers, compared with what `rxmarbles` prints for the same diagram.
import RxMarblesKit
import RxMarblesServer
import Testing

/// The playground's event listing is the command's `--events` listing, line for line.
@Suite struct PlaygroundListingTests {
    /// What `rxmarbles` prints for `arguments` (plain text, as through a pipe).
    func commandOutput(_ arguments: [String]) throws -> String {
        let command = try RxMarblesCommand.parse(arguments)
        var text = ""
        try command.execute(environment: ToolEnvironment(stdoutIsTerminal: false, variables: [:])) { text += $0 }
        return text
    }

    /// Expects the listing of `diagram` to end what the command printed for `arguments`
    /// (the listing comes after the picture), each line indented by two spaces.
    func expectSameListing(_ diagram: Playground.Diagram, as arguments: [String]) throws {
        let printed = try commandOutput(arguments + ["--events"])
        let listing = diagram.events.map { "  " + $0 }.joined(separator: "\n") + "\n"
        #expect(!diagram.events.isEmpty)
        #expect(printed.hasSuffix("\n" + listing), "\(arguments): \(diagram.events) against\n\(printed)")
    }

    @Test("every example's listing", arguments: Gallery.entries.map(\.name))
    func everyExample(_ name: String) throws {
        try expectSameListing(try Playground.diagram(operator: name, inputs: nil), as: [name])
    }

    @Test func userInputsChainsAndComparisons() throws {
        let inputs = ["-1--2---3|", "--a--b|"]
        try expectSameListing(
            try Playground.diagram(operator: "combineLatest", inputs: inputs),
            as: ["combineLatest", "--input", inputs[0], "--input", inputs[1]]
        )
        try expectSameListing(
            try Playground.diagram(operator: "filter", inputs: ["-1-2-3-4-5-6|"], chain: ["map", "debounce"]),
            as: ["--chain", "filter,map,debounce", "--input", "-1-2-3-4-5-6|"]
        )
        try expectSameListing(
            try Playground.diagram(operator: "flatMap", inputs: nil, compare: ["concatMap", "flatMapLatest"]),
            as: ["--compare", "flatMap,concatMap,flatMapLatest"]
        )
    }

    @Test func theListingIsTheFormattersLines() throws {
        let diagram = try Playground.diagram(operator: "take", inputs: ["-1-2-3|"])
        let expected = try Gallery.entry(named: "take")!.diagram(inputs: [MarbleInputParser.parse("-1-2-3|")])
        #expect(diagram.events == EventListing.lines(of: expected))
        #expect(EventListing.text(of: expected) == diagram.events.map { "  " + $0 + "\n" }.joined())
        #expect(diagram.events.first == "source: [.next(1, 1), .next(3, 2), .next(5, 3), .completed(6)]")
    }
}
