import Foundation
import RxSwift
import RxTest
import Testing

/// The failure text of the recording in `FailureOutputTests.recording`.
let rangeMismatchMessage = """
    Recorded events differ at index 1: expected next(2) @ 220, got next(3) @ 230
    expected: ---------------------12-------|
    actual:   ---------------------1-3------|
                                    ^ first difference (time 220)
    one column = 10 ticks, first column = time 0
    expected events (3): [next(1) @ 210, next(2) @ 220, completed @ 300]
    actual events (3):   [next(1) @ 210, next(3) @ 230, completed @ 300]
    """

@Suite("Failure output", .rxLeakCheck)
struct FailureOutputTests {
    /// Records `.next(210, 1), .next(230, 3), .completed(300)`.
    static func recording() -> (TestScheduler, TestableObservable<Int>, TestableObserver<Int>) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.asObservable() }
        return (scheduler, xs, res)
    }

    @Test("the message draws aligned timelines, marks the first difference and lists both")
    func message() {
        let (_, _, res) = Self.recording()
        let expected: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .completed(300)]
        #expect(recordedEventsMismatchMessage(res.events, expected) == rangeMismatchMessage)
    }

    @Test("a missing event and a legend")
    func missingEventWithLegend() {
        let actual: [Recorded<Event<String>>] = [.next(10, "one"), .next(20, "two")]
        let expected: [Recorded<Event<String>>] = [.next(10, "one"), .next(20, "two"), .completed(30)]
        #expect(recordedEventsMismatchMessage(actual, expected) == """
            Recorded events differ at index 2: expected completed @ 30, got nothing
            expected: -ab|
            actual:   -ab-
                         ^ first difference (time 30)
            one column = 10 ticks, first column = time 0
            legend: a = one, b = two
            expected events (3): [next(one) @ 10, next(two) @ 20, completed @ 30]
            actual events (2):   [next(one) @ 10, next(two) @ 20]
            """)
    }

    @Test("a group widens its column in both lines")
    func groupAlignment() {
        let actual: [Recorded<Event<String>>] = [.next(1, "a"), .next(1, "b"), .next(2, "x")]
        let expected: [Recorded<Event<String>>] = [.next(1, "a"), .next(2, "c")]
        #expect(recordedEventsMismatchMessage(actual, expected) == """
            Recorded events differ at index 1: expected next(c) @ 2, got next(b) @ 1
            expected: -a   c
            actual:   -(ab)x
                       ^ first difference (time 1)
            one column = 1 tick, first column = time 0
            expected events (2): [next(a) @ 1, next(c) @ 2]
            actual events (3):   [next(a) @ 1, next(b) @ 1, next(x) @ 2]
            """)
    }

    @Test("expectEvents(_:equal:) records the message at the caller's line")
    func expectEventsEqual() {
        let (_, _, res) = Self.recording()
        var matched = true
        let line = #line + 2
        let failures = capturingFailures {
            matched = expectEvents(res, equal: [.next(210, 1), .next(220, 2), .completed(300)])
        }
        #expect(failures.map(\.message) == [rangeMismatchMessage])
        #expect(failures.first?.line == line)
        #expect(failures.first?.fileName == "FailureOutputTests.swift")
        #expect(matched == false)
        #expect(expectEvents(res, equal: [.next(210, 1), .next(230, 3), .completed(300)]))
        #expect(expectEvents(res.events, equal: res.events))
    }

    @Test("expectEvents(_:marbles:) compares with a diagram")
    func expectEventsMarbles() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try! scheduler.createHotObservable("-a-^-b-c-|", values: ["a": 1, "b": 2, "c": 3], frame: 10)
        let res = scheduler.start { xs.map { $0 * 10 } }
        #expect(expectEvents(res, marbles: "   ^-B-C-|", values: ["B": 20, "C": 30], frame: 10))
        #expect(expectSubscriptions(xs, marbles: "   ^-----!", frame: 10))
        #expect(expectSubscriptions(xs, equal: [Subscription(200, 260)]))

        // The failure draws the diagram as written, from its '^', with its keys.
        let line = #line + 2
        let failures = capturingFailures {
            expectEvents(res, marbles: "   ^-B--C|", values: ["B": 20, "C": 30], frame: 10)
        }
        #expect(failures.map(\.message) == ["""
            Recorded events differ at index 1: expected next(30) @ 250, got next(30) @ 240
            expected: ^-B--C|
            actual:   ^-B-C-|
                          ^ first difference (time 240)
            one column = 10 ticks, '^' = time 200
            legend: B = 20, C = 30
            expected events (3): [next(20) @ 220, next(30) @ 250, completed @ 260]
            actual events (3):   [next(20) @ 220, next(30) @ 240, completed @ 260]
            """])
        #expect(failures.first?.line == line)
        #expect(failures.first?.destination == .swiftTesting)
    }

    @Test("a String observer's keys are their own values")
    func expectStringMarbles() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createColdObservable("-a-b-|", frame: 10)
        let res = scheduler.start { xs.asObservable() }
        #expect(expectEvents(res, marbles: "---------------------a-b-|", frame: 10))
    }

    @Test("malformed expected marbles are reported, not crashed on")
    func malformedExpectation() {
        let (scheduler, _, res) = Self.recording()
        let failures = capturingFailures {
            let matched = expectEvents(res, marbles: "--a-(b-|", values: ["a": 1, "b": 2])
            #expect(!matched)
            expectSubscriptions(scheduler.createHotObservable([Recorded<Event<Int>>]()), marbles: "^-x")
        }
        #expect(failures.map(\.message) == [
            "Invalid expected marbles: unbalanced '(' at position 4 in \"--a-(b-|\": the group is never closed",
            "Invalid subscription marbles: unexpected 'x' at position 2 in \"^-x\": subscription marbles hold only '-', '^', '!', groups, spaces and time progressions",
        ])
    }

    @Test("subscription mismatches draw both as subscription marbles")
    func subscriptionMismatch() {
        let (_, xs, _) = Self.recording()
        let line = #line + 2
        let failures = capturingFailures {
            expectSubscriptions(xs, marbles: "^-----!", frame: 10)
        }
        #expect(failures.map(\.message) == ["""
            Subscriptions differ: expected [(200: 260)], got [(200: 300)]
            expected: ----------^--!
            actual:   ----------^----!
            one column = 20 ticks, first column = time 0
            """])
        #expect(failures.first?.line == line)
    }

    @Test("XCTest's assertions report as issues inside Swift Testing tests")
    func xctestAssertionInSwiftTesting() {
        let (_, _, res) = Self.recording()
        let line = #line + 2
        let failures = capturingFailures {
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(300)])
        }
        #expect(failures.map(\.message) == [rangeMismatchMessage])
        #expect(failures.first?.destination == .swiftTesting)
        #expect(failures.first?.line == line)
        #expect(failures.first?.fileName == "FailureOutputTests.swift")
    }

    @Test("tests failing in parallel each get their own failure", arguments: 0..<32)
    func parallelFailures(value: Int) async {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, value), .completed(20)])
        let res = scheduler.start { xs.asObservable() }
        await Task.yield()
        let failures = capturingFailures {
            expectEvents(res, equal: [.next(210, value + 1), .completed(220)])
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("Recorded events differ at index 0: expected next(\(value + 1)) @ 210, got next(\(value)) @ 210\n") == true)
        #expect(expectEvents(res, equal: [.next(210, value), .completed(220)]))
    }
}

@Suite("Failure output: long timelines", .rxLeakCheck)
struct LongTimelineFailureOutputTests {
    @Test("a long empty start is skipped: the first column is the first event's time")
    func skipsLongEmptyStart() {
        let actual: [Recorded<Event<Int>>] = [.next(1001, 1), .next(1003, 2)]
        let expected: [Recorded<Event<Int>>] = [.next(1001, 1), .next(1002, 2)]
        #expect(recordedEventsMismatchMessage(actual, expected) == """
            Recorded events differ at index 1: expected next(2) @ 1002, got next(2) @ 1003
            expected: 12-
            actual:   1-2
                       ^ first difference (time 1002)
            one column = 1 tick, first column = time 1001
            expected events (2): [next(1) @ 1001, next(2) @ 1002]
            actual events (2):   [next(1) @ 1001, next(2) @ 1003]
            """)
        #expect(subscriptionsMismatchMessage([Subscription(501, 503)], [Subscription(501, 502)]) == """
            Subscriptions differ: expected [(501: 502)], got [(501: 503)]
            expected: ^!
            actual:   ^-!
            one column = 1 tick, first column = time 501
            """)
    }
}
