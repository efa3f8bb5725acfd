import RxSwift

extension Marbles {
    /// Parses the timeline format of RxSwift's example tests, where keys may be longer
    /// than one character.
    ///
    /// - every character is one tick, starting at 0;
    /// - `-` is a tick with nothing in it;
    /// - a key is a maximal run of characters other than `-`, `|` and `#` (`e1`, `u2`,
    ///   `s1`), at the time of its first character: `values[key]` as a `next` event, or
    ///   `errors[key]` as an `error` event;
    /// - `#` is an `error` event with `errors["#"]`, or ``MarbleDefaultError`` when absent;
    /// - `|` completes the timeline (unless an error already ended it) and starts a new
    ///   one at time 0: `"-a-#|--b|"` gives one array per attempt, for `retry` tests.
    ///
    /// ```
    /// "b1---b2--b3-b4--"  → next(0, b1), next(5, b2), next(9, b3), next(12, b4)
    /// ```
    ///
    /// An empty text gives one empty timeline (RxSwift's helper gives none).
    ///
    /// - Throws: ``MarbleError`` for a key found nowhere, or an event after an error in
    ///   the same timeline.
    public static func parseEventsAndTimes<T>(
        timeline: String,
        values: [String: T],
        errors: [String: Swift.Error] = [:]
    ) throws(MarbleError) -> [[Recorded<Event<T>>]] {
        let chars = Array(timeline)
        let book = MarbleKeyBook(values: values, errors: errors, layout: .rxSwiftTimeline)
        var timelines: [[Recorded<Event<T>>]] = []
        var current: [Recorded<Event<T>>] = []
        var segmentLength = 0
        var time = 0
        var terminal: Int?
        var index = 0

        func append(_ event: Event<T>, at position: Int, token: String) throws(MarbleError) {
            if let first = terminal {
                let problem: MarbleError.Problem = event.isStopEvent
                    ? .secondTerminal(firstTerminalPosition: first)
                    : .eventAfterTerminal(terminalPosition: first)
                throw MarbleError(problem, token: token, position: position, marbles: timeline)
            }
            current.append(Recorded(time: time, value: event, marbleKey: MarbleKey(key: token, book: book)))
            if event.isStopEvent {
                terminal = position
            }
        }

        while index < chars.count {
            switch chars[index] {
            case "-":
                time += 1
                segmentLength += 1
                index += 1
            case "|":
                if terminal == nil {
                    current.append(Recorded(time: time, value: .completed, marbleKey: MarbleKey(key: "|", book: book)))
                }
                timelines.append(current)
                current = []
                segmentLength = 0
                time = 0
                terminal = nil
                index += 1
            case "#":
                try append(.error(errors["#"] ?? MarbleDefaultError(key: "#")), at: index, token: "#")
                time += 1
                segmentLength += 1
                index += 1
            default:
                var end = index
                while end < chars.count, chars[end] != "-", chars[end] != "|", chars[end] != "#" {
                    end += 1
                }
                let key = String(chars[index..<end])
                if let value = values[key] {
                    try append(.next(value), at: index, token: key)
                } else if let error = errors[key] {
                    try append(.error(error), at: index, token: key)
                } else {
                    throw MarbleError(.unknownKey, token: key, position: index, marbles: timeline)
                }
                time += end - index
                segmentLength += end - index
                index = end
            }
        }
        if segmentLength > 0 || timelines.isEmpty {
            timelines.append(current)
        }
        return timelines
    }
}
