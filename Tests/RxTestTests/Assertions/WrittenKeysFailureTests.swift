import RxSwift
import RxTest
import Testing

/// A failure comparing events with an expectation written as marbles draws both timelines
/// with the keys the test wrote.
@Suite("Failure output: the keys the test wrote", .rxLeakCheck)
struct WrittenKeysFailureTests {
    @Test("RxSwift's timelines: the expected line is the test's text, the actual one uses its keys")
    func rxSwiftTimeline() {
        let scheduler = TestScheduler(initialClock: 0)
        let expected = scheduler.parseEventsAndTimes(timeline: "---e1----e2-----", values: ["e1": "a@b", "e2": "c@d"]).first!
        let actual: [Recorded<Event<String>>] = [.next(3, "a@b"), .next(7, "c@d"), .next(12, "zz")]
        #expect(recordedEventsMismatchMessage(actual, expected) == """
            Recorded events differ at index 1: expected next(c@d) @ 9, got next(c@d) @ 7
            expected: ---e1----e2--
            actual:   ---e1--e2---a
                             ^ first difference (time 7)
            one column = 1 tick, first column = time 0
            legend: e1 = a@b, e2 = c@d, a = zz
            expected events (2): [next(a@b) @ 3, next(c@d) @ 9]
            actual events (3):   [next(a@b) @ 3, next(c@d) @ 7, next(zz) @ 12]
            """)
    }

    @Test("a value the expected timeline never shows still gets its key from the test's values")
    func keyFromTheValues() {
        let scheduler = TestScheduler(initialClock: 0)
        let expected = scheduler.parseEventsAndTimes("-t--t|", values: ["t": true, "f": false]).first!
        let actual: [Recorded<Event<Bool>>] = [.next(1, true), .next(4, false), .completed(5)]
        #expect(recordedEventsMismatchMessage(actual, expected) == """
            Recorded events differ at index 1: expected next(true) @ 4, got next(false) @ 4
            expected: -t--t|
            actual:   -t--f|
                          ^ first difference (time 4)
            one column = 1 tick, first column = time 0
            legend: t = true, f = false
            expected events (3): [next(true) @ 1, next(true) @ 4, completed @ 5]
            actual events (3):   [next(true) @ 1, next(false) @ 4, completed @ 5]
            """)
    }

    @Test("a marble assertion draws its frames before '^' and its frame as written")
    func hotMarblesAsWritten() {
        let actual: [Recorded<Event<Int>>] = [.next(180, 1), .next(220, 2), .completed(250)]
        let line = #line + 2
        let failures = capturingFailures {
            XCTAssertEqual(actual, marbles: "-a-^-b-|", values: ["a": 1, "b": 2], frame: 10)
        }
        #expect(failures.map(\.message) == ["""
            Recorded events differ at index 2: expected completed @ 240, got completed @ 250
            expected: -a-^-b-|
            actual:   -a-^-b--|
                             ^ first difference (time 240)
            one column = 10 ticks, '^' = time 200
            legend: a = 1, b = 2
            expected events (3): [next(1) @ 180, next(2) @ 220, completed @ 240]
            actual events (3):   [next(1) @ 180, next(2) @ 220, completed @ 250]
            """])
        #expect(failures.first?.line == line)
    }

    @Test("an expectation without events still lends its keys and its '^'")
    func emptyExpectation() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .next(400, 3)])
        let res = scheduler.start(disposed: 230) { xs.asObservable() }
        let failures = capturingFailures {
            #expect(!expectEvents(res, marbles: "^---", values: ["a": 1, "b": 2], frame: 10))
        }
        #expect(failures.map(\.message) == ["""
            Recorded events differ at index 0: expected nothing, got next(2) @ 220
            expected: ^--
            actual:   ^-b
                        ^ first difference (time 220)
            one column = 10 ticks, '^' = time 200
            legend: b = 2
            expected events (0): []
            actual events (1):   [next(2) @ 220]
            """])
    }

    @Test("a key never stands for two values: a value whose key is taken draws itself or gets a letter")
    func conflictingKeys() throws {
        let expected = try Marbles.parse("a", values: ["a": 1]) + Marbles.parse("-a|", values: ["a": 2])
        let actual: [Recorded<Event<Int>>] = [.next(0, 1), .next(1, 2), .completed(3)]
        #expect(recordedEventsMismatchMessage(actual, expected) == """
            Recorded events differ at index 2: expected completed @ 2, got completed @ 3
            expected: a2|
            actual:   a2-|
                        ^ first difference (time 2)
            one column = 1 tick, first column = time 0
            legend: a = 1
            expected events (3): [next(1) @ 0, next(2) @ 1, completed @ 2]
            actual events (3):   [next(1) @ 0, next(2) @ 1, completed @ 3]
            """)

        // A value with no key of its own and no one-character text gets the first free letter.
        let words = try Marbles.parse("ab|", values: ["a": "one", "b": "two"])
        #expect(recordedEventsMismatchMessage([.next(0, "one"), .next(1, "three")], words) == """
            Recorded events differ at index 1: expected next(two) @ 1, got next(three) @ 1
            expected: ab|
            actual:   ac-
                       ^ first difference (time 1)
            one column = 1 tick, first column = time 0
            legend: a = one, b = two, c = three
            expected events (3): [next(one) @ 0, next(two) @ 1, completed @ 2]
            actual events (2):   [next(one) @ 0, next(three) @ 1]
            """)
    }

    @Test("when an actual event falls under a long key, the columns widen instead, still aligned")
    func longKeysFallBackToColumns() {
        let scheduler = TestScheduler(initialClock: 0)
        let expected = scheduler.parseEventsAndTimes("e1-e2|", values: ["e1": 1, "e2": 2]).first!
        let actual: [Recorded<Event<Int>>] = [.next(0, 1), .next(1, 2), .completed(5)]
        #expect(recordedEventsMismatchMessage(actual, expected) == """
            Recorded events differ at index 1: expected next(2) @ 3, got next(2) @ 1
            expected: e1- -e2-|
            actual:   e1e2-- -|
                        ^ first difference (time 1)
            one column = 1 tick, first column = time 0
            legend: e1 = 1, e2 = 2
            expected events (3): [next(1) @ 0, next(2) @ 3, completed @ 5]
            actual events (3):   [next(1) @ 0, next(2) @ 1, completed @ 5]
            """)
    }

    @Test("a text whose start is far before its events is not drawn from there: the keys stay")
    func farFromTheText() throws {
        // A second of time progression before the '^', at a millisecond a tick.
        let expected = try Marbles.parse("1000ms ^a|", values: ["a": 1], resolution: 0.001, origin: 200)
        let actual: [Recorded<Event<Int>>] = [.next(200, 2)]
        #expect(recordedEventsMismatchMessage(actual, expected) == """
            Recorded events differ at index 0: expected next(1) @ 201, got next(2) @ 200
            expected: -a|
            actual:   2--
                      ^ first difference (time 200)
            one column = 1 tick, first column = time 200
            legend: a = 1
            expected events (2): [next(1) @ 201, completed @ 202]
            actual events (1):   [next(2) @ 200]
            """)
    }

    @Test("events written by hand keep the renderer's own keys")
    func handWrittenExpectation() {
        let actual: [Recorded<Event<Int>>] = [.next(10, 10), .next(20, 30)]
        let expected: [Recorded<Event<Int>>] = [.next(10, 10), .next(20, 20)]
        #expect(recordedEventsMismatchMessage(actual, expected).contains("""
            expected: -ab
            actual:   -ac
            """))
    }

    @Test("the key an event was written with is not part of its equality")
    func keysDoNotCount() throws {
        let parsed = try Marbles.parse("-a|", values: ["a": 1])
        let written: [Recorded<Event<Int>>] = [.next(1, 1), .completed(2)]
        #expect(parsed == written)
        #expect(try Marbles.parse("-a|") == [.next(1, "a"), .completed(2)])
        let book = MarbleKeyBook(values: ["a": 5], errors: [:], layout: nil)
        let keyed = Recorded(time: 1, value: 5, marbleKey: MarbleKey(key: "a", book: book))
        #expect(Set([keyed, Recorded(time: 1, value: 5)]).count == 1)
    }
}
