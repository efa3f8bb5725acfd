import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("Marble syntax: parsing", .rxLeakCheck)
struct MarbleParserTests {
    @Test("one frame per character, keys looked up in values")
    func framesAndKeys() throws {
        let events = try Marbles.parse("-a-b-|", values: ["a": 1, "b": 2])
        #expect(events == [.next(1, 1), .next(3, 2), .completed(5)])
        let framed = try Marbles.parse("-a-b-|", values: ["a": 1, "b": 2], frame: 10)
        #expect(framed == [.next(10, 1), .next(30, 2), .completed(50)])
        let shifted = try Marbles.parse("a#", values: ["a": 1], frame: 10, origin: 100)
        #expect(shifted == [.next(100, 1), .error(110, MarbleDefaultError(key: "#"))])
    }

    @Test("a group is one frame whatever its length")
    func groups() throws {
        let events = try Marbles.parse("--(ab)-|", values: ["a": 1, "b": 2])
        #expect(events == [.next(2, 1), .next(2, 2), .completed(4)])
        let withTerminal = try Marbles.parse("-(a|)", values: ["a": 1])
        #expect(withTerminal == [.next(1, 1), .completed(1)])
        let empty = try Marbles.parse("()-a", values: ["a": 1])
        #expect(empty == [.next(2, 1)])
    }

    @Test("spaces take no time")
    func spaces() throws {
        let events = try Marbles.parse("  -a   -b |", values: ["a": 1, "b": 2])
        #expect(events == [.next(1, 1), .next(3, 2), .completed(4)])
    }

    @Test("'^' is the zero point; earlier events are negative")
    func subscriptionPoint() throws {
        let events = try Marbles.parse("-a-^-b-|", values: ["a": 1, "b": 2])
        #expect(events == [.next(-2, 1), .next(2, 2), .completed(4)])
        let timeline = try Marbles.parseTimeline("-a-^-b-|")
        #expect(timeline.zeroPosition == 3)
        #expect(timeline.entries.map(\.position) == [1, 5, 7])
        let grouped = try Marbles.parse("-a(^b)c", values: ["a": 1, "b": 2, "c": 3], origin: 200)
        #expect(grouped == [.next(199, 1), .next(200, 2), .next(201, 3)])
    }

    @Test("time progressions use the resolution")
    func timeProgressions() throws {
        let milliseconds = try Marbles.parse("a 10ms b", values: ["a": 1, "b": 2], resolution: 0.001)
        #expect(milliseconds == [.next(0, 1), .next(11, 2)])
        let seconds = try Marbles.parse("a 1.5s b|", values: ["a": 1, "b": 2], resolution: 0.5)
        #expect(seconds == [.next(0, 1), .next(4, 2), .completed(5)])
        let minutes = try Marbles.parse("2m a", values: ["a": 1], frame: 10, resolution: 60)
        #expect(minutes == [.next(2, 1)])
        // Not between spaces, or not a number and a unit: plain keys.
        let keys = try Marbles.parse("-1s-", values: ["1": 1, "s": 2])
        #expect(keys == [.next(1, 1), .next(2, 2)])
    }

    @Test("String and Character elements use the key itself when values lack it")
    func keysAsValues() throws {
        let strings = try Marbles.parse("-a-b-|")
        #expect(strings == [.next(1, "a"), .next(3, "b"), .completed(5)])
        let mixed = try Marbles.parse("ab", values: ["a": "apple"])
        #expect(mixed == [.next(0, "apple"), .next(1, "b")])
        let characters = try Marbles.parse("xy", values: [String: Character]())
        #expect(characters == [.next(0, "x"), .next(1, "y")])
    }

    @Test("errors: '#' from errors or a default, other keys from errors")
    func errors() throws {
        #expect(try Marbles.parse("-#", values: ["a": 1], errors: ["#": testError]) == [.error(1, testError)])
        #expect(try Marbles.parse("-a-x", values: ["a": 1], errors: ["x": testError]) == [.next(1, 1), .error(3, testError)])
        #expect(try Marbles.parse("#", values: ["a": 1]) == [.error(0, MarbleDefaultError(key: "#"))])
    }

    @Test(
        "malformed marbles throw a MarbleError naming the problem, the character and its position",
        arguments: [
            ("--a-(b-|", "unbalanced '(' at position 4 in \"--a-(b-|\": the group is never closed", 4),
            ("--a)", "unbalanced ')' at position 3 in \"--a)\": no group is open", 3),
            ("-(a(b))", "nested '(' at position 3 in \"-(a(b))\": groups cannot be nested", 3),
            ("--|--|", "second terminal event '|' at position 5 in \"--|--|\": the sequence already ended at position 2", 5),
            ("-#(a|)", "event 'a' at position 3 in \"-#(a|)\" comes after the terminal event at position 1", 3),
            ("-a-q", "unknown key 'q' at position 3 in \"-a-q\": it is in neither values nor errors", 3),
            ("-a-x-a", "event 'a' at position 5 in \"-a-x-a\" comes after the terminal event at position 3", 5),
            ("a 1.5.2s b", "bad time progression '1.5.2s' at position 2 in \"a 1.5.2s b\": expected a number such as 10 or 1.5 followed by ms, s or m", 2),
            ("a 1.s b", "bad time progression '1.s' at position 2 in \"a 1.s b\": expected a number such as 10 or 1.5 followed by ms, s or m", 2),
            ("a 10ms b", "bad time progression '10ms' at position 2 in \"a 10ms b\": it is 0.01 ticks at a resolution of 1.0 seconds per tick, not a whole number", 2),
            ("(a 1s b)", "bad time progression '1s' at position 3 in \"(a 1s b)\": time cannot pass inside a group", 3),
            ("(a-b)", "unexpected '-' at position 2 in \"(a-b)\": a group is a single frame, so '-' cannot be inside one", 2),
            ("-(a-b", "unbalanced '(' at position 1 in \"-(a-b\": the group is never closed", 1),
            ("-(a 1s b", "unbalanced '(' at position 1 in \"-(a 1s b\": the group is never closed", 1),
            ("-a-!", "unexpected '!' at position 3 in \"-a-!\": '!' marks a disposal and only belongs in subscription marbles", 3),
            ("^-a-^", "unexpected '^' at position 4 in \"^-a-^\": there can be only one subscription point, and one is at position 0", 4),
        ] as [(String, String, Int)]
    )
    func malformed(marbles: String, message: String, position: Int) {
        #expect {
            try Marbles.parse(marbles, values: ["a": 1, "b": 2], errors: ["x": testError])
        } throws: { error in
            guard let error = error as? MarbleError else { return false }
            return error.description == message && error.position == position && error.marbles == marbles
        }
    }

    @Test("bad frames and keys that cannot appear in marbles throw")
    func badArguments() {
        #expect(throws: MarbleError(.invalidFrame, token: "0", position: nil, marbles: "-a")) {
            try Marbles.parse("-a", values: ["a": 1], frame: 0)
        }
        #expect {
            try Marbles.parse("-a", values: ["ab": 1])
        } throws: { error in
            "\(error)" == "invalid key 'ab' for \"-a\": keys of values are single characters"
        }
        #expect {
            try Marbles.parse("-a", values: ["-": 1])
        } throws: { error in
            "\(error)" == "invalid key '-' for \"-a\": it is a marble symbol, not a key"
        }
    }

    @Test("subscription marbles")
    func subscriptions() throws {
        #expect(try Marbles.parseSubscriptions("^---!") == [Subscription(0, 4)])
        #expect(try Marbles.parseSubscriptions("--^--!", frame: 10) == [Subscription(20, 50)])
        #expect(try Marbles.parseSubscriptions("^-!-^--") == [Subscription(0, 2), Subscription(4)])
        #expect(try Marbles.parseSubscriptions("-(^!)", origin: 200) == [Subscription(201, 201)])
        #expect(try Marbles.parseSubscriptions("   ^ 2s !", resolution: 0.5) == [Subscription(0, 5)])
        #expect(try Marbles.parseSubscriptions("----") == [])
    }

    @Test(
        "malformed subscription marbles throw",
        arguments: [
            ("--!", "unexpected '!' at position 2 in \"--!\": '!' needs a subscription '^' before it"),
            ("^-^-!", "unexpected '^' at position 2 in \"^-^-!\": the subscription at position 0 has no '!' yet"),
            ("^-a-!", "unexpected 'a' at position 2 in \"^-a-!\": subscription marbles hold only '-', '^', '!', groups, spaces and time progressions"),
            ("-(^!", "unbalanced '(' at position 1 in \"-(^!\": the group is never closed"),
        ] as [(String, String)]
    )
    func malformedSubscriptions(marbles: String, message: String) {
        #expect {
            try Marbles.parseSubscriptions(marbles)
        } throws: { error in
            "\(error)" == message
        }
    }
}

@Suite("Marble syntax: TestScheduler", .rxLeakCheck)
struct TestSchedulerMarbleTests {
    @Test("a hot diagram's '^' is where start subscribes")
    func hotWithSubscriptionPoint() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("-a-^-b-c-|", values: ["a": 1, "b": 2, "c": 3], frame: 10)
        #expect(xs.recordedEvents == [.next(180, 1), .next(220, 2), .next(240, 3), .completed(260)])
        let res = scheduler.start { xs.map { $0 * 10 } }
        #expect(res.events == [.next(220, 20), .next(240, 30), .completed(260)])
        #expect(res.events == (try scheduler.parseMarbles("   ^-B-C-|", values: ["B": 20, "C": 30], frame: 10)))
        #expect(xs.subscriptions == (try scheduler.parseSubscriptions("   ^-----!", frame: 10)))
        #expect(xs.subscriptions == [Subscription(200, 260)])
    }

    @Test("a hot diagram without '^' starts at time 0; origin moves it")
    func hotWithoutSubscriptionPoint() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--a--b", frame: 100)
        #expect(xs.recordedEvents == [.next(200, "a"), .next(500, "b")])
        let moved = try scheduler.createHotObservable("-a", values: ["a": 1], origin: 50)
        #expect(moved.recordedEvents == [.next(51, 1)])
        let anchored = try scheduler.createHotObservable("-a^b", values: ["a": 1, "b": 2], origin: 10)
        #expect(anchored.recordedEvents == [.next(9, 1), .next(11, 2)])
    }

    @Test("a cold diagram is timed from each subscription and has no '^'")
    func cold() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = try scheduler.createColdObservable("--a--|", values: ["a": 1], frame: 10)
        let res = scheduler.start { ys.asObservable() }
        #expect(res.events == [.next(220, 1), .completed(250)])
        #expect(ys.subscriptions == (try scheduler.parseSubscriptions("^----!", frame: 10)))
        #expect {
            try scheduler.createColdObservable("-^-a", values: ["a": 1])
        } throws: { error in
            "\(error)" == "unexpected '^' at position 1 in \"-^-a\": a cold observable starts at each subscription, so '^' only belongs in hot marbles"
        }
        let strings = try scheduler.createColdObservable("x|")
        #expect(strings.recordedEvents == [.next(0, "x"), .completed(1)])
    }

    @Test("time progressions follow the scheduler's resolution")
    func resolution() throws {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let xs = try scheduler.createHotObservable("a 20ms b", values: ["a": 1, "b": 2])
        #expect(xs.recordedEvents == [.next(0, 1), .next(21, 2)])
        #expect(try scheduler.parseSubscriptions("^ 9ms !", origin: 0) == [Subscription(0, 10)])
    }

    @Test("the default origin")
    func defaultOrigin() {
        #expect(TestScheduler.marbleOrigin(for: "--a") == 0)
        #expect(TestScheduler.marbleOrigin(for: "-^-a") == 200)
        #expect(TestScheduler.marbleOrigin(for: "-^-a", origin: 7) == 7)
    }
}
