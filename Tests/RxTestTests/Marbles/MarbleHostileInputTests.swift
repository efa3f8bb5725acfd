import RxSwift
import RxTest
import Testing

// Marble text that once trapped the process (found by the FuzzMarbles target, see the
// Reliability article, Sources/RxSwift/RxSwift.docc/Reliability.md): each must now come
// back as a MarbleError, or parse.

@Suite("Marble parsers: hostile input", .rxLeakCheck)
struct MarbleHostileInputTests {
    /// Runs `body`, which must throw a `MarbleError` with `problem`; returns it.
    @discardableResult
    private func expectProblem<T>(_ problem: MarbleError.Problem, _ body: () throws(MarbleError) -> T) -> MarbleError? {
        do {
            _ = try body()
            Issue.record("expected \(problem), got a result")
            return nil
        } catch {
            #expect(error.problem == problem)
            return error
        }
    }

    @Test("fuzz crash c3fc297c: frames of Int.max / 2 ticks overflowed the time (an arithmetic-overflow trap)")
    func hugeFrameOverflow() throws {
        // The input as the fuzzer saved it: NUL characters and all, frame Int.max / 2,
        // resolution 0.
        let marbles = "Bool\u{0}--^---l\u{0}--^-!"
        let error = expectProblem(.timeOutOfRange) { () throws(MarbleError) in
            try Marbles.parseTimeline(marbles, frame: Int.max / 2, resolution: 0)
        }
        #expect(error?.position == 2)
        #expect(error?.description == "time out of range 'o' at position 2 in \"\(marbles)\": the diagram's time does not fit in a TestTime (Int)")
        expectProblem(.timeOutOfRange) { () throws(MarbleError) in
            try Marbles.parseSubscriptions("--^-!", frame: Int.max / 2)
        }
        // Two frames of Int.max / 2 still fit.
        #expect(try Marbles.parseTimeline("ab", frame: Int.max / 2).entries.map(\.time) == [0, Int.max / 2])
    }

    @Test("time progressions adding up past Int.max are an error, not a trap")
    func progressionsOverflow() {
        let year = "1000000000000000000s"
        let marbles = Array(repeating: year, count: 10).joined(separator: " ") + " a"
        let error = expectProblem(.timeOutOfRange) { () throws(MarbleError) in
            try Marbles.parse(marbles, values: ["a": 1])
        }
        #expect(error?.token == "1")
        expectProblem(.timeOutOfRange) { () throws(MarbleError) in
            try Marbles.parseSubscriptions(marbles.replacingOccurrences(of: "a", with: "^"))
        }
    }

    @Test("an origin that pushes an event or a subscription past Int.max is an error")
    func originOverflow() throws {
        let error = expectProblem(.timeOutOfRange) { () throws(MarbleError) in
            try Marbles.parse("-a|", values: ["a": 1], origin: Int.max)
        }
        #expect(error?.position == 1)
        expectProblem(.timeOutOfRange) { () throws(MarbleError) in
            try Marbles.parseSubscriptions("-^-!", origin: Int.max)
        }
        expectProblem(.timeOutOfRange) { () throws(MarbleError) in
            try Marbles.parseSubscriptions("-^", origin: Int.max)
        }
        // At the edge it still works.
        #expect(try Marbles.parse("a", values: ["a": 1], origin: Int.max) == [.next(Int.max, 1)])
        #expect(try Marbles.parseSubscriptions("^!", origin: Int.max - 2) == [Subscription(Int.max - 2, Int.max - 1)])
    }
}

@Suite("Marble renderer: keys that merge with their neighbours", .rxLeakCheck)
struct MarbleRendererGraphemeTests {
    /// Renders `events`, parses the drawing back and returns what came out.
    private func roundTrip(_ events: [Recorded<Event<String>>]) throws -> (drawing: String, events: [Recorded<Event<String>>]) {
        let diagram = Marbles.render(events)
        let parsed = try Marbles.parse(diagram.marbles, values: diagram.values, errors: diagram.errors, frame: diagram.frame, origin: diagram.origin)
        return (diagram.marbles, parsed)
    }

    @Test("fuzz crash 18c08b25: a combining mark drawn as itself after '-' merged into a key \"-ۧ\"")
    func combiningMarkAfterDash() throws {
        // The input as the fuzzer saved it (frame 2): U+06E7 follows a control
        // character, so it parses as a key of its own.
        let marbles = "\u{FFFD}\u{10}\u{024C},..r 9s \u{01}\u{01}\u{06E7}"
        let events = try Marbles.parse(marbles, frame: 2)
        #expect(events.last == .next(27, "\u{06E7}"))
        let result = try roundTrip(events)
        #expect(result.events == events, "drawn as \(result.drawing.debugDescription)")
    }

    @Test("keys that join into one character when side by side are drawn with legend keys",
          arguments: [
              ["a", "\u{0301}"],                  // combining acute accent after '-'
              ["\u{0600}", "b"],                  // Arabic number sign: joins what follows
              ["\u{1F1E6}", "\u{1F1E7}"],         // two regional indicators: a flag
              ["\u{1100}", "\u{1161}"],           // Hangul leading consonant + vowel
          ])
    func mergingKeys(keys: [String]) throws {
        let apart: [Recorded<Event<String>>] = keys.enumerated().map { .next(2 * $0.offset, $0.element) }
        let apartResult = try roundTrip(apart)
        #expect(apartResult.events == apart, "drawn as \(apartResult.drawing.debugDescription)")
        let together: [Recorded<Event<String>>] = keys.map { .next(3, $0) } + [.completed(5)]
        let togetherResult = try roundTrip(together)
        #expect(togetherResult.events == together, "drawn as \(togetherResult.drawing.debugDescription)")
    }

    @Test("carriage return and line feed at the same time stay two events")
    func crlfGroup() throws {
        let events: [Recorded<Event<String>>] = [.next(1, "\r"), .next(1, "\n"), .completed(2)]
        let result = try roundTrip(events)
        #expect(result.events == events, "drawn as \(result.drawing.debugDescription)")
    }

    @Test("plain single-character keys are still drawn as themselves")
    func plainKeysUnchanged() {
        let diagram = Marbles.render([.next(1, "a"), .next(3, "é"), .completed(4)] as [Recorded<Event<String>>])
        #expect(diagram.marbles == "-a-é|")
        #expect(diagram.legend.isEmpty)
    }
}
