import Foundation
import RxSwift

/// A picture of a failed comparison of recorded events: the expected and the actual
/// timeline on shared frames, the first difference marked with a band and red outlines,
/// the virtual time under every frame where something happens.
public enum FailureDiagram {
    // The marble sizes of every marble picture; the rows are taller than the tool's, to
    // leave room for the band that marks the first difference.
    static let radius = MarbleMetrics().radius
    static let frameWidth = MarbleMetrics().frameWidth
    static let characterWidth = MarbleMetrics().characterWidth
    static let rowHeight = 60
    static let margin = MarbleMetrics().margin
    static let gap = MarbleMetrics().gap
    static let red = "#c62828"

    /// The SVG document comparing `actual` with `expected`, headed by `title` (the
    /// test's name).
    public static func svg<T: Equatable>(actual: [Recorded<Event<T>>], expected: [Recorded<Event<T>>], title: String) -> String {
        let index = firstDifferenceIndex(actual, expected) ?? min(actual.count, expected.count)
        let times = (expected + actual).map(\.time)
        let origin = Marbles.failureOrigin(of: times)
        let step = max(1, Marbles.render(timelines: [expected, actual], origin: origin).frame)
        let rows = [expected, actual].map { events in
            events.map { record in (frame: (record.time - origin) / step, symbol: Symbol(record.value)) }
        }
        let differenceTime = [index < expected.count ? expected[index].time : nil, index < actual.count ? actual[index].time : nil]
            .compactMap { $0 }.min()
        let differenceFrame = differenceTime.map { ($0 - origin) / step }
        let frameCount = max((rows.flatMap { $0.map(\.frame) }.max() ?? 0) + 2, (differenceFrame ?? 0) + 2)

        // Each frame as wide as the widest group of events there, in either row.
        let labelWidth = "expected".count * characterWidth + 14
        var anchors: [Int] = []
        var x = margin + labelWidth + 10
        for frame in 0..<frameCount {
            let widest = rows.map { row in
                let widths = row.filter { $0.frame == frame }.map { $0.symbol.width }
                return widths.reduce(0, +) + gap * max(0, widths.count - 1)
            }.max() ?? 0
            let width = max(frameWidth, widest + 8)
            anchors.append(x + (widest == 0 ? width / 2 : (rows.compactMap { $0.first { $0.frame == frame }?.symbol.width }.max() ?? 0) / 2 + 4))
            x += width
        }
        let axisStart = margin + labelWidth
        let axisEnd = x + 14
        let expectedAt = index < expected.count ? "\(expected[index])" : "nothing"
        let actualAt = index < actual.count ? "\(actual[index])" : "nothing"
        let headline = "Recorded events differ at index \(index): expected \(expectedAt), got \(actualAt)"
        // The title is bold and a point larger than the headline.
        let width = max(axisEnd + margin, 2 * margin + max(title.count * (characterWidth + 1), headline.count * characterWidth))
        let top = margin + 50
        let axes = [top + 24 + rowHeight / 2, top + 24 + rowHeight + rowHeight / 2]
        let height = axes[1] + rowHeight / 2 + 54

        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="Menlo, Consolas, 'DejaVu Sans Mono', monospace" font-size="14">
          <title>\(MarbleSVG.escape(title))</title>
          <rect class="background" x="0" y="0" width="\(width)" height="\(height)" fill="#ffffff"/>
          <text class="test-name" x="\(margin)" y="\(margin + 14)" font-weight="bold" font-size="15" fill="#222222">\(MarbleSVG.escape(title))</text>
          <text class="headline" x="\(margin)" y="\(margin + 36)" fill="\(red)">\(MarbleSVG.escape(headline))</text>

        """
        if let differenceFrame, differenceFrame < anchors.count, let differenceTime {
            // The frame's column, widened to hold its marbles and their outlines.
            let anchor = anchors[differenceFrame]
            var left = anchor - frameWidth / 2 - 4
            var right = anchor + frameWidth / 2 + 4
            for row in rows {
                let widths = row.filter { $0.frame == differenceFrame }.map(\.symbol.width)
                guard let first = widths.first else { continue }
                let start = anchor - first / 2
                left = min(left, start - ringGap - 1)
                right = max(right, start + widths.reduce(0, +) + gap * (widths.count - 1) + ringGap + 1)
            }
            let bandX = left
            let bandWidth = right - left
            out += "  <g class=\"first-difference\" data-time=\"\(differenceTime)\">"
            out += "<rect x=\"\(bandX)\" y=\"\(top + 18)\" width=\"\(bandWidth)\" height=\"\(2 * rowHeight + 8)\" rx=\"6\" fill=\"\(red)\" fill-opacity=\"0.08\" stroke=\"\(red)\" stroke-dasharray=\"5 4\"/>"
            out += "<text x=\"\(bandX)\" y=\"\(top + 10)\" fill=\"\(red)\">first difference, time \(differenceTime)</text></g>\n"
        }
        for (row, name) in ["expected", "actual"].enumerated() {
            let y = axes[row]
            out += "  <g class=\"stream \(name)\">\n"
            out += "    <text class=\"stream-name\" x=\"\(margin)\" y=\"\(y + 5)\" fill=\"#777777\">\(name)</text>\n"
            out += MarbleSVG.axis(from: axisStart, to: axisEnd, y: y)
            var nextX: [Int: Int] = [:]
            for (position, event) in rows[row].enumerated() {
                let width = event.symbol.width
                let left = nextX[event.frame] ?? anchors[event.frame] - width / 2
                nextX[event.frame] = left + width + gap
                let marked = position == index
                let x = left + width / 2
                switch event.symbol {
                case .next(let label):
                    out += MarbleSVG.marble(
                        label, x: x, y: y, radius: radius, characterWidth: characterWidth, frame: event.frame,
                        classes: marked ? "marble difference" : "marble", stroke: marked ? red : "#333333"
                    )
                case .completed:
                    out += MarbleSVG.completion(x: x, y: y, radius: radius, frame: event.frame, classes: marked ? "complete difference" : "complete", stroke: marked ? red : "#333333")
                case .error(let description):
                    out += MarbleSVG.error(description, x: x, y: y, radius: radius, frame: event.frame, classes: marked ? "error difference" : "error")
                }
                if marked {
                    out += differenceRing(around: event.symbol, x: x, y: y)
                }
            }
            out += "  </g>\n"
        }
        // The virtual time of every frame where something happens.
        let timeY = axes[1] + rowHeight / 2 + 14
        out += "  <g class=\"times\" fill=\"#777777\" font-size=\"11\" text-anchor=\"middle\">\n"
        for frame in Set(rows.flatMap { $0.map(\.frame) }).sorted() {
            out += "    <text x=\"\(anchors[frame])\" y=\"\(timeY)\">\(origin + frame * step)</text>\n"
        }
        out += "  </g>\n"
        out += "  <text class=\"scale\" x=\"\(margin)\" y=\"\(height - margin)\" fill=\"#777777\" font-size=\"12\">time (virtual ticks) under each frame; one frame = \(step) tick\(step == 1 ? "" : "s")</text>\n"
        out += "</svg>\n"
        return out
    }

    /// How far outside the marked event its outline runs.
    static let ringGap = 6

    /// The outline of the event that differs first: its own shape (a circle, or the
    /// rounded bar of a long label), `ringGap` larger all round, so that it frames the
    /// marble's text instead of crossing it.
    static func differenceRing(around symbol: Symbol, x: Int, y: Int) -> String {
        let attributes = "fill=\"none\" stroke=\"\(red)\" stroke-width=\"2\""
        let width = symbol.width
        if case .next = symbol, width > 2 * radius {
            let outer = radius + ringGap
            return "    <rect class=\"difference-ring\" x=\"\(x - width / 2 - ringGap)\" y=\"\(y - outer)\" width=\"\(width + 2 * ringGap)\" height=\"\(2 * outer)\" rx=\"\(outer)\" \(attributes)/>\n"
        }
        return "    <circle class=\"difference-ring\" cx=\"\(x)\" cy=\"\(y)\" r=\"\(radius + ringGap)\" \(attributes)/>\n"
    }

    /// What one event is drawn as.
    enum Symbol {
        case next(String)
        case completed
        case error(String)

        init<T>(_ event: Event<T>) {
            switch event {
            case .next(let element): self = .next("\(element)")
            case .completed: self = .completed
            case .error(let error): self = .error("\(error)")
            }
        }

        var width: Int {
            if case .next(let label) = self {
                return MarbleSVG.marbleWidth(label, radius: FailureDiagram.radius, characterWidth: FailureDiagram.characterWidth)
            }
            return FailureDiagram.radius + 4
        }
    }
}

/// The index of the first event where two recordings differ; `nil` when they are equal.
package func firstDifferenceIndex<T: Equatable>(_ actual: [Recorded<Event<T>>], _ expected: [Recorded<Event<T>>]) -> Int? {
    var index = 0
    while index < actual.count, index < expected.count, actual[index] == expected[index] {
        index += 1
    }
    return index == actual.count && index == expected.count ? nil : index
}
