import Foundation
import RxLanes
import Testing
@testable import RxMarblesKit

/// A recording written shortly: lane names, thread names, and entries as
/// (milliseconds, lane, subscription, thread, kind).
func laneRecording(
    lanes: [String], dropped: [String: Int] = [:], threads: [String] = ["main"],
    _ entries: [(ms: Double, lane: Int, subscription: Int, thread: Int, kind: LaneRecording.Kind)]
) -> LaneRecording {
    LaneRecording(
        lanes: lanes.map { LaneRecording.Lane(name: $0, elementType: "String", capacity: 10, dropped: dropped[$0] ?? 0) },
        threads: threads,
        entries: entries.map { LaneRecording.Entry(time: UInt64($0.ms * 1_000_000), lane: $0.lane, subscription: $0.subscription, thread: $0.thread, kind: $0.kind) }
    )
}

/// Every kind of entry: a completion, a failure, a disposal, and a subscription whose
/// `subscribed` entry the ring dropped.
let everyKind = laneRecording(lanes: ["a", "b", "c", "d"], dropped: ["d": 2], [
    (0, 0, 1, 0, .subscribed), (0, 1, 1, 0, .subscribed), (0, 2, 1, 0, .subscribed),
    (10, 0, 1, 0, .next("1")), (10, 1, 1, 0, .next("x")), (10, 3, 1, 0, .next("7")),
    (20, 0, 1, 0, .completed), (20, 3, 1, 0, .next("8")),
    (30, 1, 1, 0, .error("Boom")),
    (40, 2, 1, 0, .disposed),
])

@Suite struct LaneDiagramTests {
    @Test func everyEventKindIsDrawnInText() {
        let diagram = LaneDiagram(everyKind)
        #expect(diagram.frameDuration == 5_000_000)
        #expect(LaneTextRenderer().render(diagram) == """
            4 lanes, 4 subscriptions, 10 events over 40 ms (0 to 40 ms); one column = 5 ms
            d: 2 older events dropped (the lane keeps 10)
              a     ^-1-|
              b     ^-x---#
              c     ^-------!
              d     <-7-8----
              time  0
              failures: b # Boom
              marks: ^ subscribed, | completed, # failed, ! disposed, < subscribed before the oldest event kept

            """)
    }

    @Test func rowsFollowTheLanesAndTheirSubscriptions() {
        let recording = laneRecording(lanes: ["email", "enabled"], [
            (0, 1, 1, 0, .subscribed), (1, 0, 1, 0, .subscribed), (2, 1, 2, 0, .subscribed), (3, 1, 1, 0, .disposed), (4, 1, 2, 0, .next("t")),
        ])
        let diagram = LaneDiagram(recording)
        #expect(diagram.rows.map(\.name) == ["email", "enabled", "enabled #2"])
        #expect(diagram.rows.map(\.subscription) == [1, 1, 2])
        #expect(diagram.rows[1].end == .disposed)
        #expect(diagram.rows[2].end == nil)
        #expect(diagram.rows.map(\.startedEarlier) == [false, false, false])
    }

    @Test func eventsOfOneFrameAreGroupedAndTheOtherRowsPadded() {
        let recording = laneRecording(lanes: ["a", "b"], [
            (0, 0, 1, 0, .subscribed), (0, 1, 1, 0, .subscribed),
            (10, 0, 1, 0, .next("1")), (10.001, 0, 1, 0, .next("2")), (10.002, 0, 1, 0, .completed),
            (20, 1, 1, 0, .next("3")), (40, 1, 1, 0, .next("4")),
        ])
        let lines = LaneTextRenderer().diagramLines(LaneDiagram(recording))
        // The group is one frame, as wide as it needs; the other rows' lines fill it.
        #expect(lines[0] == "  a     ^(12|)")
        #expect(lines[1] == "  b     ^-----3-4")
    }

    @Test func anIdleStretchIsOneGapColumnWithItsLengthOnTheRuler() {
        let recording = laneRecording(lanes: ["a"], [
            (0, 0, 1, 0, .subscribed), (100, 0, 1, 0, .next("1")), (200, 0, 1, 0, .next("2")),
            (9_000, 0, 1, 0, .next("3")), (9_100, 0, 1, 0, .completed),
        ])
        let diagram = LaneDiagram(recording)
        #expect(diagram.columns.filter(\.isGap).count == 1)
        #expect(diagram.heading().hasSuffix("1 idle stretch left out"))
        let lines = LaneTextRenderer().diagramLines(diagram)
        #expect(diagram.frameDuration == 50_000_000)
        #expect(lines == [
            "  a     ^-1-2≈3-|",
            "  time  0    ≈8.75 s",
        ])
        let ascii = LaneTextRenderer(asciiOnly: true).diagramLines(diagram)
        #expect(ascii == ["  a     ^-1-2~3-|", "  time  0    ~8.75 s"])
        // The gap's length is the stretch of empty frames left out.
        #expect(diagram.columns[5] == .gap(from: 5, count: 175))
        #expect(diagram.rulerLabels.map(\.kind) == [.start, .gap, .resume])
    }

    @Test func theFrameDurationKeepsALongRecordingWithinTheBudget() {
        // 400 values at irregular times over 3 minutes, with two idle stretches.
        var entries: [(ms: Double, lane: Int, subscription: Int, thread: Int, kind: LaneRecording.Kind)] = [(0, 0, 1, 0, .subscribed)]
        var time = 0.0
        for index in 0..<400 {
            time += Double(37 + (index * 7919) % 400)
            if index == 150 || index == 300 { time += 60_000 }
            entries.append((time, index % 3, 1, 0, .next("\(index % 10)")))
        }
        let diagram = LaneDiagram(laneRecording(lanes: ["a", "b", "c"], entries))
        #expect(diagram.columns.count <= LaneDiagram.columnBudget)
        #expect(LaneDiagram.frameDurations.contains(diagram.frameDuration))
        #expect(diagram.columns.filter(\.isGap).count >= 2)
        // Every entry is drawn exactly once.
        let drawn = diagram.rows.flatMap { $0.cells.flatMap(\.marks) }.compactMap(\.entry)
        #expect(drawn.count == entries.count)
    }

    @Test func entriesOutOfTimeOrderAreDrawnInTimeOrder() {
        var shuffled = everyKind
        shuffled.entries.reverse()
        #expect(LaneTextRenderer().diagramLines(LaneDiagram(shuffled)) == LaneTextRenderer().diagramLines(LaneDiagram(everyKind)))
    }

    @Test func theLadderRunsFromAMicrosecondToTenSeconds() {
        #expect(LaneDiagram.frameDurations.first == 1_000)
        #expect(LaneDiagram.frameDurations.last == 10_000_000_000)
        #expect(LaneDiagram.frameDurations.prefix(4) == [1_000, 2_000, 5_000, 10_000])
    }

    @Test func durationsAreWrittenInTheUnitThatSuitsThem() {
        #expect(LaneDiagram.format(0) == "0")
        #expect(LaneDiagram.format(850) == "850 ns")
        #expect(LaneDiagram.format(12_500) == "12.5 µs")
        #expect(LaneDiagram.format(12_500, ascii: true) == "12.5 us")
        #expect(LaneDiagram.format(250_000_000) == "250 ms")
        #expect(LaneDiagram.format(999_700_000) == "1 s")
        #expect(LaneDiagram.format(1_250_000_000) == "1.25 s")
        #expect(LaneDiagram.format(125_000_000_000) == "2 min 5 s")
        #expect(LaneDiagram.format(3_720_000_000_000) == "1 h 2 min")
    }

    @Test func longValuesGetKeysAndTheLegendShortensThem() {
        let long = "SignInResponse(token: \"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\")"
        let recording = laneRecording(lanes: ["v"], [
            (0, 0, 1, 0, .subscribed), (1, 0, 1, 0, .next("a")), (2, 0, 1, 0, .next("alice")), (3, 0, 1, 0, .next(long)),
            (4, 0, 1, 0, .next("<")), (5, 0, 1, 0, .next("")), (6, 0, 1, 0, .next("alice")),
        ])
        let diagram = LaneDiagram(recording)
        // `a` stands for itself, so the keys start at `b`; `<` is a mark, so it gets one.
        #expect(diagram.keys.legend.map(\.key) == ["b", "c", "d", "e"])
        #expect(diagram.keys.key(for: "alice") == "b")
        #expect(diagram.keys.key(for: "<") == "d")
        let text = LaneTextRenderer().render(diagram)
        #expect(text.contains("  v     ^-a-b-c-d-e-b\n"))
        #expect(text.contains("values: b = alice, c = SignInResponse(token: \"eyJhbGciOiJIUzI1…, d = <, e = \"\" (empty)"))
        #expect(LaneTextRenderer(asciiOnly: true).render(diagram).contains("c = SignInResponse(token: \"eyJhbGciOiJIUz..., "))
    }

    @Test func valuesBeyondTheKeysShareOne() {
        let values = (0..<200).map { "value \($0)" }
        let recording = laneRecording(lanes: ["v"], [(0, 0, 1, 0, .subscribed)] + values.enumerated().map { (Double($0.offset + 1), 0, 1, 0, .next($0.element)) })
        let keys = LaneDiagram(recording).keys
        #expect(keys.legend.count + keys.overflowCount == 200)
        #expect(keys.key(for: "value 199") == LaneKeys.overflowKey)
        #expect(LaneTextRenderer().render(LaneDiagram(recording)).contains("* = any of \(keys.overflowCount) more values"))
    }

    @Test func oneThreadGetsNoThreadLine() {
        let text = LaneTextRenderer().render(LaneDiagram(everyKind))
        #expect(!text.contains("threads:"))
        #expect(LaneTextRenderer().diagramLines(LaneDiagram(everyKind)).count == 5)
    }

    @Test func aThreadChangeIsShownUnderTheLane() {
        let recording = laneRecording(lanes: ["signIn", "email"], threads: ["main", "com.example.network"], [
            (0, 0, 1, 0, .subscribed), (0, 1, 1, 0, .subscribed), (10, 1, 1, 0, .next("1")),
            (20, 0, 1, 1, .next("r")), (30, 0, 1, 1, .completed),
        ])
        let diagram = LaneDiagram(recording)
        #expect(diagram.showsThreads)
        let lines = LaneTextRenderer().diagramLines(diagram)
        #expect(lines == [
            "  signIn  ^---r-|",
            "          1   2",
            "  email   ^-1----",
            "          1",
            "  time    0",
        ])
        let legend = LaneTextRenderer().legendLines(diagram).joined(separator: "\n")
        #expect(legend.contains("threads: 1 = main, 2 = com.example.network\n           under a lane: the thread of its first event, then wherever it changes"))
        // In colour, the change is bold.
        let coloured = LaneTextRenderer(style: .ansi).diagramLines(diagram)
        #expect(coloured[1].contains("\u{1B}[1m2\u{1B}[0m"))
    }

    @Test func threadNumbersOfNeighbouringColumnsStayApart() {
        // Values every 200 ms make one column 100 ms; the failure comes 150 ms after its
        // subscription, in the next column, on another thread.
        let recording = laneRecording(lanes: ["typing", "signIn"], threads: ["main", "network"], [
            (0, 0, 1, 0, .subscribed), (200, 0, 1, 0, .next("1")), (400, 0, 1, 0, .next("2")), (600, 0, 1, 0, .next("3")),
            (800, 0, 1, 0, .next("4")), (1_000, 0, 1, 0, .next("5")), (1_200, 1, 1, 0, .subscribed), (1_350, 1, 1, 1, .error("offline")),
        ])
        let diagram = LaneDiagram(recording)
        #expect(diagram.frameDuration == 100_000_000)
        let lines = LaneTextRenderer().diagramLines(diagram)
        // The subscription's column widens so that the thread numbers do not read as 12.
        #expect(lines[2] == "  signIn              ^-#")
        #expect(lines[3] == "                      1 2")
    }

    @Test func anEmptyRecordingDrawsAnEmptyDiagram() {
        #expect(LaneTextRenderer().render(LaneDiagram(LaneRecording())) == "No events recorded.\n")
        let lanesOnly = LaneRecording(lanes: [.init(name: "email", elementType: "String", capacity: 10)])
        #expect(LaneTextRenderer().render(LaneDiagram(lanesOnly)) == "No events recorded (lanes: email).\n")
    }

    @Test func coloursOnlyWithTheANSIStyle() {
        let diagram = LaneDiagram(everyKind)
        #expect(!LaneTextRenderer().render(diagram).contains("\u{1B}["))
        let coloured = LaneTextRenderer(style: .ansi).render(diagram)
        #expect(coloured.contains("\u{1B}[31;1m#\u{1B}[0m"))
        // Without the escapes it is the plain drawing.
        let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == LaneTextRenderer().render(diagram))
    }
}
