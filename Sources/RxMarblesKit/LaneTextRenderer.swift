import RxLanes
import RxTestCore

/// Draws a lanes diagram as text: a heading, a line per subscription on one time axis,
/// a time ruler, and the legend.
///
/// ```
/// 3 lanes, 4 subscriptions, 23 events over 9.87 s (2 ms to 9.87 s); one column = 100 ms, 1 idle stretch left out
///   email       ^a-b-c-d-e--f-g-h-i-j-k     ≈--------------
///   password    ^                           ≈----q-r-s-t-u-
///   enabled     ^f-------------------t-(f)  ≈--------------t-|
///   time        2 ms      1 s               ≈6.5 s  8.6 s
/// ```
///
/// A row shows `^` where its subscription began, its values, and its end: `|`
/// completed, `#` failed, `!` disposed; nothing before the subscription or after the
/// end. Entries of one frame are grouped in parentheses, as marble text groups them.
/// `≈` stands for an idle stretch left out, whose length the ruler gives. When the
/// entries arrived on more than one thread, a line under each row gives the thread of
/// each entry above it, by the number the legend lists it with.
public struct LaneTextRenderer: Sendable {
    /// Plain text or ANSI colours.
    public var style: TextStyle
    /// Whether to use ASCII only: `~` for gaps, `us` for microseconds, `...` for cut text.
    public var asciiOnly: Bool
    /// The width the legend's lines are wrapped to.
    public var legendWidth: Int

    /// A renderer.
    public init(style: TextStyle = .plain, asciiOnly: Bool = false, legendWidth: Int = 100) {
        self.style = style
        self.asciiOnly = asciiOnly
        self.legendWidth = legendWidth
    }

    /// The whole drawing, ending with a line break.
    public func render(_ diagram: LaneDiagram) -> String {
        var lines = [paint(diagram.heading(ascii: asciiOnly), "1")]
        lines += diagram.droppedNotes.map { paint($0, "33") }
        lines += diagramLines(diagram)
        lines += legendLines(diagram)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The symbol drawn for the gap column.
    var gapSymbol: String { asciiOnly ? "~" : "≈" }

    /// The text of `mark`: a value's key, `^`, `|`, `#`, `!` or `<`.
    public func symbol(_ mark: LaneDiagram.Mark, keys: LaneKeys) -> String {
        guard let entry = mark.entry else { return "<" }
        switch entry.kind {
        case .subscribed: return "^"
        case .next(let value): return keys.key(for: value)
        case .error: return "#"
        case .completed: return "|"
        case .disposed: return "!"
        }
    }

    /// The plain text of a cell, before it is padded to its column's width.
    public func cellText(_ cell: LaneDiagram.Cell, keys: LaneKeys) -> String {
        switch cell {
        case .before, .after: return ""
        case .line: return "-"
        case .gap: return gapSymbol
        case .marks(let marks):
            let symbols = marks.map { symbol($0, keys: keys) }
            return symbols.count == 1 ? symbols[0] : "(" + symbols.joined() + ")"
        }
    }

    /// The threads of a cell's entries, by number, for the line under its row.
    public func threadText(_ cell: LaneDiagram.Cell) -> String {
        var numbers: [String] = []
        for entry in cell.marks.compactMap(\.entry) where !numbers.contains(LaneDiagram.threadNumber(entry.thread)) {
            numbers.append(LaneDiagram.threadNumber(entry.thread))
        }
        return numbers.joined(separator: ",")
    }

    /// The width of each column in characters: one, or what its widest cell needs (a
    /// thread number followed by another one needs a space after it).
    public func columnWidths(_ diagram: LaneDiagram) -> [Int] {
        var widths = (0..<diagram.columns.count).map { column in
            diagram.rows.map { cellText($0.cells[column], keys: diagram.keys).count }.max() ?? 1
        }.map { max(1, $0) }
        if diagram.showsThreads {
            for row in diagram.rows {
                let threads = shownThreads(row)
                for (column, text) in threads.enumerated() where !text.isEmpty {
                    let followed = column + 1 < threads.count && !threads[column + 1].isEmpty
                    widths[column] = max(widths[column], text.count + (followed ? 1 : 0))
                }
            }
        }
        return widths
    }

    /// The thread numbers shown under each column of `row`: at its first entry, and
    /// where an entry arrived on another thread than the entry before it; empty
    /// elsewhere, for a number holds until the next.
    public func shownThreads(_ row: LaneDiagram.Row) -> [String] {
        var previous: Int?
        return row.cells.map { cell in
            let threads = cell.marks.compactMap(\.entry).map(\.thread)
            defer { if let last = threads.last { previous = last } }
            guard !threads.isEmpty, previous == nil || threads.contains(where: { $0 != previous }) else { return "" }
            return threadText(cell)
        }
    }

    /// The rows, their thread lines and the ruler, without heading or legend.
    public func diagramLines(_ diagram: LaneDiagram) -> [String] {
        guard !diagram.rows.isEmpty else { return [] }
        let widths = columnWidths(diagram)
        let rulerName = "time"
        let gutter = (diagram.rows.map(\.name.count) + [rulerName.count]).max()! + 2
        let indent = "  "
        func name(_ text: String) -> String {
            paint(text, "36", "2") + String(repeating: " ", count: gutter - text.count)
        }
        var lines: [String] = []
        for row in diagram.rows {
            lines.append((indent + name(row.name) + rowText(row, diagram: diagram, widths: widths)).trimmingTrailingSpaces())
            if diagram.showsThreads {
                lines.append((indent + String(repeating: " ", count: gutter) + threadLine(row, widths: widths)).trimmingTrailingSpaces())
            }
        }
        lines.append((indent + name(rulerName) + ruler(diagram, widths: widths)).trimmingTrailingSpaces())
        return lines
    }

    /// One row: each cell padded to its column's width with the line while subscribed,
    /// with spaces otherwise.
    func rowText(_ row: LaneDiagram.Row, diagram: LaneDiagram, widths: [Int]) -> String {
        var text = ""
        for (column, cell) in row.cells.enumerated() {
            let raw = cellText(cell, keys: diagram.keys)
            let subscribedAfter = column >= row.firstColumn && (row.endColumn.map { column < $0 } ?? true)
            let fill = String(repeating: subscribedAfter ? "-" : " ", count: widths[column] - raw.count)
            text += paintedCell(cell, diagram: diagram) + (subscribedAfter ? paint(fill, "2") : fill)
        }
        return text
    }

    /// A cell in colour: values in their palette colour, failures red, the line dim.
    private func paintedCell(_ cell: LaneDiagram.Cell, diagram: LaneDiagram) -> String {
        guard style == .ansi else { return cellText(cell, keys: diagram.keys) }
        switch cell {
        case .before, .after: return ""
        case .line: return paint("-", "2")
        case .gap: return paint(gapSymbol, "33")
        case .marks(let marks):
            let symbols = marks.map { mark -> String in
                let text = symbol(mark, keys: diagram.keys)
                guard let entry = mark.entry else { return paint(text, "2") }
                switch entry.kind {
                case .subscribed: return paint(text, "36")
                case .next(let value): return paint(text, String(MarblePalette.ansi[MarblePalette.index(for: value)]), "1")
                case .error: return paint(text, "31", "1")
                case .completed: return paint(text, "1")
                case .disposed: return paint(text, "33", "1")
                }
            }
            return symbols.count == 1 ? symbols[0] : paint("(", "2") + symbols.joined() + paint(")", "2")
        }
    }

    /// The line under a row: the thread of its first entry, and the thread of each
    /// entry that arrived on another thread than the entry before it; a number holds
    /// until the next. In colour, the changes are bold.
    func threadLine(_ row: LaneDiagram.Row, widths: [Int]) -> String {
        var text = ""
        for (column, raw) in shownThreads(row).enumerated() {
            let change = !raw.isEmpty && row.cells[..<column].contains { !$0.marks.compactMap(\.entry).isEmpty }
            text += paint(raw, change ? "1" : "2") + String(repeating: " ", count: widths[column] - raw.count)
        }
        return text
    }

    /// The time ruler: the start time, each gap's duration (`≈6.5 s`), where the drawing
    /// resumes after a gap, and ticks, each starting under its column; a label that
    /// would touch one placed before it is left out.
    func ruler(_ diagram: LaneDiagram, widths: [Int]) -> String {
        var offsets: [Int] = []
        var position = 0
        for width in widths {
            offsets.append(position)
            position += width
        }
        var line: [Character] = []
        var placed: [(range: Range<Int>, text: String, gap: Bool)] = []
        for label in diagram.rulerLabels {
            let text = (label.kind == .gap ? gapSymbol : "") + LaneDiagram.format(label.nanoseconds, ascii: asciiOnly)
            let start = offsets[label.column]
            let range = start..<(start + text.count)
            let touches = placed.contains { $0.range.lowerBound <= range.upperBound && range.lowerBound <= $0.range.upperBound }
            guard !touches else { continue }
            placed.append((range, text, label.kind == .gap))
            if line.count < range.upperBound { line += Array(repeating: " ", count: range.upperBound - line.count) }
            line.replaceSubrange(range, with: Array(text))
        }
        guard style == .ansi else { return String(line) }
        var text = ""
        var cursor = 0
        for label in placed.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            text += String(line[cursor..<label.range.lowerBound]) + paint(label.text, label.gap ? "33" : "2")
            cursor = label.range.upperBound
        }
        return text
    }

    /// The legend: what the keys stand for, the failures, the threads, and the marks used.
    public func legendLines(_ diagram: LaneDiagram) -> [String] {
        guard !diagram.rows.isEmpty else { return [] }
        var lines: [String] = []
        let ellipsis = asciiOnly
        var values = diagram.keys.legend.map { entry in
            paint(entry.key, String(MarblePalette.ansi[MarblePalette.index(for: entry.label)]), "1") + " = "
                + LaneKeys.shortened(entry.label, ascii: ellipsis)
        }
        if diagram.keys.overflowCount > 0 {
            values.append(LaneKeys.overflowKey + " = any of " + LaneDiagram.counted(diagram.keys.overflowCount, "more value"))
        }
        lines += wrapped("values: ", values)
        lines += wrapped("failures: ", diagram.failures.map { $0.row + " " + paint("#", "31", "1") + " " + LaneKeys.shortened($0.description, limit: 60, ascii: ellipsis) })
        if diagram.showsThreads {
            lines += wrapped("threads: ", diagram.threadsUsed.map { LaneDiagram.threadNumber($0) + " = " + diagram.threadName($0) })
            lines.append(String(repeating: " ", count: "  threads: ".count) + paint("under a lane: the thread of its first event, then wherever it changes", "2"))
        }
        lines += wrapped("marks: ", marksUsed(diagram).map { $0.symbol + " " + $0.meaning })
        return lines
    }

    /// The marks the drawing uses, with what each means.
    func marksUsed(_ diagram: LaneDiagram) -> [(symbol: String, meaning: String)] {
        var kinds: Set<String> = []
        for row in diagram.rows {
            for cell in row.cells {
                switch cell {
                case .gap: kinds.insert("gap")
                case .marks(let marks):
                    for mark in marks {
                        switch mark.entry?.kind {
                        case nil: kinds.insert("earlier")
                        case .subscribed?: kinds.insert("subscribed")
                        case .next?: break
                        case .error?: kinds.insert("error")
                        case .completed?: kinds.insert("completed")
                        case .disposed?: kinds.insert("disposed")
                        }
                    }
                default: break
                }
            }
        }
        let all: [(kind: String, symbol: String, meaning: String)] = [
            ("subscribed", "^", "subscribed"),
            ("completed", "|", "completed"),
            ("error", "#", "failed"),
            ("disposed", "!", "disposed"),
            ("earlier", "<", "subscribed before the oldest event kept"),
            ("gap", gapSymbol, "idle time left out"),
        ]
        return all.filter { kinds.contains($0.kind) }.map { ($0.symbol, $0.meaning) }
    }

    /// `items` after `label`, separated by commas, on lines no wider than
    /// ``legendWidth`` where they fit, the lines after the first indented under the
    /// first item. No line when there are no items.
    func wrapped(_ label: String, _ items: [String]) -> [String] {
        guard !items.isEmpty else { return [] }
        let indent = "  "
        let hanging = String(repeating: " ", count: indent.count + label.count)
        var lines: [String] = []
        var line = indent + paint(label, "2")
        var visible = indent.count + label.count
        for (index, item) in items.enumerated() {
            let text = item + (index + 1 < items.count ? "," : "")
            let width = Self.visibleCount(text)
            if visible > hanging.count, visible + 1 + width > legendWidth {
                lines.append(line)
                line = hanging
                visible = hanging.count
            }
            if visible > hanging.count {
                line += " "
                visible += 1
            }
            line += text
            visible += width
        }
        lines.append(line)
        return lines
    }

    /// The characters of `text` that show: without ANSI escape sequences.
    static func visibleCount(_ text: String) -> Int {
        var count = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                count += 1
            }
        }
        return count
    }

    /// `text` with the ANSI attributes `codes` when the style has colours.
    private func paint(_ text: String, _ codes: String...) -> String {
        guard style == .ansi, !text.isEmpty else { return text }
        return "\u{1B}[" + codes.joined(separator: ";") + "m" + text + "\u{1B}[0m"
    }
}
