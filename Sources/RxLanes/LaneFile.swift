/// The lanes file format, version 1: a recording as lines of text.
///
/// ```
/// rivulet-lanes 1
/// # lanes: index, name, element type, ring capacity, entries dropped
/// lane 0 "email" "String" 10000 0
/// # threads: index, name
/// thread 0 "main"
/// # events: nanoseconds since the start, lane, subscription, thread, kind, value
/// event 0 0 1 0 subscribed
/// event 1250000 0 1 0 next "a@b.co"
/// event 2000000 0 1 0 disposed
/// end 3
/// ```
///
/// The first line names the format and its version. Blank lines and lines starting
/// with `#` are comments. Every lane and thread is declared, with consecutive indices
/// from 0, before an event names it. An event's kind is `subscribed`, `next`, `error`,
/// `completed` or `disposed`; `next` and `error` carry a quoted text. Quoted texts use
/// `\"`, `\\`, `\n`, `\r`, `\t` and `\u{…}`. Events come in the order they were
/// recorded, their times never decreasing. The last line, `end N`, counts the events,
/// so that a file cut short is told apart from a complete one. A file with nothing in it
/// (or only comments) is an empty recording.
extension LaneRecording {
    /// The recording in the lanes file format.
    public var fileText: String {
        var lines = ["rivulet-lanes \(Self.formatVersion)"]
        lines.append("# lanes: index, name, element type, ring capacity, entries dropped")
        for (index, lane) in lanes.enumerated() {
            lines.append("lane \(index) \(LaneFileText.quoted(lane.name)) \(LaneFileText.quoted(lane.elementType)) \(lane.capacity) \(lane.dropped)")
        }
        lines.append("# threads: index, name")
        for (index, thread) in threads.enumerated() {
            lines.append("thread \(index) \(LaneFileText.quoted(thread))")
        }
        lines.append("# events: nanoseconds since the start, lane, subscription, thread, kind, value")
        for entry in entries {
            var line = "event \(entry.time) \(entry.lane) \(entry.subscription) \(entry.thread) "
            switch entry.kind {
            case .subscribed: line += "subscribed"
            case .next(let value): line += "next " + LaneFileText.quoted(value)
            case .error(let description): line += "error " + LaneFileText.quoted(description)
            case .completed: line += "completed"
            case .disposed: line += "disposed"
            }
            lines.append(line)
        }
        lines.append("end \(entries.count)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a recording written in the lanes file format.
    ///
    /// - Throws: ``LaneFileError``, naming the line (and the column, for a quoted text
    ///   left open) and what was wrong there.
    public init(fileText: String) throws {
        var reader = LaneFileReader()
        var lineNumber = 0
        // "\r\n" is one Character: a file saved with Windows line ends splits the same.
        for line in fileText.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            try reader.read(line, at: lineNumber)
        }
        self = try reader.finish()
    }
}

/// Why a lanes file could not be read: the line (from 1), the column (from 1) where it
/// matters, and what was wrong.
public struct LaneFileError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The line the problem is on.
    public var line: Int
    /// The column, for a problem inside a line's text.
    public var column: Int?
    /// What was wrong.
    public var message: String

    /// An error at `line`.
    public init(line: Int, column: Int? = nil, _ message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        "line \(line)" + (column.map { ", column \($0)" } ?? "") + ": " + message
    }
}

/// Quoting of the lanes format's texts: the escapes of a Swift string literal, so that
/// the test writer quotes values the same way.
package enum LaneFileText {
    /// `text` between double quotes, escaped.
    package static func quoted(_ text: String) -> String {
        "\"" + escaped(text, quotes: true) + "\""
    }

    /// `text` with control characters escaped (`\n`, `\u{1}`), and with `quotes`, its
    /// double quotes and backslashes too.
    package static func escaped(_ text: String, quotes: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where quotes: result += "\\\""
            case "\\" where quotes: result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// A word or a quoted text of a line, with the column it starts at (from 1).
    struct Token: Equatable {
        var text: String
        var isQuoted: Bool
        var column: Int
    }

    /// The words and quoted texts of `line`.
    static func tokens(of line: Substring, at lineNumber: Int) throws -> [Token] {
        var tokens: [Token] = []
        let scalars = Array(line.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == " " || scalars[index] == "\t" {
                index += 1
                continue
            }
            let start = index
            if scalars[index] == "\"" {
                index += 1
                var text = String.UnicodeScalarView()
                var closed = false
                while index < scalars.count {
                    let scalar = scalars[index]
                    if scalar == "\"" {
                        closed = true
                        index += 1
                        break
                    }
                    if scalar == "\\" {
                        index += 1
                        guard index < scalars.count else { break }
                        switch scalars[index] {
                        case "\"": text.append("\"")
                        case "\\": text.append("\\")
                        case "n": text.append("\n")
                        case "r": text.append("\r")
                        case "t": text.append("\t")
                        case "u":
                            let (value, next) = try unicodeEscape(scalars, from: index + 1, line: lineNumber)
                            text.append(value)
                            index = next
                            continue
                        default:
                            throw LaneFileError(line: lineNumber, column: index, "unknown escape '\\\(scalars[index])' in a quoted text (known: \\\" \\\\ \\n \\r \\t \\u{…})")
                        }
                        index += 1
                        continue
                    }
                    text.append(scalar)
                    index += 1
                }
                guard closed else {
                    throw LaneFileError(line: lineNumber, column: start + 1, "the quoted text that starts here is not closed: the line ends first")
                }
                tokens.append(Token(text: String(text), isQuoted: true, column: start + 1))
            } else {
                var word = String.UnicodeScalarView()
                while index < scalars.count, scalars[index] != " ", scalars[index] != "\t" {
                    if scalars[index] == "\"" {
                        throw LaneFileError(line: lineNumber, column: index + 1, "a quote inside a word: put a space before the quoted text")
                    }
                    word.append(scalars[index])
                    index += 1
                }
                tokens.append(Token(text: String(word), isQuoted: false, column: start + 1))
            }
        }
        return tokens
    }

    /// The scalar of a `\u{…}` escape whose `{` is at `index`, and the index after its `}`.
    private static func unicodeEscape(_ scalars: [Unicode.Scalar], from index: Int, line: Int) throws -> (Unicode.Scalar, Int) {
        guard index < scalars.count, scalars[index] == "{",
              let close = scalars[index...].firstIndex(of: "}"),
              let value = UInt32(String(String.UnicodeScalarView(scalars[(index + 1)..<close])), radix: 16),
              let scalar = Unicode.Scalar(value)
        else {
            throw LaneFileError(line: line, column: index - 1, "a \\u escape must be \\u{hex digits} naming a Unicode scalar")
        }
        return (scalar, close + 1)
    }
}

/// Reads a lanes file line by line.
struct LaneFileReader {
    private var recording = LaneRecording()
    private var sawHeader = false
    private var endLine: Int?
    private var lastEventLine = 0
    /// The last line with something on it.
    private var lastLine = 0

    mutating func read(_ line: Substring, at number: Int) throws {
        let tokens = try LaneFileText.tokens(of: line, at: number)
        guard let first = tokens.first else { return }
        lastLine = number
        if !first.isQuoted, first.text.hasPrefix("#") { return }
        if let endLine {
            throw LaneFileError(line: number, "nothing may follow the 'end' line (line \(endLine))")
        }
        guard sawHeader else {
            try readHeader(tokens, at: number)
            return
        }
        switch first.isQuoted ? "" : first.text {
        case "lane": try readLane(tokens, at: number)
        case "thread": try readThread(tokens, at: number)
        case "event": try readEvent(tokens, at: number)
        case "end":
            try expectCount(tokens, 2, at: number, shape: "end COUNT")
            let count = try integer(tokens[1], at: number, what: "the count of events")
            guard count == recording.entries.count else {
                throw LaneFileError(line: number, "the 'end' line counts \(count) events, but the file has \(recording.entries.count)")
            }
            endLine = number
        default:
            throw LaneFileError(line: number, column: first.column, "unknown line kind '\(first.text)': expected lane, thread, event or end")
        }
    }

    func finish() throws -> LaneRecording {
        if !sawHeader { return LaneRecording() }
        guard endLine != nil else {
            throw LaneFileError(line: lastLine, "the file ends without its 'end' line: it is cut short (\(recording.entries.count) event\(recording.entries.count == 1 ? "" : "s") read)")
        }
        return recording
    }

    private mutating func readHeader(_ tokens: [LaneFileText.Token], at number: Int) throws {
        guard tokens[0].text == "rivulet-lanes", !tokens[0].isQuoted else {
            throw LaneFileError(line: number, "not a lanes file: the first line must be 'rivulet-lanes \(LaneRecording.formatVersion)', found '\(tokens[0].text)'")
        }
        try expectCount(tokens, 2, at: number, shape: "rivulet-lanes VERSION")
        let version = try integer(tokens[1], at: number, what: "the format version")
        guard version == LaneRecording.formatVersion else {
            throw LaneFileError(line: number, "this file is version \(version) of the lanes format; this version of Rivulet reads version \(LaneRecording.formatVersion)")
        }
        sawHeader = true
    }

    private mutating func readLane(_ tokens: [LaneFileText.Token], at number: Int) throws {
        try expectCount(tokens, 6, at: number, shape: "lane INDEX \"NAME\" \"TYPE\" CAPACITY DROPPED")
        try expectIndex(tokens[1], next: recording.lanes.count, at: number, of: "lane")
        let name = try quoted(tokens[2], at: number, what: "the lane's name")
        let type = try quoted(tokens[3], at: number, what: "the lane's element type")
        let capacity = try integer(tokens[4], at: number, what: "the ring's capacity")
        let dropped = try integer(tokens[5], at: number, what: "the count of dropped entries")
        recording.lanes.append(.init(name: name, elementType: type, capacity: capacity, dropped: dropped))
    }

    private mutating func readThread(_ tokens: [LaneFileText.Token], at number: Int) throws {
        try expectCount(tokens, 3, at: number, shape: "thread INDEX \"NAME\"")
        try expectIndex(tokens[1], next: recording.threads.count, at: number, of: "thread")
        recording.threads.append(try quoted(tokens[2], at: number, what: "the thread's name"))
    }

    private mutating func readEvent(_ tokens: [LaneFileText.Token], at number: Int) throws {
        let shape = "event TIME LANE SUBSCRIPTION THREAD KIND [\"VALUE\"]"
        guard tokens.count >= 6 else {
            throw LaneFileError(line: number, "the event line ends early: expected '\(shape)'")
        }
        let time = try integer(tokens[1], at: number, what: "the time in nanoseconds")
        let lane = try integer(tokens[2], at: number, what: "the lane index")
        let subscription = try integer(tokens[3], at: number, what: "the subscription number")
        let thread = try integer(tokens[4], at: number, what: "the thread index")
        guard lane < recording.lanes.count else {
            throw LaneFileError(line: number, column: tokens[2].column, "lane \(lane) is not declared (\(recording.lanes.count) lanes are)")
        }
        guard subscription >= 1 else {
            throw LaneFileError(line: number, column: tokens[3].column, "subscriptions are counted from 1, found \(subscription)")
        }
        guard thread < recording.threads.count else {
            throw LaneFileError(line: number, column: tokens[4].column, "thread \(thread) is not declared (\(recording.threads.count) threads are)")
        }
        if let previous = recording.entries.last, UInt64(time) < previous.time {
            throw LaneFileError(line: number, column: tokens[1].column, "time \(time) is earlier than the event before it (line \(lastEventLine), time \(previous.time)): events are in the order recorded")
        }
        let kindToken = tokens[5]
        let kind: LaneRecording.Kind
        switch kindToken.isQuoted ? "" : kindToken.text {
        case "subscribed", "completed", "disposed":
            try expectCount(tokens, 6, at: number, shape: "event TIME LANE SUBSCRIPTION THREAD \(kindToken.text)")
            kind = kindToken.text == "subscribed" ? .subscribed : kindToken.text == "completed" ? .completed : .disposed
        case "next", "error":
            try expectCount(tokens, 7, at: number, shape: "event TIME LANE SUBSCRIPTION THREAD \(kindToken.text) \"TEXT\"")
            let text = try quoted(tokens[6], at: number, what: "the \(kindToken.text == "next" ? "element" : "error")'s text")
            kind = kindToken.text == "next" ? .next(text) : .error(text)
        default:
            throw LaneFileError(line: number, column: kindToken.column, "unknown event kind '\(kindToken.text)': expected subscribed, next, error, completed or disposed")
        }
        recording.entries.append(.init(time: UInt64(time), lane: lane, subscription: subscription, thread: thread, kind: kind))
        lastEventLine = number
    }

    private func expectCount(_ tokens: [LaneFileText.Token], _ count: Int, at number: Int, shape: String) throws {
        if tokens.count < count {
            throw LaneFileError(line: number, "the line ends early: expected '\(shape)'")
        }
        if tokens.count > count {
            throw LaneFileError(line: number, column: tokens[count].column, "unexpected '\(tokens[count].text)' after '\(shape)'")
        }
    }

    private func expectIndex(_ token: LaneFileText.Token, next: Int, at number: Int, of what: String) throws {
        let index = try integer(token, at: number, what: "the \(what) index")
        guard index == next else {
            throw LaneFileError(line: number, column: token.column, "\(what) \(index) is out of order: the next \(what) must be \(next)")
        }
    }

    private func integer(_ token: LaneFileText.Token, at number: Int, what: String) throws -> Int {
        guard !token.isQuoted, let value = Int(token.text), value >= 0 else {
            throw LaneFileError(line: number, column: token.column, "expected \(what), a whole number from 0, found '\(token.text)'")
        }
        return value
    }

    private func quoted(_ token: LaneFileText.Token, at number: Int, what: String) throws -> String {
        guard token.isQuoted else {
            throw LaneFileError(line: number, column: token.column, "expected \(what) in double quotes, found '\(token.text)'")
        }
        return token.text
    }
}
