import RxLanes
import Testing

@Suite struct LaneFileTests {
    private let everyKind = LaneRecording(
        lanes: [
            .init(name: "email", elementType: "String", capacity: 10_000, dropped: 2),
            .init(name: "a \"quoted\" lane", elementType: "Optional<Int>", capacity: 5),
        ],
        threads: ["main", "com.example.network"],
        entries: [
            .init(time: 0, lane: 0, subscription: 1, thread: 0, kind: .subscribed),
            .init(time: 1_000, lane: 0, subscription: 1, thread: 1, kind: .next("a \"b\" \\ c\nd\te\u{1}é😀")),
            .init(time: 1_000, lane: 1, subscription: 1, thread: 1, kind: .subscribed),
            .init(time: 2_500, lane: 1, subscription: 1, thread: 1, kind: .error("Failed(\"x\")")),
            .init(time: 3_000, lane: 0, subscription: 2, thread: 0, kind: .subscribed),
            .init(time: 3_000, lane: 0, subscription: 2, thread: 0, kind: .completed),
            .init(time: 9_000_000_000, lane: 0, subscription: 1, thread: 0, kind: .disposed),
        ]
    )

    @Test func everyKindSurvivesTheRoundTrip() throws {
        let text = everyKind.fileText
        #expect(text.hasPrefix("rivulet-lanes 1\n"))
        #expect(text.hasSuffix("end 7\n"))
        #expect(try LaneRecording(fileText: text) == everyKind)
    }

    @Test func aRecordersSnapshotSurvivesTheRoundTrip() throws {
        let recording = LaneRecording(lanes: [.init(name: "x", elementType: "Int", capacity: 1)], threads: ["main"], entries: [])
        #expect(try LaneRecording(fileText: recording.fileText) == recording)
    }

    @Test func anEmptyFileIsAnEmptyRecording() throws {
        #expect(try LaneRecording(fileText: "") == LaneRecording())
        #expect(try LaneRecording(fileText: "\n# nothing yet\n\n") == LaneRecording())
        #expect(try LaneRecording(fileText: LaneRecording().fileText) == LaneRecording())
    }

    @Test func windowsLineEndsAreRead() throws {
        let text = everyKind.fileText.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try LaneRecording(fileText: text) == everyKind)
    }

    private func error(reading text: String) -> LaneFileError? {
        do {
            _ = try LaneRecording(fileText: text)
            return nil
        } catch let error as LaneFileError {
            return error
        } catch {
            return nil
        }
    }

    @Test func aCutShortFileSaysSoAtItsLastLine() {
        var lines = everyKind.fileText.split(separator: "\n").map(String.init)
        lines.removeLast()
        let error = error(reading: lines.joined(separator: "\n") + "\n\n")
        #expect(error?.line == lines.count)
        #expect(error?.description == "line \(lines.count): the file ends without its 'end' line: it is cut short (7 events read)")
    }

    @Test func aLineCutInsideAQuotedTextNamesItsColumn() {
        let text = "rivulet-lanes 1\nlane 0 \"email\" \"Str"
        #expect(error(reading: text)?.description == "line 2, column 16: the quoted text that starts here is not closed: the line ends first")
    }

    @Test(arguments: [
        ("hello", "line 1: not a lanes file: the first line must be 'rivulet-lanes 1', found 'hello'"),
        ("rivulet-lanes 2", "line 1: this file is version 2 of the lanes format; this version of Rivulet reads version 1"),
        ("rivulet-lanes 1\nlane 1 \"a\" \"Int\" 5 0", "line 2, column 6: lane 1 is out of order: the next lane must be 0"),
        ("rivulet-lanes 1\nlane 0 a \"Int\" 5 0", "line 2, column 8: expected the lane's name in double quotes, found 'a'"),
        ("rivulet-lanes 1\nlane 0 \"a\" \"Int\" five 0", "line 2, column 18: expected the ring's capacity, a whole number from 0, found 'five'"),
        ("rivulet-lanes 1\nthread 0 \"main\" extra", "line 2, column 17: unexpected 'extra' after 'thread INDEX \"NAME\"'"),
        ("rivulet-lanes 1\nevent 0 0 1 0 subscribed", "line 2, column 9: lane 0 is not declared (0 lanes are)"),
        ("rivulet-lanes 1\nlane 0 \"a\" \"Int\" 5 0\nthread 0 \"main\"\nevent 0 0 1 0 blinked", "line 4, column 15: unknown event kind 'blinked': expected subscribed, next, error, completed or disposed"),
        ("rivulet-lanes 1\nlane 0 \"a\" \"Int\" 5 0\nthread 0 \"main\"\nevent 0 0 1 0 next", "line 4: the line ends early: expected 'event TIME LANE SUBSCRIPTION THREAD next \"TEXT\"'"),
        ("rivulet-lanes 1\nlane 0 \"a\" \"Int\" 5 0\nthread 0 \"main\"\nevent 9 0 1 0 subscribed\nevent 5 0 1 0 completed", "line 5, column 7: time 5 is earlier than the event before it (line 4, time 9): events are in the order recorded"),
        ("rivulet-lanes 1\nlane 0 \"a\" \"Int\" 5 0\nthread 0 \"main\"\nevent 0 0 0 0 subscribed", "line 4, column 11: subscriptions are counted from 1, found 0"),
        ("rivulet-lanes 1\nlane 0 \"a\" \"Int\" 5 0\nevent 0 0 1 0 subscribed", "line 3, column 13: thread 0 is not declared (0 threads are)"),
        ("rivulet-lanes 1\nend 3", "line 2: the 'end' line counts 3 events, but the file has 0"),
        ("rivulet-lanes 1\nend 0\nlane 0 \"a\" \"Int\" 5 0", "line 3: nothing may follow the 'end' line (line 2)"),
        ("rivulet-lanes 1\nlanes 0", "line 2, column 1: unknown line kind 'lanes': expected lane, thread, event or end"),
        ("rivulet-lanes 1\nthread 0 \"a\\qb\"", "line 2, column 12: unknown escape '\\q' in a quoted text (known: \\\" \\\\ \\n \\r \\t \\u{…})"),
        ("rivulet-lanes 1\nevent 1 2", "line 2: the event line ends early: expected 'event TIME LANE SUBSCRIPTION THREAD KIND [\"VALUE\"]'"),
    ])
    func aMalformedLineIsNamedWithWhatIsWrong(text: String, expected: String) {
        #expect(error(reading: text)?.description == expected)
    }
}
