import RxSwift

/// Event marbles read into events whose keys are not yet looked up: what the text says,
/// independent of any element type.
public struct MarbleTimeline: Hashable, Sendable {
    /// One event of the text.
    public struct Entry: Hashable, Sendable {
        /// What happens.
        public enum Kind: Hashable, Sendable {
            /// A key: a `next` event, or an `error` event when the key names an error.
            case key(Character)
            /// `#`.
            case error
            /// `|`.
            case completed
        }

        /// What happens.
        public let kind: Kind
        /// When, in ticks from the zero point (`^`, or else the first frame).
        public let time: TestTime
        /// The 0-based position of its character in the text.
        public let position: Int

        /// An entry of `kind` at `time`, written at `position`.
        public init(kind: Kind, time: TestTime, position: Int) {
            self.kind = kind
            self.time = time
            self.position = position
        }
    }

    /// The text it was read from.
    public let marbles: String
    /// The events in text order (which is time order).
    public let entries: [Entry]
    /// The 0-based position of `^`, if the text has one.
    public let zeroPosition: Int?

    /// A timeline of `entries` read from `marbles`.
    public init(marbles: String, entries: [Entry], zeroPosition: Int?) {
        self.marbles = marbles
        self.entries = entries
        self.zeroPosition = zeroPosition
    }
}

extension Marbles {
    /// Reads event marbles without looking keys up (see ``Marbles`` for the grammar).
    ///
    /// - Parameters:
    ///   - marbles: The diagram, e.g. `"--a-(bc)-|"`.
    ///   - frame: Ticks per frame.
    ///   - resolution: Seconds per tick, for time progressions such as `10ms`.
    /// - Returns: The events, timed in ticks from the zero point.
    /// - Throws: ``MarbleError`` for malformed text; an `|` or `#` followed by another
    ///   event is one, error keys are checked once their meaning is known.
    public static func parseTimeline(_ marbles: String, frame: TestTime = 1, resolution: Double = 1) throws(MarbleError) -> MarbleTimeline {
        try readTimeline(marbles, frame: frame, resolution: resolution).timeline
    }

    /// The timeline of `marbles`, and the ticks from its first frame to its zero point.
    private static func readTimeline(_ marbles: String, frame: TestTime, resolution: Double) throws(MarbleError) -> (timeline: MarbleTimeline, ticksBeforeZero: TestTime) {
        var zero: (position: Int, time: TestTime)?
        var entries: [MarbleTimeline.Entry] = []
        let chars = Array(marbles)
        try walkFrames(chars, marbles: marbles, frame: frame, resolution: resolution) { char, index, time throws(MarbleError) in
            switch char {
            case "^":
                if let zero {
                    throw symbolError(.unexpectedCharacter(reason: "there can be only one subscription point, and one is at position \(zero.position)"), at: index, chars: chars, marbles: marbles)
                }
                zero = (index, time)
            case "!":
                throw symbolError(.unexpectedCharacter(reason: "'!' marks a disposal and only belongs in subscription marbles"), at: index, chars: chars, marbles: marbles)
            case "|":
                entries.append(MarbleTimeline.Entry(kind: .completed, time: time, position: index))
            case "#":
                entries.append(MarbleTimeline.Entry(kind: .error, time: time, position: index))
            default:
                entries.append(MarbleTimeline.Entry(kind: .key(char), time: time, position: index))
            }
        }
        try checkTerminals(entries.map { ($0.position, $0.kind.isSymbolTerminal) }, chars: chars, marbles: marbles)
        let shift = zero?.time ?? 0
        let shifted = entries.map { MarbleTimeline.Entry(kind: $0.kind, time: $0.time - shift, position: $0.position) }
        return (MarbleTimeline(marbles: marbles, entries: shifted, zeroPosition: zero?.position), shift)
    }

    /// Parses event marbles into recorded events (see ``Marbles`` for the grammar).
    ///
    /// ```
    /// "-a-(bc)-|"  with values ["a": 1, "b": 2, "c": 3]
    /// → .next(1, 1), .next(3, 2), .next(3, 3), .completed(5)
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram.
    ///   - values: The element of each single-character key.
    ///   - errors: The error of `#` and of any other key that stands for an error.
    ///   - frame: Ticks per frame.
    ///   - resolution: Seconds per tick, for time progressions such as `10ms`.
    ///   - origin: The virtual time of the zero point (`^`, or else the first frame).
    /// - Throws: ``MarbleError`` for malformed text or a key found nowhere.
    public static func parse<T>(
        _ marbles: String,
        values: [String: T],
        errors: [String: Swift.Error] = [:],
        frame: TestTime = 1,
        resolution: Double = 1,
        origin: TestTime = 0
    ) throws(MarbleError) -> [Recorded<Event<T>>] {
        try parseKeyed(marbles, values: values, errors: errors, frame: frame, resolution: resolution, origin: origin).events
    }

    /// Parses event marbles into recorded events that carry the keys they were written
    /// with, and returns the keys of the whole text with them (for a failure to draw
    /// other events with, even when the text has no event).
    package static func parseKeyed<T>(
        _ marbles: String,
        values: [String: T],
        errors: [String: Swift.Error],
        frame: TestTime,
        resolution: Double,
        origin: TestTime
    ) throws(MarbleError) -> (events: [Recorded<Event<T>>], keys: MarbleKeyBook) {
        let (timeline, ticksBeforeZero) = try readTimeline(marbles, frame: frame, resolution: resolution)
        let (start, overflow) = origin.subtractingReportingOverflow(ticksBeforeZero)
        let layout = MarbleLayout(
            frame: frame, zero: origin, start: overflow ? origin : start,
            marksZero: timeline.zeroPosition != nil, keysSpanTicks: false
        )
        let book = MarbleKeyBook(values: values, errors: errors, layout: layout)
        return (try resolve(timeline, values: values, errors: errors, origin: origin, book: book), book)
    }

    /// Parses event marbles whose keys are their own `String` values: `"-a-b-|"` gives
    /// `.next(1, "a"), .next(3, "b"), .completed(5)`.
    public static func parse(
        _ marbles: String,
        errors: [String: Swift.Error] = [:],
        frame: TestTime = 1,
        resolution: Double = 1,
        origin: TestTime = 0
    ) throws(MarbleError) -> [Recorded<Event<String>>] {
        try parse(marbles, values: [String: String](), errors: errors, frame: frame, resolution: resolution, origin: origin)
    }

    /// Looks up the keys of a parsed timeline.
    ///
    /// - Throws: ``MarbleError`` for a key found nowhere, a key of `values` or `errors`
    ///   that is not one character, or an event after an error key.
    public static func resolve<T>(
        _ timeline: MarbleTimeline,
        values: [String: T],
        errors: [String: Swift.Error] = [:],
        origin: TestTime = 0
    ) throws(MarbleError) -> [Recorded<Event<T>>] {
        try resolve(timeline, values: values, errors: errors, origin: origin, book: MarbleKeyBook(values: values, errors: errors, layout: nil))
    }

    /// Looks up the keys of a parsed timeline; each event carries its key and `book`.
    private static func resolve<T>(
        _ timeline: MarbleTimeline,
        values: [String: T],
        errors: [String: Swift.Error],
        origin: TestTime,
        book: MarbleKeyBook
    ) throws(MarbleError) -> [Recorded<Event<T>>] {
        let marbles = timeline.marbles
        for key in values.keys {
            try checkKey(key, in: "values", marbles: marbles, allowingErrorSymbol: false)
        }
        for key in errors.keys {
            try checkKey(key, in: "errors", marbles: marbles, allowingErrorSymbol: true)
        }
        var events: [Recorded<Event<T>>] = []
        events.reserveCapacity(timeline.entries.count)
        var terminals: [(position: Int, isTerminal: Bool)] = []
        let chars = Array(marbles)
        for entry in timeline.entries {
            let time = try advance(entry.time, by: origin, at: entry.position, in: chars, marbles: marbles)
            switch entry.kind {
            case .completed:
                events.append(Recorded(time: time, value: .completed, marbleKey: MarbleKey(key: "|", book: book)))
            case .error:
                let written = MarbleKey(key: "#", book: book)
                events.append(Recorded(time: time, value: .error(errors["#"] ?? MarbleDefaultError(key: "#")), marbleKey: written))
            case .key(let char):
                let key = String(char)
                let written = MarbleKey(key: key, book: book)
                if let value = values[key] {
                    events.append(Recorded(time: time, value: .next(value), marbleKey: written))
                } else if let error = errors[key] {
                    events.append(Recorded(time: time, value: .error(error), marbleKey: written))
                } else if let value = keyAsValue(char, T.self) {
                    events.append(Recorded(time: time, value: .next(value), marbleKey: written))
                } else {
                    throw MarbleError(.unknownKey, token: key, position: entry.position, marbles: marbles)
                }
            }
            terminals.append((entry.position, events[events.count - 1].value.isStopEvent))
        }
        try checkTerminals(terminals, chars: chars, marbles: marbles)
        return events
    }

    /// Parses subscription marbles (`^` subscribed, `!` disposed) into subscriptions.
    ///
    /// ```
    /// "--^---!"        → Subscription(2, 6)
    /// "^-!-^--"        → Subscription(0, 2), Subscription(4)   (still subscribed)
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram.
    ///   - frame: Ticks per frame.
    ///   - resolution: Seconds per tick, for time progressions.
    ///   - origin: The virtual time of the first frame.
    /// - Throws: ``MarbleError`` for anything but `-`, `^`, `!`, groups, spaces and time
    ///   progressions, a `^` while subscribed, or a `!` while not.
    public static func parseSubscriptions(
        _ marbles: String,
        frame: TestTime = 1,
        resolution: Double = 1,
        origin: TestTime = 0
    ) throws(MarbleError) -> [Subscription] {
        var open: (position: Int, time: TestTime)?
        var subscriptions: [Subscription] = []
        let chars = Array(marbles)
        try walkFrames(chars, marbles: marbles, frame: frame, resolution: resolution) { char, index, time throws(MarbleError) in
            switch char {
            case "^":
                if let open {
                    throw symbolError(.unexpectedCharacter(reason: "the subscription at position \(open.position) has no '!' yet"), at: index, chars: chars, marbles: marbles)
                }
                open = (index, time)
            case "!":
                guard let subscribed = open else {
                    throw symbolError(.unexpectedCharacter(reason: "'!' needs a subscription '^' before it"), at: index, chars: chars, marbles: marbles)
                }
                subscriptions.append(Subscription(
                    try advance(subscribed.time, by: origin, at: subscribed.position, in: chars, marbles: marbles),
                    try advance(time, by: origin, at: index, in: chars, marbles: marbles)
                ))
                open = nil
            default:
                throw symbolError(.unexpectedCharacter(reason: "subscription marbles hold only '-', '^', '!', groups, spaces and time progressions"), at: index, chars: chars, marbles: marbles)
            }
        }
        if let open {
            subscriptions.append(Subscription(try advance(open.time, by: origin, at: open.position, in: chars, marbles: marbles)))
        }
        return subscriptions
    }

    // MARK: - Shared pieces

    /// Walks marble text frame by frame, for event and subscription marbles alike: time
    /// progressions, spaces, `-` and groups are handled here, and every other character
    /// goes to `symbol` with its index and the time of its frame. Outside a group a
    /// symbol then takes up one frame; a group takes up one frame as a whole.
    static func walkFrames(
        _ chars: [Character],
        marbles: String,
        frame: TestTime,
        resolution: Double,
        symbol: (_ char: Character, _ index: Int, _ time: TestTime) throws(MarbleError) -> Void
    ) throws(MarbleError) {
        guard frame > 0 else {
            throw MarbleError(.invalidFrame, token: "\(frame)", position: nil, marbles: marbles)
        }
        var time = 0
        var group: Int?
        var index = 0
        while index < chars.count {
            if let progression = timeProgression(in: chars, at: index) {
                if let group {
                    throw groupNotClosed(chars, group: group, at: progression.upperBound, marbles: marbles)
                        ?? MarbleError(.badTimeProgression(reason: "time cannot pass inside a group"), token: String(chars[progression]), position: index, marbles: marbles)
                }
                time = try advance(time, by: ticks(of: chars, progression, resolution: resolution, marbles: marbles), at: index, in: chars, marbles: marbles)
                index = progression.upperBound
                continue
            }
            let char = chars[index]
            if char.isWhitespace {
                index += 1
                continue
            }
            switch char {
            case "-":
                if let group {
                    throw groupNotClosed(chars, group: group, at: index, marbles: marbles)
                        ?? symbolError(.unexpectedCharacter(reason: "a group is a single frame, so '-' cannot be inside one"), at: index, chars: chars, marbles: marbles)
                }
                time = try advance(time, by: frame, at: index, in: chars, marbles: marbles)
            case "(":
                if group != nil {
                    throw symbolError(.nestedGroup, at: index, chars: chars, marbles: marbles)
                }
                group = index
            case ")":
                if group == nil {
                    throw symbolError(.unbalancedGroupEnd, at: index, chars: chars, marbles: marbles)
                }
                group = nil
                time = try advance(time, by: frame, at: index, in: chars, marbles: marbles)
            default:
                try symbol(char, index, time)
                if group == nil { time = try advance(time, by: frame, at: index, in: chars, marbles: marbles) }
            }
            index += 1
        }
        if let group {
            throw symbolError(.unbalancedGroupStart, at: group, chars: chars, marbles: marbles)
        }
    }

    /// The error `problem` about the character at `position` of `marbles`.
    static func symbolError(_ problem: MarbleError.Problem, at position: Int, chars: [Character], marbles: String) -> MarbleError {
        MarbleError(problem, token: String(chars[position]), position: position, marbles: marbles)
    }

    /// `time + ticks`, or a ``MarbleError`` naming the character at `position` when the
    /// sum does not fit in a `TestTime` (huge frames, time progressions or origins).
    static func advance(_ time: TestTime, by ticks: TestTime, at position: Int, in chars: [Character], marbles: String) throws(MarbleError) -> TestTime {
        let (sum, overflow) = time.addingReportingOverflow(ticks)
        if overflow {
            let token = chars.indices.contains(position) ? String(chars[position]) : ""
            throw MarbleError(.timeOutOfRange, token: token, position: position, marbles: marbles)
        }
        return sum
    }

    /// The key itself as the value, for `String` and `Character` elements.
    static func keyAsValue<T>(_ char: Character, _ type: T.Type) -> T? {
        if T.self == String.self {
            return String(char) as? T
        }
        if T.self == Character.self {
            return char as? T
        }
        return nil
    }

    static func checkKey(_ key: String, in dictionary: String, marbles: String, allowingErrorSymbol: Bool) throws(MarbleError) {
        guard key.count == 1, let char = key.first else {
            throw MarbleError(.invalidKey(reason: "keys of \(dictionary) are single characters"), token: key, position: nil, marbles: marbles)
        }
        if char.isWhitespace || (symbols.contains(char) && !(allowingErrorSymbol && char == "#")) {
            throw MarbleError(.invalidKey(reason: "it is a marble symbol, not a key"), token: key, position: nil, marbles: marbles)
        }
    }

    /// The error for a group that no `)` after `index` closes, if none does: time that
    /// passes inside a group most likely means the `)` was forgotten.
    static func groupNotClosed(_ chars: [Character], group: Int, at index: Int, marbles: String) -> MarbleError? {
        if chars[index...].contains(")") {
            return nil
        }
        return MarbleError(.unbalancedGroupStart, token: "(", position: group, marbles: marbles)
    }

    /// Fails for a terminal event followed by anything.
    static func checkTerminals(_ events: [(position: Int, isTerminal: Bool)], chars: [Character], marbles: String) throws(MarbleError) {
        var terminal: Int?
        for event in events {
            if let first = terminal {
                let token = String(chars[event.position])
                if event.isTerminal {
                    throw MarbleError(.secondTerminal(firstTerminalPosition: first), token: token, position: event.position, marbles: marbles)
                }
                throw MarbleError(.eventAfterTerminal(terminalPosition: first), token: token, position: event.position, marbles: marbles)
            }
            if event.isTerminal {
                terminal = event.position
            }
        }
    }

    /// The range of a time progression starting at `index`: a run of non-space
    /// characters, after a space or the start, that begins with a digit and ends in
    /// `ms`, `s` or `m` with only digits and dots before.
    static func timeProgression(in chars: [Character], at index: Int) -> Range<Int>? {
        guard chars[index].isASCII, chars[index].isNumber else { return nil }
        guard index == 0 || chars[index - 1].isWhitespace else { return nil }
        var end = index
        while end < chars.count, !chars[end].isWhitespace {
            end += 1
        }
        return looksLikeTimeProgression(chars[index..<end]) ? index..<end : nil
    }

    static func looksLikeTimeProgression(_ token: ArraySlice<Character>) -> Bool {
        guard let number = splitUnit(token)?.number, !number.isEmpty else { return false }
        return number.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == "." }
    }

    static func splitUnit(_ token: ArraySlice<Character>) -> (number: ArraySlice<Character>, seconds: Double)? {
        if token.count >= 2, token.suffix(2).elementsEqual("ms") {
            return (token.dropLast(2), 0.001)
        }
        if token.last == "s" {
            return (token.dropLast(), 1)
        }
        if token.last == "m" {
            return (token.dropLast(), 60)
        }
        return nil
    }

    /// The ticks a time progression stands for.
    static func ticks(of chars: [Character], _ range: Range<Int>, resolution: Double, marbles: String) throws(MarbleError) -> TestTime {
        let token = chars[range]
        let text = String(token)
        func fail(_ reason: String) -> MarbleError {
            MarbleError(.badTimeProgression(reason: reason), token: text, position: range.lowerBound, marbles: marbles)
        }
        guard let (number, unit) = splitUnit(token) else {
            throw fail("expected a number followed by ms, s or m")
        }
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty }), let amount = Double(String(number)) else {
            throw fail("expected a number such as 10 or 1.5 followed by ms, s or m")
        }
        guard resolution > 0, resolution.isFinite else {
            throw fail("the resolution \(resolution) is not a positive number of seconds")
        }
        let exact = amount * unit / resolution
        let rounded = exact.rounded()
        guard abs(exact - rounded) <= 1e-9 * max(1, abs(exact)), rounded < Double(Int.max / 4) else {
            throw fail("it is \(exact) ticks at a resolution of \(resolution) seconds per tick, not a whole number")
        }
        return Int(rounded)
    }
}

extension MarbleTimeline.Entry.Kind {
    var isSymbolTerminal: Bool {
        switch self {
        case .key: return false
        case .error, .completed: return true
        }
    }
}
