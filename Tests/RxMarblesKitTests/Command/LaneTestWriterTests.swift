import RxLanes
@testable import RxMarblesKit
import Testing

@Suite struct LaneTestWriterTests {
    /// Lanes `a` (Int) and `b` (String) feed `sum` (Int): `a` sends 1 at 5 ms, `b` sends
    /// "x" at 12 ms, `a` sends 2 at 12.4 ms: at 1 ms the last two would share a tick.
    private func recording(answerDelay: UInt64 = 10_000, outputType: String = "Int") -> LaneRecording {
        LaneRecording(
            lanes: [
                .init(name: "sum", elementType: outputType, capacity: 100),
                .init(name: "a", elementType: "Int", capacity: 100),
                .init(name: "b", elementType: "String", capacity: 100),
            ],
            threads: ["main", "com.example.input"],
            entries: [
                .init(time: 1_000, lane: 0, subscription: 1, thread: 0, kind: .subscribed),
                .init(time: 2_000, lane: 1, subscription: 1, thread: 0, kind: .subscribed),
                .init(time: 3_000, lane: 2, subscription: 1, thread: 0, kind: .subscribed),
                .init(time: 5_001_000, lane: 1, subscription: 1, thread: 1, kind: .next("1")),
                .init(time: 5_001_000 + answerDelay, lane: 0, subscription: 1, thread: 1, kind: .next("1")),
                .init(time: 12_001_000, lane: 2, subscription: 1, thread: 1, kind: .next("x \"quoted\"")),
                .init(time: 12_401_000, lane: 1, subscription: 1, thread: 1, kind: .next("2")),
                .init(time: 12_402_000, lane: 0, subscription: 1, thread: 1, kind: .next("3")),
                .init(time: 12_500_000, lane: 1, subscription: 1, thread: 1, kind: .completed),
                .init(time: 12_501_000, lane: 0, subscription: 1, thread: 1, kind: .completed),
            ]
        )
    }

    @Test func writesHotInputsAtTheCoarsestOrderKeepingTickAndTheOutputAtItsInputsTimes() throws {
        let test = try LaneTestWriter(style: .xctest).write(recording(), inputs: ["a", "b"], output: "sum", file: "sum.lanes")
        #expect(test.contains("// One tick is 100 µs of the recording"))
        #expect(test.contains("""
                let a = scheduler.createHotObservable([
                    .next(250, 1),
                    .next(324, 2),
                    .completed(324),
                ])
        """))
        #expect(test.contains("""
                let b = scheduler.createHotObservable([
                    .next(320, "x \\"quoted\\""),
                ])
        """))
        #expect(test.contains("let observer = scheduler.start(created: 100, subscribed: 200, disposed: 424) { () -> Observable<Int> in"))
        #expect(test.contains("    // \(LaneTestWriter.pipelineMarker) (from a.asObservable(), b.asObservable()):"))
        #expect(test.contains("""
                XCTAssertEqual(observer.events, [
                    .next(250, 1),
                    .next(324, 3),
                    .completed(324),
                ])
        """))
        #expect(!test.contains("// Note:"))
        #expect(test.contains("import XCTest"))
    }

    @Test func swiftTestingExpects() throws {
        let test = try LaneTestWriter(style: .swiftTesting).write(recording(), inputs: ["a", "b"], output: "sum")
        #expect(test.contains("import Testing"))
        #expect(test.contains("@Test func recordedSum() {"))
        #expect(test.contains("#expect(observer.events == ["))
    }

    @Test func anAnswerLongAfterItsInputIsFlaggedAsATimer() throws {
        let test = try LaneTestWriter(style: .xctest).write(recording(answerDelay: 3_000_000), inputs: ["a", "b"], output: "sum")
        #expect(test.contains("// Note: sum's events at 280 came more than 1 ms after the input before them: the pipeline probably waits on a timer"))
        #expect(test.contains(".next(280, 1),"))
    }

    @Test func anOutputOfAnotherTypeIsComparedByDescription() throws {
        let test = try LaneTestWriter(style: .xctest).write(recording(outputType: "Total"), inputs: ["a", "b"], output: "sum")
        #expect(test.contains("// Note: sum's events are compared by their descriptions"))
        #expect(test.contains("XCTAssertEqual(described, ["))
        #expect(test.contains("\"250 next 1\","))
        #expect(test.contains("\"324 completed\","))
    }

    @Test func unknownLanesAndAMissingSubscriptionAreRefused() {
        #expect(throws: LaneTestWriter.Failure(description: "the recording has no lane named 'c' (its lanes: sum, a, b)")) {
            try LaneTestWriter(style: .xctest).write(recording(), inputs: ["c"], output: "sum")
        }
        #expect(throws: LaneTestWriter.Failure(description: "lane 'a' cannot be both an input and the output")) {
            try LaneTestWriter(style: .xctest).write(recording(), inputs: ["a"], output: "a")
        }
        var cut = recording()
        cut.entries.removeFirst()
        cut.lanes[0].dropped = 1
        #expect(throws: LaneTestWriter.Failure(description: "the output lane 'sum' no longer holds its subscription (its ring dropped 1 entries): record with a larger capacity")) {
            try LaneTestWriter(style: .xctest).write(cut, inputs: ["a"], output: "sum")
        }
    }

    @Test func identifiersAvoidTheTestsOwnNames() {
        #expect(LaneTestWriter.identifier("sign-in tap") == "signInTap")
        #expect(LaneTestWriter.identifier("observer") == "observerInput")
        #expect(LaneTestWriter.identifier("2fa") == "lane2fa")
    }
}
