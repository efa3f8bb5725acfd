import RxTestCore

/// Whether text output carries ANSI colours.
public enum TextStyle: Equatable, Sendable {
    /// Plain characters only.
    case plain
    /// ANSI escape sequences for colour and weight.
    case ansi
}

/// Draws marble diagrams as text: one line per stream, the operator call in a box
/// between the inputs and the output.
///
/// ```
/// source  -1--2--3-|
///         ╭─────────────────╮
///         │ map { $0 * 10 } │
///         ╰─────────────────╯
///         -10-20-30-|
/// ```
public struct TextRenderer: Sendable {
    /// Plain text or ANSI colours.
    public var style: TextStyle
    /// Whether each input gets lines showing when it was subscribed to (`^`) and
    /// disposed (`!`).
    public var showSubscriptions: Bool
    /// Whether the operator's box and the headings use ASCII (`+`, `-`, `|`) instead of
    /// box-drawing characters, for terminals and logs that cannot show them.
    public var asciiOnly: Bool

    /// A renderer with `style`.
    public init(style: TextStyle = .plain, showSubscriptions: Bool = false, asciiOnly: Bool = false) {
        self.style = style
        self.showSubscriptions = showSubscriptions
        self.asciiOnly = asciiOnly
    }

    /// The characters the box and the headings are drawn with.
    var boxCharacters: (horizontal: String, vertical: String, topLeft: String, topRight: String, bottomLeft: String, bottomRight: String) {
        asciiOnly ? ("-", "|", "+", "+", "+", "+") : ("─", "│", "╭", "╮", "╰", "╯")
    }

    /// The diagram with a heading line (`name — summary`).
    public func render(_ diagram: OperatorDiagram) -> String {
        var lines = [heading(diagram)]
        lines.append(contentsOf: diagramLines(diagram))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The heading line: the name in bold, then the summary.
    public func heading(_ diagram: OperatorDiagram) -> String {
        paint(diagram.name, .bold) + "  " + paint(diagram.summary, .dim)
    }

    /// The lines of the diagram itself, without heading.
    public func diagramLines(_ diagram: OperatorDiagram) -> [String] {
        let layout = MarbleLayout(diagram, subscriptions: showSubscriptions || diagram.showsSubscriptions)
        let nameWidth = diagram.timelines.map { displayName($0).count }.max() ?? 0
        let indent = "  "
        let gutter = nameWidth > 0 ? nameWidth + 2 : 0
        func nameColumn(_ timeline: Timeline) -> String {
            let name = displayName(timeline)
            let padded = name + String(repeating: " ", count: gutter - name.count)
            return name.isEmpty ? padded : paint(name, .cyan, dim: true) + String(repeating: " ", count: gutter - name.count)
        }

        var lines: [String] = []
        for (row, input) in diagram.inputs.enumerated() {
            lines.append(indent + nameColumn(input) + streamText(layout.cells[row], widths: layout.columnWidths, colored: true).trimmingTrailingSpaces())
            for marks in layout.subscriptionLines[row] {
                lines.append(indent + String(repeating: " ", count: gutter) + subscriptionText(marks, widths: layout.columnWidths).trimmingTrailingSpaces())
            }
        }
        let pad = indent + String(repeating: " ", count: gutter)
        let inner = " " + diagram.call + " "
        let box = boxCharacters
        let bar = String(repeating: box.horizontal, count: inner.count)
        lines.append(pad + paint(box.topLeft + bar + box.topRight, .dim))
        lines.append(pad + paint(box.vertical, .dim) + paint(inner, .yellow) + paint(box.vertical, .dim))
        lines.append(pad + paint(box.bottomLeft + bar + box.bottomRight, .dim))
        let outputRow = layout.cells.count - 1
        lines.append(indent + nameColumn(diagram.output) + streamText(layout.cells[outputRow], widths: layout.columnWidths, colored: true).trimmingTrailingSpaces())
        return lines
    }

    /// One stream as a marble string, each frame padded to the width of its column
    /// with `-` (or spaces once the stream has ended).
    public func streamText(_ cells: [MarbleCell], widths: [Int], colored: Bool = false) -> String {
        var text = ""
        for (frame, cell) in cells.enumerated() {
            let raw = cell.text
            let fillCount = widths[frame] - raw.count
            switch cell {
            case .ended:
                text += String(repeating: " ", count: widths[frame])
            case .line:
                text += paint(String(repeating: "-", count: widths[frame]), .dim, enabled: colored)
            case .subscribed:
                text += paint("^", .cyan, enabled: colored) + paint(String(repeating: "-", count: fillCount), .dim, enabled: colored)
            case .events(let kinds):
                text += colored ? paintEvents(kinds) : raw
                // After a terminal event there is no more line to draw.
                if kinds.last?.isTerminal == true {
                    text += String(repeating: " ", count: fillCount)
                } else {
                    text += paint(String(repeating: "-", count: fillCount), .dim, enabled: colored)
                }
            }
        }
        return text
    }

    /// One subscription line, each frame padded to its column width.
    public func subscriptionText(_ marks: [String], widths: [Int]) -> String {
        var text = ""
        for (frame, mark) in marks.enumerated() {
            let fill = mark == "^" || mark == "-" ? "-" : " "
            let padded = mark + String(repeating: fill, count: widths[frame] - mark.count)
            text += padded.allSatisfy { $0 == " " } ? padded : paint(padded, .dim)
        }
        return text
    }

    private func displayName(_ timeline: Timeline) -> String {
        timeline.isCold && !timeline.name.isEmpty ? timeline.name + " (cold)" : timeline.name
    }

    private func paintEvents(_ kinds: [MarbleEventKind]) -> String {
        let cellText = MarbleCell.events(kinds).text
        guard style == .ansi else { return cellText }
        if kinds.count == 1 { return paintEvent(kinds[0]) }
        let separator = cellText.contains(",") ? paint(",", .dim) : ""
        return paint("(", .dim) + kinds.map(paintEvent).joined(separator: separator) + paint(")", .dim)
    }

    private func paintEvent(_ kind: MarbleEventKind) -> String {
        switch kind {
        case .next(let label): return paint(label, MarblePalette.ansiColor(for: label), bold: true)
        case .completed: return paint("|", .bold)
        case .error: return paint("#", .red, bold: true)
        }
    }

    enum Paint {
        case bold, dim, red, yellow, cyan
        case code(Int)

        var sgr: String {
            switch self {
            case .bold: return "1"
            case .dim: return "2"
            case .red: return "31"
            case .yellow: return "33"
            case .cyan: return "36"
            case .code(let code): return "\(code)"
            }
        }
    }

    private func paint(_ text: String, _ paint: Paint, bold: Bool = false, dim: Bool = false, enabled: Bool = true) -> String {
        guard style == .ansi, enabled, !text.isEmpty else { return text }
        var codes = [paint.sgr]
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        return "\u{1B}[" + codes.joined(separator: ";") + "m" + text + "\u{1B}[0m"
    }
}

extension MarblePalette {
    static func ansiColor(for label: String) -> TextRenderer.Paint {
        .code(ansi[index(for: label)])
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
