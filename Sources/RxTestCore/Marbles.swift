import RxSwift

/// Marble diagrams for virtual-time tests: text timelines that parse to recorded events
/// and subscriptions, and recorded events that render back to text.
///
/// ## Event marbles
///
/// One character is one *frame*; a frame is `frame` ticks of a `TestScheduler`
/// (one tick unless told otherwise).
///
/// | text | meaning |
/// |---|---|
/// | `-` | one frame passes with nothing in it |
/// | `a` | any other single character is a key: a `next` event with `values["a"]`, or an `error` event with `errors["a"]` |
/// | `\|` | `completed` |
/// | `#` | `error`: `errors["#"]`, or ``MarbleDefaultError`` when absent |
/// | `(ab)` | a group: everything inside happens in the same frame; the whole group takes one frame |
/// | `^` | the zero point of a hot source or an expectation: times are measured from it, earlier ones are negative; it takes one frame |
/// | spaces | ignored, for aligning several diagrams |
/// | `10ms`, `1.5s`, `2m` | a time progression: that much time passes, converted to ticks with the scheduler's resolution; it must stand alone between spaces (or the ends of the text) and come to a whole number of ticks |
///
/// A key missing from both `values` and `errors` is an error, except when the element
/// type is `String` (or `Character`): then the key itself is the value, so
/// `"-a-b-|"` parses to `.next(1, "a"), .next(3, "b"), .completed(5)` with no values.
///
/// Unlike RxJS, a group takes a single frame whatever its length, so every recording,
/// including events in consecutive ticks after a same-tick group, has a diagram; line
/// up several diagrams with spaces.
///
/// Nothing may follow a terminal event (`|`, `#` or an error key) except `-`, spaces,
/// time progressions and `^`.
///
/// ## Subscription marbles
///
/// `^` is a subscription, `!` its disposal, `-` a frame, `(^!)` both in one frame;
/// spaces and time progressions as above. `"^---!"` is `Subscription(0, 4)` when the
/// first column is at time 0; `"^--"` is still subscribed (`Subscription(0)`); one text
/// may hold several subscriptions one after another (`"^-!-^-!"`).
///
/// ## Where a diagram sits in virtual time
///
/// The pure functions here measure times from the diagram's zero point (its `^`, or
/// else its first frame) and add `origin`. The `TestScheduler` and assertion helpers
/// choose `origin` for you unless given one: a diagram containing `^` puts its zero
/// point at `TestScheduler.Defaults.subscribed` (200, where `start { }` subscribes),
/// any other starts at time 0. Cold observables measure from each subscription.
///
/// ## RxSwift's example timelines
///
/// ``parseEventsAndTimes(timeline:values:errors:)`` reads the format of RxSwift's
/// example tests (multi-character keys such as `e1`, one tick per character); see there.
public enum Marbles {
    /// The characters that have a meaning of their own in event and subscription marbles.
    public static let symbols: Set<Character> = ["-", "|", "#", "(", ")", "^", "!"]
}

/// An error some marble text stands for: what `#` produces when `errors` has no entry
/// for it.
public struct MarbleDefaultError: Error, Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The key that stood for the error (`"#"`).
    public let key: String

    /// The error of `key`.
    public init(key: String = "#") {
        self.key = key
    }

    /// `MarbleDefaultError(#)`.
    public var description: String {
        "MarbleDefaultError(\(key))"
    }

    /// The same as `description`.
    public var debugDescription: String {
        description
    }
}

/// Malformed marble text: what was wrong, the offending text and its 0-based position.
///
/// Its description reads like `unbalanced '(' at position 4 in "--a-(b-|": the group is never closed`.
public struct MarbleError: Error, Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What was wrong.
    public enum Problem: Hashable, Sendable {
        /// A key that is neither in `values` nor in `errors`.
        case unknownKey
        /// A `(` that is never closed.
        case unbalancedGroupStart
        /// A `)` without an open group.
        case unbalancedGroupEnd
        /// A `(` inside a group.
        case nestedGroup
        /// A second `|`, `#` or error key; the first is at `firstTerminalPosition`.
        case secondTerminal(firstTerminalPosition: Int)
        /// An event after the terminal event at `terminalPosition`.
        case eventAfterTerminal(terminalPosition: Int)
        /// A time progression that is malformed or not a whole number of ticks.
        case badTimeProgression(reason: String)
        /// A character that has no meaning where it stands.
        case unexpectedCharacter(reason: String)
        /// A key of `values` or `errors` that cannot appear in marbles.
        case invalidKey(reason: String)
        /// A frame of less than one tick.
        case invalidFrame
        /// A time that does not fit in a `TestTime` (an `Int`): the frames, time
        /// progressions and origin add up past `Int.max` or below `Int.min`.
        case timeOutOfRange
    }

    /// What was wrong.
    public let problem: Problem
    /// The offending character, key or time progression.
    public let token: String
    /// The 0-based position (in characters) of `token` in `marbles`; `nil` for problems
    /// that are not about one place in the text.
    public let position: Int?
    /// The whole marble text.
    public let marbles: String

    /// An error about `token` at `position` in `marbles`.
    public init(_ problem: Problem, token: String, position: Int?, marbles: String) {
        self.problem = problem
        self.token = token
        self.position = position
        self.marbles = marbles
    }

    private var place: String {
        if let position {
            return "'\(token)' at position \(position) in \"\(marbles)\""
        }
        return "'\(token)' for \"\(marbles)\""
    }

    /// A sentence naming the problem, the character and its position.
    public var description: String {
        switch problem {
        case .unknownKey:
            return "unknown key \(place): it is in neither values nor errors"
        case .unbalancedGroupStart:
            return "unbalanced \(place): the group is never closed"
        case .unbalancedGroupEnd:
            return "unbalanced \(place): no group is open"
        case .nestedGroup:
            return "nested \(place): groups cannot be nested"
        case .secondTerminal(let first):
            return "second terminal event \(place): the sequence already ended at position \(first)"
        case .eventAfterTerminal(let terminal):
            return "event \(place) comes after the terminal event at position \(terminal)"
        case .badTimeProgression(let reason):
            return "bad time progression \(place): \(reason)"
        case .unexpectedCharacter(let reason):
            return "unexpected \(place): \(reason)"
        case .invalidKey(let reason):
            return "invalid key \(place): \(reason)"
        case .invalidFrame:
            return "invalid frame \(token) for \"\(marbles)\": a frame is at least one tick"
        case .timeOutOfRange:
            return "time out of range \(place): the diagram's time does not fit in a TestTime (Int)"
        }
    }

    /// `description`, prefixed with the type name.
    public var debugDescription: String {
        "MarbleError: \(description)"
    }
}
