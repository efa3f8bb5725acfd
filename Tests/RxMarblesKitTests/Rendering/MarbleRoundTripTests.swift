import Foundation
import RxSwift
import RxTestCore
import Testing
@testable import RxMarblesKit

/// What a printed diagram says, read back from the text alone: each stream's marble
/// line, the subscription lines under each input, and the legend.
struct PrintedDiagram {
    var inputRows: [String] = []
    var subscriptionRows: [[String]] = []
    var outputRow = ""
    var legend: [String: String] = [:]

    init(_ diagram: OperatorDiagram) throws {
        let names = diagram.timelines.map { $0.isCold && !$0.name.isEmpty ? $0.name + " (cold)" : $0.name }
        let nameWidth = names.map(\.count).max() ?? 0
        let prefix = 2 + (nameWidth > 0 ? nameWidth + 2 : 0)
        let lines = TextRenderer(style: .plain).diagramLines(diagram)
        let box = try #require(lines.firstIndex { $0.dropFirst(prefix).hasPrefix("╭") })
        for line in lines[..<box] {
            let marbles = String(line.dropFirst(prefix))
            if line.dropFirst(2).first == " " {
                subscriptionRows[subscriptionRows.count - 1].append(marbles)
            } else {
                inputRows.append(marbles)
                subscriptionRows.append([])
            }
        }
        outputRow = String(lines[box + 3].dropFirst(prefix))
        if lines.count > box + 4 {
            // `a = 10, b = 20`: a key, " = ", its label, up to the next ", k = ".
            let text = String(lines[box + 4].dropFirst(prefix))
            let pattern = try NSRegularExpression(pattern: "(?:^|, )(\\S) = (.*?)(?=, \\S = |$)")
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let key = String(text[Range(match.range(at: 1), in: text)!])
                legend[key] = String(text[Range(match.range(at: 2), in: text)!])
            }
        }
    }
}

/// The events a timeline shows, as `frame:symbol` (labels in full), up to its first
/// terminal event.
func shownEvents(_ timeline: Timeline) -> [String] {
    var shown: [String] = []
    for event in timeline.events {
        shown.append("\(event.frame):\(event.kind.symbol)")
        if event.kind.isTerminal { break }
    }
    return shown
}

/// The events a printed marble line parses to with RxTestCore's parser, as
/// `frame:symbol`, keys looked up in `legend`; `zeroFrame` is where a `^` stands.
func parsedEvents(_ marbles: String, legend: [String: String], zeroFrame: Int?) throws -> [String] {
    let timeline = try Marbles.parseTimeline(marbles)
    let shift = timeline.zeroPosition == nil ? 0 : try #require(zeroFrame, "a ^ in \(marbles) where the stream has no zero point")
    return timeline.entries.map { entry in
        let frame = entry.time + shift
        switch entry.kind {
        case .key(let key): return "\(frame):\(legend[String(key)] ?? String(key))"
        case .completed: return "\(frame):|"
        case .error: return "\(frame):#"
        }
    }
}

/// Checks that every line of `diagram` as printed parses back to the events shown.
func expectPrintedDiagramParsesBack(_ diagram: OperatorDiagram, _ comment: String) throws {
    let printed = try PrintedDiagram(diagram)
    #expect(printed.inputRows.count == diagram.inputs.count, "\(comment)")
    for (input, row) in zip(diagram.inputs, printed.inputRows) {
        #expect(try parsedEvents(row, legend: printed.legend, zeroFrame: input.zeroFrame) == shownEvents(input), "\(comment): \(input.name) printed as \(row)")
    }
    for (input, rows) in zip(diagram.inputs, printed.subscriptionRows) where !rows.isEmpty {
        let parsed = try rows.flatMap { try Marbles.parseSubscriptions($0) }
            .map { FrameSpan(start: $0.subscribe, end: $0.unsubscribe == Int.max ? nil : $0.unsubscribe) }
        #expect(parsed.sorted { $0.start < $1.start } == input.subscriptions.sorted { $0.start < $1.start }, "\(comment): \(input.name)'s subscriptions printed as \(rows)")
    }
    #expect(try parsedEvents(printed.outputRow, legend: printed.legend, zeroFrame: diagram.output.zeroFrame) == shownEvents(diagram.output), "\(comment): output printed as \(printed.outputRow)")
}

@Suite struct MarbleRoundTripTests {
    @Test(arguments: Gallery.entries.map(\.name))
    func everyGalleryDiagramAsPrintedParsesBackToItsEvents(_ name: String) throws {
        let entry = try #require(Gallery.entry(named: name))
        try expectPrintedDiagramParsesBack(entry.diagram(), name)
    }

    @Test(arguments: [
        ("scan", ["9999|"]),
        ("combineLatest", ["12|", "ab|"]),
        ("zip", ["(12)-3|", "a(bc)|"]),
        ("map", ["--1-^-2-3-|"]),
        ("merge", ["-1-(23)-#", "--4--5|"]),
        ("concatMap", ["-a-b|", "1-2|", "(34)|"]),
        ("reduce", ["9999|"]),
    ])
    func userInputsAsPrintedParseBackToTheirEvents(_ name: String, _ texts: [String]) throws {
        let entry = try #require(Gallery.entry(named: name))
        let diagram = try entry.diagram(inputs: texts.map { try MarbleInputParser.parse($0) })
        try expectPrintedDiagramParsesBack(diagram, "\(name) \(texts)")
    }

    @Test(arguments: [
        ("map", ["-1--2---3|"]),
        ("map", ["---1|"]),
        ("map", ["--1-^-2-3-|"]),
        ("combineLatest", ["-1--2---3|", "--a--b|"]),
        ("scan", ["9999|"]),
        ("filter", ["-1-2-3-4-"]),
    ])
    func inputsAreEchoedAsTypedOneCharacterPerFrame(_ name: String, _ texts: [String]) throws {
        let entry = try #require(Gallery.entry(named: name))
        let diagram = try entry.diagram(inputs: texts.map { try MarbleInputParser.parse($0) })
        let printed = try PrintedDiagram(diagram)
        for (typed, row) in zip(texts, printed.inputRows) {
            if typed.hasSuffix("|") || typed.hasSuffix("#") {
                #expect(row == typed)
            } else {
                // A stream that does not end goes on to the end of the diagram.
                #expect(row.hasPrefix(typed) && row.dropFirst(typed.count).allSatisfy { $0 == "-" }, "\(typed) printed as \(row)")
            }
        }
    }

    @Test func longLabelsGetKeysNoLabelIsWrittenAsAndTheLegendSaysWhich() throws {
        let entry = try #require(Gallery.entry(named: "combineLatest"))
        let diagram = try entry.diagram(inputs: [MarbleInputParser.parse("12|"), MarbleInputParser.parse("ab|")])
        let printed = try PrintedDiagram(diagram)
        #expect(printed.outputRow == "c(de)|")
        #expect(printed.legend == ["c": "1a", "d": "2a", "e": "2b"])
        #expect(printed.inputRows == ["12   |", "ab   |"])
    }

    @Test func keysSkipLabelsWrittenAsThemselvesAndLettersThatReadAsTimeUnits() {
        let keys = MarbleKeys(labels: ["a", "10", "b", "20", "10", " ", "|", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "300"])
        #expect(keys.key(for: "a") == "a")
        #expect(keys.key(for: "10") == "n")
        #expect(keys.key(for: "20") == "o")
        #expect(keys.key(for: " ") == "p")
        #expect(keys.key(for: "|") == "q")
        #expect(keys.key(for: "300") == "r")
        #expect(keys.label(for: "o") == "20")
        #expect(keys.legend.map(\.key) == ["n", "o", "p", "q", "r"])
    }
}
