#if PropertyTesting
import PropertyBased
import RxSwift
import RxTestCore
import Testing

/// One generated source of a marble law: the events of a hot or a cold testable
/// observable, drawn as marbles when a law fails.
///
/// A cold input's times count from each subscription (its first event comes one tick or
/// more after it). A hot input's times are absolute virtual times around
/// `TestScheduler.Defaults.subscribed` (200), where a law's `start` subscribes: its
/// events before 200 are emitted before anyone listens and are never delivered.
///
/// Make them with ``MarbleGen``; a law turns one into an observable with
/// ``observable(in:)``.
public struct MarbleInput<Element: Sendable>: Sendable {
    /// Whether the events happen whether or not anyone subscribed (hot) or again for
    /// each subscription (cold).
    public enum Temperature: String, Hashable, Sendable {
        /// Absolute times, the same for every subscriber.
        case hot
        /// Times from each subscription.
        case cold
    }

    /// Hot or cold.
    public let temperature: Temperature
    /// The events, in time order: absolute times when hot, times from the subscription
    /// when cold.
    public let events: [Recorded<Event<Element>>]

    /// An input of `events`.
    public init(_ temperature: Temperature, events: [Recorded<Event<Element>>]) {
        self.temperature = temperature
        self.events = events
    }

    /// A testable observable of `scheduler` emitting the events: hot or cold as the input is.
    public func observable(in scheduler: TestScheduler) -> TestableObservable<Element> {
        switch temperature {
        case .hot:
            return scheduler.createHotObservable(events)
        case .cold:
            return scheduler.createColdObservable(events)
        }
    }

    /// What a subscriber that subscribes at `subscribed` receives, at the virtual times it
    /// receives them: a cold input's events moved to the subscription, a hot input's
    /// events after `subscribed` (the generated ones have none at 200 itself, which
    /// would arrive before or after the subscription depending on which was scheduled
    /// first).
    public func delivered(subscribedAt subscribed: TestTime = TestScheduler.Defaults.subscribed) -> [Recorded<Event<Element>>] {
        switch temperature {
        case .hot:
            return events.filter { $0.time > subscribed }
        case .cold:
            return events.map { Recorded(time: subscribed + $0.time, value: $0.value) }
        }
    }

    /// The marble text of the events, one tick per frame: from the subscription for a
    /// cold input (`"-a-(bc)-|"`), with `^` at 200 for a hot one (`"a-^-b-|"`).
    public var marbles: String {
        diagram.text
    }

    /// `key = element` for every key of ``marbles`` that is not the element's own text.
    public var legend: [String] {
        diagram.legend
    }

    private var diagram: (text: String, legend: [String]) {
        switch temperature {
        case .cold:
            let drawn = Marbles.render(events, frame: 1, origin: 0)
            return (drawn.marbles, drawn.legend)
        case .hot:
            let subscribed = TestScheduler.Defaults.subscribed
            let drawn = Marbles.render(events, frame: 1, origin: subscribed)
            if drawn.marksZero {
                return (drawn.marbles, drawn.legend)
            }
            // Nothing before the subscription: its frame (time 200) is the first column,
            // marked `^` unless an event is there.
            guard drawn.marbles.isEmpty || drawn.marbles.hasPrefix("-") else {
                return (drawn.marbles, drawn.legend)
            }
            return ("^" + drawn.marbles.dropFirst(), drawn.legend)
        }
    }
}

extension MarbleInput: CustomStringConvertible, CustomDebugStringConvertible, CustomTestStringConvertible {
    /// `cold "-a-b|"`, or `hot "a^-b"`, followed by the legend when there is one.
    public var description: String {
        let text = "\(temperature.rawValue) \"\(marbles)\""
        return legend.isEmpty ? text : text + " (" + legend.joined(separator: ", ") + ")"
    }

    /// The same as `description`.
    public var debugDescription: String {
        description
    }

    /// The same as `description`: how a failing law names its input.
    public var testDescription: String {
        description
    }
}

/// How a generated input ends.
public enum MarbleEnding: Hashable, Sendable, CaseIterable {
    /// It does not end.
    case open
    /// `|`.
    case completed
    /// `#`: ``MarbleDefaultError``.
    case error
}

/// What generated inputs look like: how many elements, how far apart, how they end.
///
/// Shrinking prefers fewer elements, smaller gaps, and the endings in the order given:
/// the first is the simplest.
public struct MarbleShape: Hashable, Sendable {
    /// How many elements.
    public var events: ClosedRange<Int>
    /// Ticks from one element to the next; 0 puts both in the same frame (a group).
    public var gaps: ClosedRange<Int>
    /// The endings to choose from, simplest first.
    public var endings: [MarbleEnding]
    /// Ticks from the last element (or, with none, the first frame) to the ending; 0
    /// ends in that element's frame.
    public var endingGaps: ClosedRange<Int>

    /// A shape; every range must start at 0 or more, and `endings` cannot be empty.
    public init(
        events: ClosedRange<Int> = 0...6,
        gaps: ClosedRange<Int> = 0...3,
        endings: [MarbleEnding] = MarbleEnding.allCases,
        endingGaps: ClosedRange<Int> = 0...3
    ) {
        precondition(events.lowerBound >= 0 && gaps.lowerBound >= 0 && endingGaps.lowerBound >= 0, "counts and gaps cannot be negative")
        precondition(!endings.isEmpty, "an input needs at least one ending to choose from")
        self.events = events
        self.gaps = gaps
        self.endings = endings
        self.endingGaps = endingGaps
    }
}

/// Generators of marble inputs for laws, built from swift-property-based's generators so
/// that a failing input shrinks: fewer events, smaller gaps (down to simultaneous
/// events), smaller elements, an earlier ending in the shape's list of endings.
///
/// ```swift
/// let letters = Gen.int(in: 0...3).map { ["a", "b", "c", "d"][$0] }
/// let source = MarbleGen.cold(letters)            // e.g. cold "-a--(bd)-c|"
/// let pair = zip(MarbleGen.hot(letters), MarbleGen.cold(letters, MarbleShape(endings: [.completed])))
/// ```
///
/// Their shrinking sequences are type-erased, so that a generator can be stored in a
/// property of its own type, `Generator<MarbleInput<Element>, AnySequence<Any>>`.
public enum MarbleGen {
    /// Cold inputs of `elements`: the first element one tick plus a gap after the
    /// subscription, the others and the ending as `shape` says.
    public static func cold<Element: Sendable, Shrinks>(
        _ elements: Generator<Element, Shrinks>,
        _ shape: MarbleShape = MarbleShape()
    ) -> Generator<MarbleInput<Element>, AnySequence<Any>> {
        timelines(elements, shape).map { steps, ending in
            MarbleInput(.cold, events: timeline(from: 1, steps, ending: shape.endings[ending.0], after: ending.1))
        }.eraseToAny()
    }

    /// Hot inputs of `elements`: as ``cold(_:_:)``, with the first event at 201 minus up
    /// to `before` ticks, so that the subscription at 200 can come after some of them:
    /// those are never delivered. No event is at 200 itself: the events from there on
    /// move one tick later.
    ///
    /// Shrinking also moves the events after the subscription.
    public static func hot<Element: Sendable, Shrinks>(
        _ elements: Generator<Element, Shrinks>,
        _ shape: MarbleShape = MarbleShape(),
        before: ClosedRange<Int> = 0...3
    ) -> Generator<MarbleInput<Element>, AnySequence<Any>> {
        let subscribed = TestScheduler.Defaults.subscribed
        return zip(Gen.int(in: before), timelines(elements, shape)).map { lead, timeline in
            // The subscription's own tick is left out: an event there would come before or
            // after the subscription depending on which was scheduled first.
            let events = Self.timeline(from: subscribed + 1 - lead, timeline.0, ending: shape.endings[timeline.1.0], after: timeline.1.1)
                .map { event in event.time < subscribed ? event : Recorded(time: event.time + 1, value: event.value) }
            return MarbleInput(.hot, events: events)
        }.eraseToAny()
    }

    /// Hot or cold inputs, half each; a failure shrinks towards cold.
    public static func any<Element: Sendable, Shrinks>(
        _ elements: Generator<Element, Shrinks>,
        _ shape: MarbleShape = MarbleShape()
    ) -> Generator<MarbleInput<Element>, AnySequence<Any>> {
        zip(Gen.int(in: 0...1), cold(elements, shape), hot(elements, shape)).map { isHot, cold, hot in
            isHot == 1 ? hot : cold
        }.eraseToAny()
    }

    /// Each element with the ticks since the one before, and the index of the ending in
    /// `shape.endings` with its ticks after the last element.
    private static func timelines<Element, Shrinks>(
        _ elements: Generator<Element, Shrinks>,
        _ shape: MarbleShape
    ) -> Generator<([(Int, Element)], (Int, Int)), some SendableSequenceType> {
        zip(
            zip(Gen.int(in: shape.gaps), elements).array(of: shape.events),
            zip(Gen.int(in: 0...(shape.endings.count - 1)), Gen.int(in: shape.endingGaps))
        )
    }

    /// The events of `steps` from `start`, then `ending` `after` ticks after the last one.
    private static func timeline<Element>(
        from start: TestTime,
        _ steps: [(Int, Element)],
        ending: MarbleEnding,
        after: Int
    ) -> [Recorded<Event<Element>>] {
        var time = start
        var events: [Recorded<Event<Element>>] = []
        for (gap, element) in steps {
            time += gap
            events.append(.next(time, element))
        }
        switch ending {
        case .open:
            break
        case .completed:
            events.append(.completed(time + after))
        case .error:
            events.append(.error(time + after, MarbleDefaultError()))
        }
        return events
    }
}
#endif
