import RxSwift
import RxTestCore
import Testing
@testable import RxMarblesKit

/// Builds a timeline from (frame, symbol) pairs: "|" completes, "#" fails, others are values.
func line(_ name: String, _ events: [(Int, String)], cold: Bool = false) -> Timeline {
    Timeline(name: name, events: events.map { frame, symbol in
        switch symbol {
        case "|": return MarbleEvent(frame: frame, kind: .completed)
        case "#": return MarbleEvent(frame: frame, kind: .error("boom"))
        default: return MarbleEvent(frame: frame, kind: .next(symbol))
        }
    }, isCold: cold)
}

func stripANSI(_ text: String) -> String {
    var out = ""
    var skipping = false
    for scalar in text.unicodeScalars {
        if scalar == "\u{1B}" { skipping = true; continue }
        if skipping {
            if scalar == "m" { skipping = false }
            continue
        }
        out.unicodeScalars.append(scalar)
    }
    return out
}

@Suite struct LayoutTests {
    @Test func cellsShowLinesEventsGroupsAndTheEnd() {
        let timeline = line("a", [(1, "1"), (3, "2"), (3, "3"), (3, "|")])
        let cells = MarbleLayout.cells(of: timeline, frameCount: 6)
        #expect(cells == [.line, .events([.next("1")]), .line, .events([.next("2"), .next("3"), .completed]), .ended, .ended])
        #expect(cells.map { $0.text(keys: .none) }.joined() == "-1-(23|)  ")
    }

    @Test func nothingIsDrawnAfterATerminalEventAtTheSameFrame() {
        let timeline = line("a", [(2, "#"), (2, "x")])
        let cells = MarbleLayout.cells(of: timeline, frameCount: 4)
        #expect(cells[2] == .events([.error("boom")]))
    }

    @Test func groupsWriteLongLabelsWithTheirKeys() {
        let keys = MarbleKeys(labels: ["10", "20"])
        #expect(MarbleCell.events([.next("10"), .next("20")]).text(keys: keys) == "(ab)")
        #expect(MarbleCell.events([.next("x"), .next("20"), .completed]).text(keys: keys) == "(xb|)")
    }

    @Test func framesAreOneColumnUnlessAGroupNeedsMore() {
        let diagram = OperatorDiagram(
            name: "t", summary: "s",
            inputs: [line("a", [(1, "1"), (2, "2"), (4, "|")])],
            call: "a.op()",
            output: line("", [(1, "10"), (2, "(x)"), (2, "y"), (4, "|")])
        )
        let layout = MarbleLayout(diagram)
        #expect(layout.frameCount == 6)
        #expect(layout.keys.legend == [.init(key: "a", label: "10"), .init(key: "b", label: "(x)")])
        #expect(layout.columnWidths == [1, 1, 4, 1, 1, 1])
        #expect(layout.columnOffsets == [0, 1, 2, 6, 7, 8])
        // The other streams fill a wide frame with spaces, which marbles ignore.
        #expect(layout.marbles(row: 0) == "-12   -|")
        #expect(layout.marbles(row: 1) == "-a(by)-|")
    }

    @Test func frameCountCoversTheLastEventAndTheMinimum() {
        let diagram = OperatorDiagram(name: "t", summary: "s", inputs: [line("a", [(5, "1")])], call: "c", output: line("", []))
        #expect(diagram.frameCount == 7)
        let longer = OperatorDiagram(name: "t", summary: "s", inputs: [line("a", [(5, "1")])], call: "c", output: line("", []), minimumFrameCount: 12)
        #expect(longer.frameCount == 12)
    }

    @Test func timelinesFromRecordedEventsUseTheTimeScale() {
        let recorded: [Recorded<Event<Int>>] = [.next(210, 1), .next(230, 2), .completed(250)]
        let timeline = Timeline(name: "xs", recorded: recorded, scale: TimeScale(origin: 200, ticksPerFrame: 10))
        #expect(timeline.events == [
            MarbleEvent(frame: 1, kind: .next("1")),
            MarbleEvent(frame: 3, kind: .next("2")),
            MarbleEvent(frame: 5, kind: .completed),
        ])
        #expect(timeline.terminalFrame == 5)
    }

    @Test func subscriptionLinesPackSpansThatDoNotOverlap() {
        var timeline = line("a", [(1, "1")])
        timeline.subscriptions = [FrameSpan(start: 0, end: 2), FrameSpan(start: 1, end: nil), FrameSpan(start: 3, end: 3), FrameSpan(start: 4, end: 5)]
        let lines = MarbleLayout.subscriptionLines(of: timeline, frameCount: 7)
        #expect(lines.count == 2)
        #expect(lines[0] == ["^", "-", "!", "(^!)", "^", "!", " "])
        #expect(lines[1] == ["-", "^", "-", "-", "-", "-", "-"])
    }

    @Test func subscriptionMarksWidenTheirFramesOnlyWhenShown() {
        var input = line("a", [(1, "1"), (4, "|")])
        input.subscriptions = [FrameSpan(start: 2, end: 2)]
        let diagram = OperatorDiagram(name: "n", summary: "s", inputs: [input], call: "c", output: line("", [(4, "|")]))
        #expect(MarbleLayout(diagram).columnWidths == [1, 1, 1, 1, 1, 1])
        #expect(MarbleLayout(diagram, subscriptions: true).columnWidths == [1, 1, 4, 1, 1, 1])
        let text = TextRenderer(showSubscriptions: true).render(diagram)
        #expect(text.contains("  a  -1-   -|\n     --(^!)\n"))
    }

    @Test func eventsAtOneFrameKeepTheirOrder() {
        let timeline = Timeline(name: "a", events: [
            MarbleEvent(frame: 3, kind: .next("b")),
            MarbleEvent(frame: 1, kind: .next("a")),
            MarbleEvent(frame: 3, kind: .next("c")),
        ])
        #expect(timeline.events.map(\.kind.symbol) == ["a", "b", "c"])
    }
}

@Suite struct TextRendererTests {
    let diagram = OperatorDiagram(
        name: "combineLatest", summary: "Combines the latest.",
        inputs: [line("a", [(1, "1"), (4, "2"), (8, "3"), (9, "|")]), line("b", [(2, "a"), (5, "b"), (6, "|")])],
        call: "combineLatest(a, b)",
        output: line("", [(2, "1a"), (4, "2a"), (5, "2b"), (8, "3b"), (9, "|")])
    )

    @Test func plainTextLinesUpTheStreamsAndBoxesTheCall() {
        let text = TextRenderer(style: .plain).render(diagram)
        let expected = """
        combineLatest  Combines the latest.
          a  -1--2---3|
          b  --a--b|
             ╭─────────────────────╮
             │ combineLatest(a, b) │
             ╰─────────────────────╯
             --c-de--f|
             c = 1a, d = 2a, e = 2b, f = 3b

        """
        #expect(text == expected)
        #expect(!text.contains("\u{1B}"))
    }

    @Test func ansiTextColoursButSaysTheSame() {
        let coloured = TextRenderer(style: .ansi).render(diagram)
        #expect(coloured.contains("\u{1B}["))
        #expect(stripANSI(coloured) == TextRenderer(style: .plain).render(diagram))
        // Errors are red.
        let failing = OperatorDiagram(name: "e", summary: "s", inputs: [], call: "c", output: line("", [(0, "#")]))
        #expect(TextRenderer(style: .ansi).render(failing).contains("\u{1B}[31;1m#"))
    }

    @Test func sameLabelSameColour() {
        #expect(MarblePalette.index(for: "ab") == MarblePalette.index(for: "ab"))
        #expect(MarblePalette.index(for: "1") != MarblePalette.index(for: "2"))
        #expect(MarblePalette.fills.contains(MarblePalette.fill(for: "zz")))
    }

    @Test func coldInputsAreMarked() {
        let cold = OperatorDiagram(name: "n", summary: "s", inputs: [line("xs", [(0, "1"), (1, "|")], cold: true)], call: "xs.op()", output: line("", [(1, "|")]))
        let text = TextRenderer().render(cold)
        #expect(text.contains("xs (cold)  1|"))
    }
}

@Suite struct OriginColourTests {
    func indices(_ name: String, _ texts: [String]? = nil) throws -> (inputs: [[Int]], output: [Int]) {
        let entry = try #require(Gallery.entry(named: name))
        let diagram = try texts.map { try entry.diagram(inputs: $0.map { try MarbleInputParser.parse($0) }) } ?? entry.diagram()
        let all = diagram.paletteIndices()
        return (Array(all.dropLast()), all.last ?? [])
    }

    @Test func aTransformedValueKeepsTheColourOfTheElementItCameFrom() throws {
        // map: 10, 20, 30 take the colours of 1, 2, 3 (the completion counts as 0).
        let map = try indices("map")
        #expect(map.output == map.inputs[0])
        #expect(Set(map.output.dropLast()).count == 3)
    }

    @Test func anUnchangedValueKeepsItsOwnColourWhenItComesLater() throws {
        // delay moves the elements; each keeps its colour.
        let delay = try indices("delay", ["-1-2-3|"])
        #expect(delay.output.dropLast() == delay.inputs[0].dropLast())
    }

    @Test func aCombinationTakesTheColourOfTheElementThatTriggeredIt() throws {
        let combined = try indices("combineLatest", ["-1--2|", "--a--|"])
        // Outputs 1a (at a's frame) and 2a (at 2's frame).
        #expect(combined.output.prefix(2) == [MarblePalette.index(for: "a"), MarblePalette.index(for: "2")])
    }

    @Test func theTextColoursOutputKeysByOrigin() throws {
        let entry = try #require(Gallery.entry(named: "map"))
        let text = TextRenderer(style: .ansi).render(entry.diagram())
        let one = "\u{1B}[\(MarblePalette.ansi[MarblePalette.index(for: "1")]);1m"
        #expect(text.contains(one + "1\u{1B}[0m"))
        #expect(text.contains(one + "a\u{1B}[0m"))
    }
}
