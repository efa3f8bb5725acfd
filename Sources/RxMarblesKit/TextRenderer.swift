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
            lines.append(indent + nameColumn(input) + streamText(layout, row: row))
            for marks in layout.subscriptionLines[row] {
                lines.append(indent + String(repeating: " ", count: gutter) + subscriptionText(marks, widths: layout.columnWidths).trimmingTrailingSpaces())
            }
        }
        let pad = indent + String(repeating: " ", count: gutter)
        let box = boxCharacters
        for (step, (call, output)) in diagram.steps.enumerated() {
            let inner = " " + call + " "
            let bar = String(repeating: box.horizontal, count: inner.count)
            lines.append(pad + paint(box.topLeft + bar + box.topRight, .dim))
            lines.append(pad + paint(box.vertical, .dim) + paint(inner, .yellow) + paint(box.vertical, .dim))
            lines.append(pad + paint(box.bottomLeft + bar + box.bottomRight, .dim))
            lines.append(indent + nameColumn(output) + streamText(layout, row: diagram.inputs.count + step))
            if diagram.comparesOutputs, step > 0 {
                let differing = diagram.differingFrames(ofStep: step)
                if !differing.isEmpty {
                    let marks = layout.columnWidths.enumerated().map { frame, width in
                        (differing.contains(frame) ? "*" : " ") + String(repeating: " ", count: width - 1)
                    }.joined().trimmingTrailingSpaces()
                    lines.append(pad + paint(marks, .red, bold: true) + "  " + paint("differs from \(diagram.steps[0].output.name)", .dim))
                }
            }
        }
        if !layout.keys.legend.isEmpty {
            lines.append(pad + legendText(layout))
        }
        return lines
    }

    /// One stream as marble text (``MarbleLayout/marbles(row:)``), coloured when the
    /// style has colours: elements by their origin, the line dim.
    public func streamText(_ layout: MarbleLayout, row: Int) -> String {
        guard style == .ansi else { return layout.marbles(row: row) }
        var text = ""
        for (frame, cell) in layout.cells[row].enumerated() {
            let raw = cell.text(keys: layout.keys)
            let fill = String(repeating: " ", count: layout.columnWidths[frame] - raw.count)
            switch cell {
            case .ended: text += raw + fill
            case .line: text += paint(raw, .dim) + fill
            case .subscribed: text += paint(raw, .cyan) + fill
            case .events(let kinds):
                let symbols = zip(kinds, layout.colors[row][frame]).map { kind, color in
                    paintEvent(kind, key: layout.keys.symbol(for: kind), color: color)
                }
                text += (kinds.count == 1 ? symbols[0] : paint("(", .dim) + symbols.joined() + paint(")", .dim)) + fill
            }
        }
        return text.trimmingTrailingSpaces()
    }

    /// What the keys stand for: `a = 10, b = 20`, each key in its element's colour.
    func legendText(_ layout: MarbleLayout) -> String {
        var colorOfKey: [String: Int] = [:]
        for (row, cells) in layout.cells.enumerated() {
            for (frame, cell) in cells.enumerated() {
                guard case .events(let kinds) = cell else { continue }
                for (kind, color) in zip(kinds, layout.colors[row][frame]) where colorOfKey[layout.keys.symbol(for: kind)] == nil {
                    colorOfKey[layout.keys.symbol(for: kind)] = color
                }
            }
        }
        return layout.keys.legend.map { entry in
            let key = colorOfKey[entry.key].map { paint(entry.key, .code(MarblePalette.ansi[$0]), bold: true) } ?? entry.key
            return key + " = " + entry.label
        }.joined(separator: ", ")
    }

    /// One subscription line, each frame padded with spaces to its column width (so
    /// that it stays subscription marble text).
    public func subscriptionText(_ marks: [String], widths: [Int]) -> String {
        var text = ""
        for (frame, mark) in marks.enumerated() {
            let padded = mark + String(repeating: " ", count: widths[frame] - mark.count)
            text += padded.allSatisfy { $0 == " " } ? padded : paint(padded, .dim)
        }
        return text
    }

    private func displayName(_ timeline: Timeline) -> String {
        timeline.isCold && !timeline.name.isEmpty ? timeline.name + " (cold)" : timeline.name
    }

    private func paintEvent(_ kind: MarbleEventKind, key: String, color: Int) -> String {
        switch kind {
        case .next: return paint(key, .code(MarblePalette.ansi[color]), bold: true)
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

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
