/// What one stream shows at one frame.
public enum MarbleCell: Equatable, Sendable {
    /// Nothing happens; the stream goes on.
    case line
    /// The stream has ended before this frame.
    case ended
    /// One event or several at the same frame, in order.
    case events([MarbleEventKind])
    /// The output was subscribed to here (drawn `^`, as in marble text).
    case subscribed

    /// The text of the cell in a marble string: a label, `|`, `#`, or a group such as
    /// `(ab|)`; labels longer than one character are separated by commas in a group.
    public var text: String {
        switch self {
        case .line: return "-"
        case .ended: return " "
        case .subscribed: return "^"
        case .events(let kinds):
            if kinds.count == 1 { return kinds[0].symbol }
            let symbols = kinds.map(\.symbol)
            let separator = symbols.contains { $0.count > 1 } ? "," : ""
            return "(" + symbols.joined(separator: separator) + ")"
        }
    }

    /// The text columns the cell needs.
    public var columns: Int {
        if case .events(let kinds) = self, kinds.count == 1, kinds[0].symbol.count > 1 {
            return kinds[0].symbol.count + 1
        }
        return text.count
    }
}

/// The cells of every stream of a diagram, frame by frame, and how wide each frame is
/// in text columns (the widest cell of that frame across all streams, so that the
/// streams stay aligned; a label of several characters gets one more column so that
/// it does not run into the next frame's).
public struct MarbleLayout: Equatable, Sendable {
    /// `cells[row][frame]`; rows are the inputs, then the output.
    public let cells: [[MarbleCell]]
    /// The width of each frame in text columns.
    public let columnWidths: [Int]
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
        self.cells = cells
        self.subscriptionLines = lines
        self.columnWidths = (0..<frameCount).map { frame in
            let marks = lines.flatMap { $0 }.map { $0[frame].count }
            return (cells.map { $0[frame].columns } + marks).max() ?? 1
        }
    }

    /// The subscriptions of `timeline` as text lines, one text per frame: spans that do
    /// not overlap share a line, in subscription order.
    public static func subscriptionLines(of timeline: Timeline, frameCount: Int) -> [[String]] {
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
        return packed.map { spans in
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
