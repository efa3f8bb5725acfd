import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

/// `.next(210, 1), .next(230, 3), .completed(300)`, subscribed at 200.
private func recording() -> TestableObserver<Int> {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 3), .completed(300)])
    return scheduler.start { xs.asObservable() }
}

@Suite("Record mode")
struct RecordModeTests {
    @Test("record: true reports the events as marbles ready to paste, and fails")
    func recordMarbles() throws {
        let res = recording()
        var matched = true
        let line = #line + 2
        let failures = capturingFailures {
            matched = expectEvents(res, marbles: "^", values: [:], frame: 10, record: true)
        }
        #expect(failures.map(\.message) == ["""
            Recorded events (record mode is on, so this expectation did not compare and fails). Paste in place of the expected value:
              marbles: "^1-3------|", values: ["1": 1, "3": 3], frame: 10
              equal: [.next(210, 1), .next(230, 3), .completed(300)]
            then turn record mode off (record: true, the .recordMarbles trait or RIVULET_RECORD=1).
            """])
        #expect(failures.first?.line == line)
        #expect(matched == false)
        // What it printed is a passing expectation.
        #expect(expectEvents(res, marbles: "^1-3------|", values: ["1": 1, "3": 3], frame: 10))
        #expect(expectEvents(res, equal: [.next(210, 1), .next(230, 3), .completed(300)]))
    }

    @Test("a recording with an error and elements longer than one character")
    func recordWithErrorAndLongElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, "x"), .next(15, "long"), .error(20, testError)])
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 100) { xs.asObservable() }
        let failures = capturingFailures {
            expectEvents(res, marbles: "", values: [:], origin: 0, record: true)
        }
        #expect(failures.map(\.message) == ["""
            Recorded events (record mode is on, so this expectation did not compare and fails). Paste in place of the expected value:
              marbles: "-a-b#", values: ["a": "x", "b": "long"], errors: ["#": <\(testError)>], frame: 5
              equal: [.next(5, "x"), .next(15, "long"), .error(20, <\(testError)>)]
            then turn record mode off (record: true, the .recordMarbles trait or RIVULET_RECORD=1).
            """])
        #expect(expectEvents(res, marbles: "-a-b#", values: ["a": "x", "b": "long"], errors: ["#": testError], frame: 5))
    }

    @Test("a recording whose first column is an event names its origin")
    func recordWithExplicitOrigin() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(0, 7), .completed(10)])
        let res = scheduler.start { xs.asObservable() }
        let failures = capturingFailures {
            expectEvents(res, marbles: "^", values: [:], frame: 10, record: true)
        }
        #expect(failures.map(\.message) == ["""
            Recorded events (record mode is on, so this expectation did not compare and fails). Paste in place of the expected value:
              marbles: "7|", values: ["7": 7], frame: 10, origin: 200
              equal: [.next(200, 7), .completed(210)]
            then turn record mode off (record: true, the .recordMarbles trait or RIVULET_RECORD=1).
            """])
        #expect(expectEvents(res, marbles: "7|", values: ["7": 7], frame: 10, origin: 200))
    }

    @Test("the tempo example of the RecordMode article records what the article shows")
    func tempoArticleExample() {
        let scheduler = TestScheduler(initialClock: 0)
        let tempoText = scheduler.createColdObservable([
            .next(0, "120 BPM"), .next(10, "75 BPM"), .next(15, "90 BPM"), .next(20, "180 BPM"), .next(25, "60 BPM"),
        ])
        let tempo = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { tempoText.asObservable() }
        let failures = capturingFailures {
            expectEvents(tempo, marbles: "", values: [:], frame: 5, record: true)
        }
        #expect(failures.map(\.message) == ["""
            Recorded events (record mode is on, so this expectation did not compare and fails). Paste in place of the expected value:
              marbles: "a-bcde", values: ["a": "120 BPM", "b": "75 BPM", "c": "90 BPM", "d": "180 BPM", "e": "60 BPM"], frame: 5
              equal: [.next(0, "120 BPM"), .next(10, "75 BPM"), .next(15, "90 BPM"), .next(20, "180 BPM"), .next(25, "60 BPM")]
            then turn record mode off (record: true, the .recordMarbles trait or RIVULET_RECORD=1).
            """])
        #expect(expectEvents(
            tempo, marbles: "a-bcde",
            values: ["a": "120 BPM", "b": "75 BPM", "c": "90 BPM", "d": "180 BPM", "e": "60 BPM"],
            frame: 5
        ))
    }

    @Test("the .recordMarbles trait turns every expectation of the test into a recording", .recordMarbles)
    func recordTrait() {
        #expect(RecordMode.isOn)
        let res = recording()
        let failures = capturingFailures {
            // Equal events, but a recording never passes.
            expectEvents(res, equal: [.next(210, 1), .next(230, 3), .completed(300)])
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("Recorded events (record mode is on") == true)
        #expect(failures.first?.message.contains("equal: [.next(210, 1), .next(230, 3), .completed(300)]") == true)
    }

    @Test("record mode is off unless asked for")
    func offByDefault() {
        #expect(ProcessInfo.processInfo.environment["RIVULET_RECORD"] != nil || !RecordMode.isOn)
        let res = recording()
        #expect(expectEvents(res, equal: [.next(210, 1), .next(230, 3), .completed(300)]))
        RecordMode.recording {
            #expect(RecordMode.isOn)
        }
    }
}
