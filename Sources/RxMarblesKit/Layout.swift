import RxSwift
import RxTestCore

/// What one stream shows at one frame.
public enum MarbleCell: Equatable, Sendable {
    /// Nothing happens; the stream goes on.
    case line
    /// The stream has ended before this frame.
    case ended
    /// One event or several at the same frame, in order.
    case events([MarbleEventKind])
    /// The stream was subscribed to here (drawn `^`, as in marble text).
    case subscribed

    /// The text of the cell in a marble string, each element written with its key in
    /// `keys`: a key, `|`, `#`, `-`, `^`, a space once the stream has ended, or a group
    /// such as `(ab|)`.
    public func text(keys: MarbleKeys) -> String {
        switch self {
        case .line: return "-"
        case .ended: return " "
        case .subscribed: return "^"
        case .events(let kinds):
            let symbols = kinds.map { keys.symbol(for: $0) }
            return symbols.count == 1 ? symbols[0] : "(" + symbols.joined() + ")"
        }
    }
}

/// How the elements of a diagram are written in marble text, so that every line parses
/// back to the events it shows (RxTestCore's grammar: one character per key).
///
/// A label that is one character with no meaning of its own in marbles is written as
/// itself (`1`, `a`); any other label (`10`, `2a`, a space) gets a letter that no
/// label of the diagram is written as, the same letter wherever it occurs, and the
/// legend says what each letter stands for.
public struct MarbleKeys: Equatable, Sendable {
    /// A key and the label it stands for.
    public struct LegendEntry: Equatable, Sendable {
        /// The key written in the marbles.
        public var key: String
        /// The label it stands for.
        public var label: String
    }

    /// The labels that got a key of their own, in the order of first appearance.
    public let legend: [LegendEntry]
    private let keyOfLabel: [String: String]

    /// The keys for `labels` (in the order they appear in the diagram).
    public init(labels: [String]) {
        let selfWritten = Set(labels.filter(Self.isWrittenAsItself))
        var pool = Self.pool.lazy.map(String.init).filter { !selfWritten.contains($0) }.makeIterator()
        var legend: [LegendEntry] = []
        var keyOfLabel: [String: String] = [:]
        for label in labels where !Self.isWrittenAsItself(label) && keyOfLabel[label] == nil {
            guard let key = pool.next() else {
                rxFatalError("a diagram has more distinct long labels than there are marble keys (\(Self.pool.count))")
            }
            keyOfLabel[label] = key
            legend.append(LegendEntry(key: key, label: label))
        }
        self.legend = legend
        self.keyOfLabel = keyOfLabel
    }

    /// The keys of every element label of `diagram`, inputs first.
    public init(_ diagram: OperatorDiagram) {
        self.init(labels: diagram.timelines.flatMap { timeline in
            timeline.events.compactMap { event -> String? in
                if case .next(let label) = event.kind { return label }
                return nil
            }
        })
    }

    /// No keys: every label written as itself.
    public static let none = MarbleKeys(labels: [])

    /// What `kind` is written as: its label's key, `|` or `#`.
    public func symbol(for kind: MarbleEventKind) -> String {
        if case .next(let label) = kind { return key(for: label) }
        return kind.symbol
    }

    /// The key of `label`: itself, or the letter it was given.
    public func key(for label: String) -> String {
        keyOfLabel[label] ?? label
    }

    /// The label `key` stands for.
    public func label(for key: String) -> String {
        legend.first { $0.key == key }?.label ?? key
    }

    /// Whether `label` can stand for itself in marble text: one character that is
    /// neither a marble symbol, a comma nor a space.
    public static func isWrittenAsItself(_ label: String) -> Bool {
        guard label.count == 1, let character = label.first else { return false }
        return !character.isWhitespace && !Marbles.symbols.contains(character) && character != ","
    }

    /// The keys given to long labels, in order: letters, without `s` and `m`, which
    /// after digits would read as a time progression (`5s`).
    static let pool = Array("abcdefghijklnopqrtuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZαβγδεζηθικλμνξοπρστυφχψω")
}

/// The cells of every stream of a diagram, frame by frame, and how wide each frame is
/// in text columns. A frame is one column unless some stream has a group there (or a
/// subscription mark of several characters): then it is as wide as the widest, and
/// the other streams fill the rest with spaces, which marble text ignores, so that
/// every line still parses to its own events and one typed as `-1--2|` reads the same.
public struct MarbleLayout: Equatable, Sendable {
    /// `cells[row][frame]`; rows are the inputs, then the output.
    public let cells: [[MarbleCell]]
    /// How elements are written (keys for labels longer than one character).
    public let keys: MarbleKeys
    /// The width of each frame in text columns.
    public let columnWidths: [Int]
    /// `colors[row][frame][n]`: the palette index of the `n`th event of that cell (see
    /// ``OperatorDiagram/paletteIndices()``).
    public let colors: [[[Int]]]
    /// For each input, its subscription lines (empty unless asked for): each line is
    /// one text per frame, in the subscription marble syntax (`^` subscribed, `!`
    /// disposed).
    public let subscriptionLines: [[[String]]]

    /// The layout of `diagram`; with `subscriptions`, room is made for the inputs'
    /// subscription lines too.
    public init(_ diagram: OperatorDiagram, subscriptions: Bool = false) {
        let frameCount = diagram.frameCount
        let cells = diagram.timelines.map { MarbleLayout.cells(of: $0, frameCount: frameCount) }
        let lines = diagram.inputs.map { subscriptions ? MarbleLayout.subscriptionLines(of: $0, frameCount: frameCount) : [] }
        let keys = MarbleKeys(diagram)
        self.cells = cells
        self.keys = keys
        self.subscriptionLines = lines
        let indices = diagram.paletteIndices()
        self.colors = zip(diagram.timelines, indices).map { timeline, perEvent in
            var byFrame = [[Int]](repeating: [], count: frameCount)
            for (event, index) in zip(timeline.events, perEvent) where event.frame < frameCount {
                byFrame[event.frame].append(index)
            }
            return byFrame
        }
        self.columnWidths = (0..<frameCount).map { frame in
            let marks = lines.flatMap { $0 }.map { $0[frame].count }
            return (cells.map { $0[frame].text(keys: keys).count } + marks).max() ?? 1
        }
    }

    /// Row `row` as marble text, each frame padded with spaces to its column's width,
    /// without trailing spaces.
    public func marbles(row: Int) -> String {
        var text = ""
        for (frame, cell) in cells[row].enumerated() {
            let raw = cell.text(keys: keys)
            text += raw + String(repeating: " ", count: columnWidths[frame] - raw.count)
        }
        return text.trimmingTrailingSpaces()
    }

    /// The subscriptions of `timeline` as text lines, one text per frame: spans that do
    /// not overlap share a line, in subscription order. Each line is subscription
    /// marble text: `-` for the frames before its last mark, spaces after it.
    public static func subscriptionLines(of timeline: Timeline, frameCount: Int) -> [[String]] {
        packedSubscriptions(of: timeline).map { spans in
            var marks = subscriptionMarks(spans, frameCount: frameCount)
            let last = marks.lastIndex { $0 != " " } ?? -1
            for frame in 0..<max(0, last) where marks[frame] == " " {
                marks[frame] = "-"
            }
            return marks
        }
    }

    /// The marks of one line of subscriptions, a space where none is.
    private static func subscriptionMarks(_ spans: [FrameSpan], frameCount: Int) -> [String] {
        (0..<frameCount).map { frame in
            for span in spans {
                let end = span.end ?? Int.max
                if span.start == frame && end == frame { return "(^!)" }
                if span.start == frame { return "^" }
                if end == frame { return "!" }
                if span.start < frame && frame < end { return "-" }
            }
            return " "
        }
    }

    /// The subscriptions of `timeline` packed into lines: spans that do not overlap
    /// share a line, in subscription order.
    public static func packedSubscriptions(of timeline: Timeline) -> [[FrameSpan]] {
        var packed: [[FrameSpan]] = []
        for span in timeline.subscriptions.sorted(by: { $0.start < $1.start }) {
            if let index = packed.firstIndex(where: { line in
                guard let end = line.last?.end else { return false }
                return end < span.start
            }) {
                packed[index].append(span)
            } else {
                packed.append([span])
            }
        }
        return packed
    }

    /// The number of frames.
    public var frameCount: Int {
        columnWidths.count
    }

    /// The first text column of each frame.
    public var columnOffsets: [Int] {
        var offsets: [Int] = []
        var column = 0
        for width in columnWidths {
            offsets.append(column)
            column += width
        }
        return offsets
    }

    /// The cells of one stream over `frameCount` frames.
    public static func cells(of timeline: Timeline, frameCount: Int) -> [MarbleCell] {
        let end = timeline.terminalFrame
        var result = [MarbleCell](repeating: .line, count: frameCount)
        for frame in 0..<frameCount {
            if let end, frame > end {
                result[frame] = .ended
                continue
            }
            var kinds: [MarbleEventKind] = []
            for event in timeline.events where event.frame == frame {
                kinds.append(event.kind)
                // Nothing is drawn after a terminal event, even at the same frame.
                if event.kind.isTerminal { break }
            }
            if !kinds.isEmpty {
                result[frame] = .events(kinds)
            } else if frame == timeline.zeroFrame {
                result[frame] = .subscribed
            }
        }
        return result
    }
}
