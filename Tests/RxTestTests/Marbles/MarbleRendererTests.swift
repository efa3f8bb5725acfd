import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

private let otherError = TestError(code: 2)

/// Parses a diagram back with its own keys, frame and origin.
private func reparse<T>(_ diagram: MarbleDiagram<T>, line: Int = 0) throws -> [Recorded<Event<T>>] {
    try Marbles.parse(
        diagram.lines[line], values: diagram.values, errors: diagram.errors,
        frame: diagram.frame, origin: diagram.origin
    )
}

@Suite("Marble syntax: rendering", .rxLeakCheck)
struct MarbleRendererTests {
    @Test("single-character elements are drawn as themselves")
    func selfDrawn() throws {
        let events: [Recorded<Event<String>>] = [.next(1, "a"), .next(3, "b"), .completed(5)]
        let diagram = Marbles.render(events)
        #expect(diagram.marbles == "-a-b-|")
        #expect(diagram.legend.isEmpty)
        #expect(diagram.frame == 1)
        #expect(try reparse(diagram) == events)

        let digits = Marbles.render([.next(0, 1), .next(2, 7)] as [Recorded<Event<Int>>])
        #expect(digits.frame == 2)
        #expect(digits.marbles == "17")
        #expect(digits.description == "17")
    }

    @Test("the frame is the largest that fits every time")
    func automaticFrame() throws {
        let events: [Recorded<Event<Int>>] = [.next(210, 2), .next(220, 4), .next(240, 8), .completed(300)]
        let diagram = Marbles.render(events)
        #expect(diagram.frame == 10)
        #expect(diagram.marbles == "---------------------24-8-----|")
        #expect(try reparse(diagram) == events)
        let preferred = Marbles.render(events, frame: 20)
        #expect(preferred.frame == 10)
        let coarse = Marbles.render([.next(200, 1), .completed(400)] as [Recorded<Event<Int>>], frame: 100, origin: 200)
        #expect(coarse.marbles == "1-|")
    }

    @Test("other elements get letters and a legend")
    func legend() throws {
        let events: [Recorded<Event<Int>>] = [.next(1, 10), .next(2, 20), .next(3, 10), .completed(4)]
        let diagram = Marbles.render(events)
        #expect(diagram.marbles == "-aba|")
        #expect(diagram.legend == ["a = 10", "b = 20"])
        #expect(diagram.description == "-aba|\na = 10, b = 20")
        #expect(try reparse(diagram) == events)

        let flags = Marbles.render([.next(0, true), .next(1, false)] as [Recorded<Event<Bool>>])
        #expect(flags.marbles == "ab")
        #expect(flags.legend == ["a = true", "b = false"])

        let symbols = Marbles.render([.next(0, "-"), .next(1, "|")] as [Recorded<Event<String>>])
        #expect(symbols.marbles == "ab")
        #expect(symbols.legend == ["a = -", "b = |"])
    }

    @Test("simultaneous events form a group of one frame")
    func groups() throws {
        let events: [Recorded<Event<String>>] = [.next(2, "a"), .next(2, "b"), .next(3, "c"), .next(4, "d"), .completed(4)]
        let diagram = Marbles.render(events)
        #expect(diagram.marbles == "--(ab)c(d|)")
        #expect(try reparse(diagram) == events)
    }

    @Test("errors: '#' first, a legend unless it is the default error, keys for others")
    func errors() throws {
        let plain = Marbles.render([.next(1, "a"), .error(2, MarbleDefaultError(key: "#"))] as [Recorded<Event<String>>])
        #expect(plain.marbles == "-a#")
        #expect(plain.legend.isEmpty)
        #expect(try reparse(plain) == [.next(1, "a"), .error(2, MarbleDefaultError(key: "#"))])

        let custom = Marbles.render([.next(0, 5), .error(1, testError)] as [Recorded<Event<Int>>])
        #expect(custom.marbles == "5#")
        #expect(custom.legend == ["# = \(testError)"])
        #expect(try reparse(custom) == [.next(0, 5), .error(1, testError)])

        let two = Marbles.render(timelines: [
            [.next(0, "a"), .error(1, testError)],
            [.next(0, "a"), .error(2, otherError)],
        ] as [[Recorded<Event<String>>]])
        #expect(two.lines == ["a#", "a-b"])
        #expect(two.legend == ["# = \(testError)", "b = \(otherError)"])
        #expect(try reparse(two, line: 1) == [.next(0, "a"), .error(2, otherError)])
    }

    @Test("events before the origin put '^' at the origin")
    func beforeOrigin() throws {
        let events: [Recorded<Event<String>>] = [.next(180, "a"), .next(200, "b"), .next(220, "c"), .completed(240)]
        let diagram = Marbles.render(events, origin: 200)
        #expect(diagram.marbles == "a(^b)c|")
        #expect(try reparse(diagram) == events)
        let after = Marbles.render([.next(190, "x"), .next(230, "y")] as [Recorded<Event<String>>], frame: 10, origin: 200)
        #expect(after.marbles == "x^--y")
        #expect(try reparse(after) == [.next(190, "x"), .next(230, "y")])
    }

    @Test("text that would read as a time progression switches to letters")
    func timeProgressionLookalike() throws {
        let events: [Recorded<Event<String>>] = [.next(0, "1"), .next(1, "s")]
        let diagram = Marbles.render(events)
        #expect(diagram.marbles == "ab")
        #expect(diagram.legend == ["a = 1", "b = s"])
        #expect(try reparse(diagram) == events)
    }

    @Test("several timelines share columns, padded with spaces")
    func aligned() throws {
        let expected: [Recorded<Event<String>>] = [.next(1, "a"), .next(1, "b"), .next(2, "c"), .completed(3)]
        let actual: [Recorded<Event<String>>] = [.next(1, "a"), .next(2, "c"), .next(4, "d")]
        let diagram = Marbles.render(timelines: [expected, actual])
        #expect(diagram.lines == ["-(ab)c|", "-a   c-d"])
        #expect(diagram.column(of: 2) == 5)
        #expect(diagram.column(of: 4) == 7)
        #expect(try reparse(diagram, line: 0) == expected)
        #expect(try reparse(diagram, line: 1) == actual)
        let empty = Marbles.render(timelines: [[], actual])
        #expect(empty.lines == ["-----", "-ac-d"])
    }

    @Test("nothing renders as an empty line")
    func nothing() throws {
        let diagram = Marbles.render([Recorded<Event<Int>>]())
        #expect(diagram.marbles == "")
        #expect(try reparse(diagram) == [])
    }

    @Test("out-of-order events are drawn in time order")
    func unordered() {
        let diagram = Marbles.render([.next(3, "b"), .next(1, "a")] as [Recorded<Event<String>>])
        #expect(diagram.marbles == "-a-b")
    }

    @Test("render then parse gives the events back", arguments: 0..<200)
    func roundTrip(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed))
        let step = [1, 1, 2, 5, 10][Int(random.next() % 5)]
        let origin = [0, 0, 100, 200][Int(random.next() % 4)]
        let useStrings = random.next() % 2 == 0
        var time = origin - Int(random.next() % 4) * step
        var ints: [Recorded<Event<Int>>] = []
        let count = Int(random.next() % 12)
        for _ in 0..<count {
            time += Int(random.next() % 3) * step
            ints.append(.next(time, Int(random.next() % (useStrings ? 5 : 40))))
        }
        switch random.next() % 3 {
        case 0: ints.append(.completed(time + Int(random.next() % 2) * step))
        case 1: ints.append(.error(time + Int(random.next() % 2) * step, random.next() % 2 == 0 ? testError : MarbleDefaultError(key: "#")))
        default: break
        }
        if useStrings {
            let strings = ints.map { recorded in
                Recorded(time: recorded.time, value: recorded.value.map { ["x", "1", "s", "m", "longer"][$0] })
            }
            let diagram = Marbles.render(strings, origin: origin)
            #expect(try reparse(diagram) == strings, "\(diagram)")
        } else {
            let diagram = Marbles.render(ints, origin: origin)
            #expect(try reparse(diagram) == ints, "\(diagram)")
        }
    }

    @Test("subscriptions render as subscription marbles and parse back")
    func subscriptions() throws {
        let subscriptions = [Subscription(200, 260), Subscription(220), Subscription(240, 240)]
        let diagram = Marbles.renderSubscriptions(subscriptions)
        #expect(diagram.frame == 20)
        #expect(diagram.lines == ["----------^--!", "-----------^", "------------(^!)"])
        var parsed: [Subscription] = []
        for line in diagram.lines {
            parsed += try Marbles.parseSubscriptions(line, frame: diagram.frame, origin: diagram.origin)
        }
        #expect(parsed == subscriptions)
        let early = Marbles.renderSubscriptions([Subscription(-10, 10)], origin: 0)
        #expect(early.origin == -10)
        #expect(early.lines == ["^!"])
    }
}

/// A small deterministic generator for repeatable property tests.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed &+ 0x9E37_79B9_7F4A_7C15
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
