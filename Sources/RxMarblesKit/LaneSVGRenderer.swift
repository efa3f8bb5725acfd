import Foundation
import RxLanes
import RxTestCore

/// Draws a lanes diagram as an SVG picture, with the pieces of the operator diagrams: a
/// time arrow per subscription (a line, ending where the subscription ended), a
/// labelled marble per value, a bar for a completion, a red cross for a failure, a
/// dashed grey bar for a disposal, and a caret where the subscription began.
///
/// Entries of one frame are stacked on a shaded band, as the operator diagrams stack
/// them. An idle stretch left out is a grey band across every lane, each lane's line
/// broken there, and the ruler under the lanes gives its length. When the entries
/// arrived on more than one thread, a small numbered tag above an entry says which
/// thread it came on, wherever a lane's thread changes (and at its first entry). Every
/// entry has a tooltip with its value, time and thread.
public struct LaneSVGRenderer: Sendable {
    /// The sizes: a marble's radius and a frame's width are smaller than the operator
    /// diagrams', for recordings have more frames.
    public var metrics: MarbleMetrics
    /// Whether the picture includes its legend (values, failures, threads, marks).
    public var showsLegend: Bool

    /// The sizes lanes are drawn with by default.
    public static var defaultMetrics: MarbleMetrics {
        var metrics = MarbleMetrics()
        metrics.radius = 12
        metrics.frameWidth = 28
        metrics.gap = 3
        return metrics
    }

    /// A renderer.
    public init(metrics: MarbleMetrics = LaneSVGRenderer.defaultMetrics, showsLegend: Bool = true) {
        self.metrics = metrics
        self.showsLegend = showsLegend
    }

    /// The width of a gap column.
    var gapWidth: Int { metrics.frameWidth + 10 }
    /// The vertical distance between the entries of a group.
    var stackStep: Int { 2 * metrics.radius + metrics.gap }
    /// The room above a row for thread tags.
    let tagHeight = 16
    /// The fills of thread tags, by thread index.
    static let threadFills = ["#dce6fb", "#fde0c5", "#d5efd5", "#f5d3ec", "#e4e4e4", "#fff1ad", "#d2f1f4", "#ead9c8"]

    /// Where things are drawn.
    public struct Geometry: Equatable, Sendable {
        /// Where the lines of the lanes may start (a subscription that began earlier
        /// starts here).
        public var axisStart: Int
        /// Where the arrows of lanes still subscribed end.
        public var axisEnd: Int
        /// The left edge of each column.
        public var columnStarts: [Int]
        /// The width of each column.
        public var columnWidths: [Int]
        /// The y of each row's line.
        public var rowAxes: [Int]
        /// The top of each row's band.
        public var rowTops: [Int]
        /// The y of the time ruler.
        public var rulerY: Int
        /// The y where the legend starts.
        public var legendTop: Int

        /// The x of column `column`'s entries.
        public func center(_ column: Int) -> Int {
            columnStarts[column] + columnWidths[column] / 2
        }
    }

    /// How many entries of `cell` are stacked at its x (all but a subscription, drawn
    /// as a caret under the line, and the mark of a subscription that began earlier).
    func stackedCount(_ cell: LaneDiagram.Cell) -> Int {
        cell.marks.filter { mark in
            guard let entry = mark.entry else { return false }
            return entry.kind != .subscribed
        }.count
    }

    /// The geometry of `diagram`'s picture.
    public func geometry(_ diagram: LaneDiagram) -> Geometry {
        let margin = metrics.margin
        let longestName = diagram.rows.map(\.name.count).max() ?? 0
        let axisStart = margin + (longestName == 0 ? 0 : longestName * metrics.characterWidth + 14)
        var starts: [Int] = []
        var widths: [Int] = []
        var x = axisStart + 14
        for column in diagram.columns {
            let width = column.isGap ? gapWidth : metrics.frameWidth
            starts.append(x)
            widths.append(width)
            x += width
        }
        var y = headerHeight(diagram)
        var axes: [Int] = []
        var tops: [Int] = []
        let tags = diagram.showsThreads ? tagHeight : 0
        for row in diagram.rows {
            let stack = max(1, row.cells.map(stackedCount).max() ?? 1)
            tops.append(y)
            axes.append(y + tags + 8 + metrics.radius + (stack - 1) * stackStep / 2)
            y += tags + 8 + 2 * metrics.radius + (stack - 1) * stackStep + 18
        }
        let rulerY = y + 8
        return Geometry(
            axisStart: axisStart, axisEnd: x + 20, columnStarts: starts, columnWidths: widths,
            rowAxes: axes, rowTops: tops, rulerY: rulerY, legendTop: diagram.rows.isEmpty ? y : rulerY + 36
        )
    }

    /// The height of the heading and the dropped-entries notes.
    private func headerHeight(_ diagram: LaneDiagram) -> Int {
        metrics.margin + 22 + 18 * diagram.droppedNotes.count + 6
    }

    /// The SVG document for `diagram`.
    public func render(_ diagram: LaneDiagram) -> String {
        let geometry = geometry(diagram)
        var body = ""
        var y = metrics.margin + 13
        body += "  <text class=\"heading\" x=\"\(metrics.margin)\" y=\"\(y)\" font-size=\"13\" fill=\"#444444\">\(escape(diagram.heading()))</text>\n"
        for note in diagram.droppedNotes {
            y += 18
            body += "  <text class=\"dropped\" x=\"\(metrics.margin)\" y=\"\(y)\" font-size=\"12\" fill=\"#a15c00\">\(escape(note))</text>\n"
        }
        if !diagram.rows.isEmpty {
            body += gapBands(diagram, geometry: geometry)
            for (index, row) in diagram.rows.enumerated() {
                body += self.row(row, diagram: diagram, axisY: geometry.rowAxes[index], geometry: geometry)
            }
            body += ruler(diagram, geometry: geometry)
        }
        // Wide enough for the heading (13 px monospace: 8 px a character) and the notes.
        let textWidth = ([diagram.heading().count * 8] + diagram.droppedNotes.map { $0.count * 15 / 2 }).max() ?? 0
        var width = max(geometry.axisEnd + metrics.margin, textWidth + 2 * metrics.margin, 480)
        var height = geometry.legendTop
        if showsLegend, !diagram.rows.isEmpty {
            let legend = self.legend(diagram, top: geometry.legendTop, width: max(width, 640) - 2 * metrics.margin)
            body += legend.svg
            width = max(width, legend.right + metrics.margin)
            height = legend.bottom
        }
        height += metrics.margin
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="Menlo, Consolas, 'DejaVu Sans Mono', monospace" font-size="14">
          <title>Lanes: \(escape(diagram.heading()))</title>
          <rect class="background" x="0" y="0" width="\(width)" height="\(height)" fill="#ffffff"/>

        """
        out += body
        out += "</svg>\n"
        return out
    }

    /// The grey bands of the gaps, across every lane.
    private func gapBands(_ diagram: LaneDiagram, geometry: Geometry) -> String {
        var out = ""
        let top = (geometry.rowTops.first ?? 0) + 2
        for (index, column) in diagram.columns.enumerated() {
            guard case .gap(_, let count) = column else { continue }
            let duration = LaneDiagram.format(UInt64(count) * diagram.frameDuration)
            out += "  <rect class=\"gap\" data-column=\"\(index)\" x=\"\(geometry.columnStarts[index] + 3)\" y=\"\(top)\" width=\"\(geometry.columnWidths[index] - 6)\" height=\"\(geometry.rulerY - top)\" fill=\"#f1f1f1\"><title>\(escape("idle for \(duration): left out"))</title></rect>\n"
        }
        return out
    }

    private func row(_ row: LaneDiagram.Row, diagram: LaneDiagram, axisY y: Int, geometry: Geometry) -> String {
        let r = metrics.radius
        var out = "  <g class=\"lane\" data-name=\"\(escape(row.name))\" data-lane=\"\(row.lane)\" data-subscription=\"\(row.subscription)\">\n"
        out += "    <text class=\"lane-name\" x=\"\(metrics.margin)\" y=\"\(y + 5)\" fill=\"#777777\">\(escape(row.name))</text>\n"

        // The lifetime: from the subscription to the end, or on to the arrow.
        let firstX = geometry.center(row.firstColumn)
        if row.startedEarlier {
            let x0 = geometry.axisStart
            out += "    <g class=\"started-earlier\"><title>\(escape("\(row.name) was subscribed before the oldest event kept"))</title>"
            out += "<line x1=\"\(x0)\" y1=\"\(y)\" x2=\"\(firstX)\" y2=\"\(y)\" stroke=\"#333333\" stroke-width=\"2\" stroke-dasharray=\"3 3\"/>"
            out += "<path d=\"M \(x0 + 7) \(y - 7) L \(x0) \(y) L \(x0 + 7) \(y + 7)\" stroke=\"#333333\" stroke-width=\"2\" fill=\"none\"/></g>\n"
        }
        if let end = row.endColumn {
            out += "    <line class=\"axis\" x1=\"\(firstX)\" y1=\"\(y)\" x2=\"\(geometry.center(end))\" y2=\"\(y)\" stroke=\"#333333\" stroke-width=\"2\"/>\n"
        } else {
            out += MarbleSVG.axis(from: firstX, to: geometry.axisEnd, y: y)
        }
        // The line broken where a gap crosses it.
        for (column, cell) in row.cells.enumerated() where cell == .gap {
            let x = geometry.center(column)
            out += "    <g class=\"break\"><rect x=\"\(x - 7)\" y=\"\(y - 3)\" width=\"14\" height=\"6\" fill=\"#f1f1f1\"/>"
            out += "<line x1=\"\(x - 8)\" y1=\"\(y + 7)\" x2=\"\(x - 3)\" y2=\"\(y - 7)\" stroke=\"#333333\" stroke-width=\"2\"/>"
            out += "<line x1=\"\(x + 3)\" y1=\"\(y + 7)\" x2=\"\(x + 8)\" y2=\"\(y - 7)\" stroke=\"#333333\" stroke-width=\"2\"/></g>\n"
        }

        var previousThread: Int?
        for (column, cell) in row.cells.enumerated() {
            let entries = cell.marks.compactMap(\.entry)
            guard !entries.isEmpty else { continue }
            let x = geometry.center(column)
            let stacked = entries.filter { $0.kind != .subscribed }
            let top = y - (max(1, stacked.count) - 1) * stackStep / 2
            if stacked.count > 1 {
                let half = r + metrics.gap + 1
                let height = (stacked.count - 1) * stackStep + 2 * half
                out += "    <g class=\"group\" data-column=\"\(column)\" data-count=\"\(stacked.count)\"><rect x=\"\(x - half)\" y=\"\(top - half)\" width=\"\(2 * half)\" height=\"\(height)\" rx=\"\(half)\" fill=\"#e8eaf0\" stroke=\"#9aa0b0\" stroke-dasharray=\"4 3\"/></g>\n"
            }
            if let subscribed = entries.first(where: { $0.kind == .subscribed }) {
                let caretTop = (stacked.isEmpty ? y : top + (stacked.count - 1) * stackStep + r) + 3
                out += "    <g class=\"subscribed\" data-column=\"\(column)\"><title>\(escape(tooltip(subscribed, row: row, diagram: diagram)))</title>"
                out += "<path d=\"M \(x - 6) \(caretTop + 9) L \(x) \(caretTop) L \(x + 6) \(caretTop + 9)\" stroke=\"#333333\" stroke-width=\"2\" fill=\"none\"/></g>\n"
            }
            for (index, entry) in stacked.enumerated() {
                out += mark(entry, row: row, diagram: diagram, column: column, x: x, y: top + index * stackStep)
            }
            // The thread, at the lane's first entry and wherever it changes.
            if diagram.showsThreads {
                let threads = entries.map(\.thread)
                if previousThread == nil || threads.contains(where: { $0 != previousThread }) {
                    out += threadTag(threads, x: x, bottom: top - r - 3, diagram: diagram, column: column)
                }
                previousThread = threads.last
            }
        }
        out += "  </g>\n"
        return out
    }

    /// A stacked entry: a marble, a completion, a failure or a disposal.
    private func mark(_ entry: LaneRecording.Entry, row: LaneDiagram.Row, diagram: LaneDiagram, column: Int, x: Int, y: Int) -> String {
        let r = metrics.radius
        let title = "<title>\(escape(tooltip(entry, row: row, diagram: diagram)))</title>"
        switch entry.kind {
        case .subscribed:
            return ""
        case .next(let value):
            let marble = MarbleSVG.marble(
                diagram.keys.key(for: value), x: x, y: y, radius: r, characterWidth: metrics.characterWidth, frame: column,
                fill: MarblePalette.fill(for: value)
            )
            return "    <g class=\"entry next\">\(title)\n" + marble + "    </g>\n"
        case .error:
            // The cross's own tooltip says all the entry's tooltip would.
            return MarbleSVG.error(tooltip(entry, row: row, diagram: diagram), x: x, y: y, radius: r, frame: column, classes: "entry error")
        case .completed:
            return "    <g class=\"entry completed\">\(title)" + MarbleSVG.completion(x: x, y: y, radius: r, frame: column).trimmingCharacters(in: .whitespacesAndNewlines) + "</g>\n"
        case .disposed:
            return "    <g class=\"entry disposed\" data-frame=\"\(column)\">\(title)<line x1=\"\(x)\" y1=\"\(y - r)\" x2=\"\(x)\" y2=\"\(y + r)\" stroke=\"#888888\" stroke-width=\"3\" stroke-dasharray=\"4 3\"/></g>\n"
        }
    }

    /// A tag with the numbers of `threads`, its bottom at `bottom`.
    private func threadTag(_ threads: [Int], x: Int, bottom: Int, diagram: LaneDiagram, column: Int) -> String {
        var distinct: [Int] = []
        for thread in threads where !distinct.contains(thread) { distinct.append(thread) }
        let text = distinct.map(LaneDiagram.threadNumber).joined(separator: ",")
        let width = max(14, text.count * 7 + 8)
        let names = distinct.map { "thread \(LaneDiagram.threadNumber($0)): \(diagram.threadName($0))" }.joined(separator: "; ")
        let fill = Self.threadFills[(distinct.first ?? 0) % Self.threadFills.count]
        return "    <g class=\"thread\" data-column=\"\(column)\" data-thread=\"\(text)\"><title>\(escape(names))</title>"
            + "<rect x=\"\(x - width / 2)\" y=\"\(bottom - 13)\" width=\"\(width)\" height=\"13\" rx=\"6\" fill=\"\(fill)\" stroke=\"#8890a0\" stroke-width=\"1\"/>"
            + "<text x=\"\(x)\" y=\"\(bottom - 3)\" text-anchor=\"middle\" font-size=\"10\" fill=\"#222222\">\(escape(text))</text></g>\n"
    }

    /// What an entry's tooltip says: the lane, what happened, when and on which thread.
    func tooltip(_ entry: LaneRecording.Entry, row: LaneDiagram.Row, diagram: LaneDiagram) -> String {
        let what: String
        switch entry.kind {
        case .subscribed: what = "subscribed"
        case .next(let value): what = LaneKeys.shortened(value, limit: 300)
        case .error(let description): what = "failed: " + LaneKeys.shortened(description, limit: 300)
        case .completed: what = "completed"
        case .disposed: what = "disposed"
        }
        return "\(row.name): \(what), at \(LaneDiagram.format(entry.time)) on \(diagram.threadName(entry.thread))"
    }

    /// The ruler: a line with the start time, each gap's length, where the drawing
    /// resumes after a gap, and ticks; a label that would overlap one placed before it
    /// is left out.
    private func ruler(_ diagram: LaneDiagram, geometry: Geometry) -> String {
        let y = geometry.rulerY
        var out = "  <g class=\"ruler\" font-size=\"11\" fill=\"#666666\">\n"
        out += "    <line x1=\"\(geometry.axisStart)\" y1=\"\(y)\" x2=\"\(geometry.axisEnd - 8)\" y2=\"\(y)\" stroke=\"#bbbbbb\" stroke-width=\"1\"/>\n"
        out += "    <text x=\"\(metrics.margin)\" y=\"\(y + 16)\" fill=\"#999999\">time</text>\n"
        var placed: [ClosedRange<Int>] = []
        for label in diagram.rulerLabels {
            let text = (label.kind == .gap ? "≈ " : "") + LaneDiagram.format(label.nanoseconds)
            let x = geometry.center(label.column)
            let half = text.count * 7 / 2 + 1
            let span = (x - half)...(x + half)
            guard !placed.contains(where: { $0.overlaps(span) }) else { continue }
            placed.append(span)
            let gap = label.kind == .gap
            out += "    <line x1=\"\(x)\" y1=\"\(y - 3)\" x2=\"\(x)\" y2=\"\(y + 3)\" stroke=\"\(gap ? "#a15c00" : "#999999")\" stroke-width=\"1\"/>"
            out += "<text class=\"\(gap ? "gap-length" : "time")\" x=\"\(x)\" y=\"\(y + 16)\" text-anchor=\"middle\"\(gap ? " fill=\"#a15c00\"" : "")>\(escape(text))</text>\n"
        }
        out += "  </g>\n"
        return out
    }

    /// The legend from `top`, wrapped to `width`: the values' keys as small marbles, the
    /// failures, the threads as tags, and the marks used. Returns its SVG, its lowest y
    /// and its rightmost x.
    private func legend(_ diagram: LaneDiagram, top: Int, width: Int) -> (svg: String, bottom: Int, right: Int) {
        var out = "  <g class=\"legend\" font-size=\"12\" fill=\"#333333\">\n"
        let left = metrics.margin
        let lineHeight = 22
        var y = top
        var right = left
        /// Items that flow after a label, wrapping at `width`.
        func line(_ label: String, _ items: [(width: Int, svg: (Int, Int) -> String)]) {
            guard !items.isEmpty else { return }
            out += "    <text x=\"\(left)\" y=\"\(y + 4)\" fill=\"#777777\">\(escape(label))</text>\n"
            let start = left + label.count * 7 + 10
            var x = start
            for item in items {
                if x > start, x + item.width > left + width {
                    x = start
                    y += lineHeight
                }
                out += item.svg(x, y)
                x += item.width + 16
                right = max(right, x - 16)
            }
            y += lineHeight
        }
        let textWidth = { (text: String) in text.count * 7 }

        var values: [(width: Int, svg: (Int, Int) -> String)] = diagram.keys.legend.map { entry in
            let label = LaneKeys.shortened(entry.label, limit: 48)
            return (22 + textWidth(label), { x, y in
                "    <g class=\"key\"><circle cx=\"\(x + 8)\" cy=\"\(y)\" r=\"8\" fill=\"\(MarblePalette.fill(for: entry.label))\" stroke=\"#333333\" stroke-width=\"1.5\"/>"
                    + "<text x=\"\(x + 8)\" y=\"\(y + 4)\" text-anchor=\"middle\" font-size=\"11\">\(self.escape(entry.key))</text>"
                    + "<text x=\"\(x + 22)\" y=\"\(y + 4)\">\(self.escape(label))</text></g>\n"
            })
        }
        if diagram.keys.overflowCount > 0 {
            let text = LaneKeys.overflowKey + " any of " + LaneDiagram.counted(diagram.keys.overflowCount, "more value")
            values.append((textWidth(text), { x, y in "    <text x=\"\(x)\" y=\"\(y + 4)\">\(self.escape(text))</text>\n" }))
        }
        line("values", values)

        line("failures", diagram.failures.map { failure in
            let text = failure.row + ": " + LaneKeys.shortened(failure.description, limit: 60)
            return (18 + textWidth(text), { x, y in
                MarbleSVG.error(failure.description, x: x + 6, y: y, radius: 9, frame: 0, classes: "key-error")
                    + "    <text x=\"\(x + 18)\" y=\"\(y + 4)\">\(self.escape(text))</text>\n"
            })
        })

        if diagram.showsThreads {
            line("threads", diagram.threadsUsed.map { thread in
                let number = LaneDiagram.threadNumber(thread)
                let name = diagram.threadName(thread)
                let tag = max(14, number.count * 7 + 8)
                return (tag + 6 + textWidth(name), { x, y in
                    "    <g class=\"key-thread\"><rect x=\"\(x)\" y=\"\(y - 7)\" width=\"\(tag)\" height=\"13\" rx=\"6\" fill=\"\(Self.threadFills[thread % Self.threadFills.count])\" stroke=\"#8890a0\" stroke-width=\"1\"/>"
                        + "<text x=\"\(x + tag / 2)\" y=\"\(y + 3)\" text-anchor=\"middle\" font-size=\"10\">\(self.escape(number))</text>"
                        + "<text x=\"\(x + tag + 6)\" y=\"\(y + 4)\">\(self.escape(name))</text></g>\n"
                })
            })
        }

        let renderer = LaneTextRenderer()
        line("marks", renderer.marksUsed(diagram).map { mark in
            let glyph = markGlyph(mark.symbol)
            return (20 + textWidth(mark.meaning), { x, y in
                "    <g class=\"key-mark\">" + glyph(x + 7, y) + "<text x=\"\(x + 20)\" y=\"\(y + 4)\">\(self.escape(mark.meaning))</text></g>\n"
            })
        })
        out += "  </g>\n"
        return (out, y, right)
    }

    /// A small drawing of the mark the text drawing writes as `symbol`, centred at x, y.
    private func markGlyph(_ symbol: String) -> (Int, Int) -> String {
        switch symbol {
        case "^":
            return { x, y in "<path d=\"M \(x - 6) \(y + 5) L \(x) \(y - 4) L \(x + 6) \(y + 5)\" stroke=\"#333333\" stroke-width=\"2\" fill=\"none\"/>" }
        case "|":
            return { x, y in "<line x1=\"\(x)\" y1=\"\(y - 8)\" x2=\"\(x)\" y2=\"\(y + 8)\" stroke=\"#333333\" stroke-width=\"3\"/>" }
        case "#":
            return { x, y in "<line x1=\"\(x - 6)\" y1=\"\(y - 6)\" x2=\"\(x + 6)\" y2=\"\(y + 6)\" stroke=\"#c62828\" stroke-width=\"3\"/><line x1=\"\(x - 6)\" y1=\"\(y + 6)\" x2=\"\(x + 6)\" y2=\"\(y - 6)\" stroke=\"#c62828\" stroke-width=\"3\"/>" }
        case "!":
            return { x, y in "<line x1=\"\(x)\" y1=\"\(y - 8)\" x2=\"\(x)\" y2=\"\(y + 8)\" stroke=\"#888888\" stroke-width=\"3\" stroke-dasharray=\"4 3\"/>" }
        case "<":
            return { x, y in "<path d=\"M \(x + 3) \(y - 7) L \(x - 4) \(y) L \(x + 3) \(y + 7)\" stroke=\"#333333\" stroke-width=\"2\" fill=\"none\"/>" }
        default:
            return { x, y in
                "<rect x=\"\(x - 7)\" y=\"\(y - 7)\" width=\"14\" height=\"14\" fill=\"#f1f1f1\"/>"
                    + "<line x1=\"\(x - 7)\" y1=\"\(y + 7)\" x2=\"\(x - 2)\" y2=\"\(y - 7)\" stroke=\"#333333\" stroke-width=\"2\"/><line x1=\"\(x + 2)\" y1=\"\(y + 7)\" x2=\"\(x + 7)\" y2=\"\(y - 7)\" stroke=\"#333333\" stroke-width=\"2\"/>"
            }
        }
    }

    /// `text` with XML's special characters escaped.
    public func escape(_ text: String) -> String {
        MarbleSVG.escape(text)
    }
}
