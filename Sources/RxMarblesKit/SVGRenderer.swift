import RxTestCore

/// Draws a marble diagram as an SVG picture: a time arrow per stream, a labelled
/// marble per element, a vertical bar for completion, a cross for an error, and the
/// operator call in a box between the inputs and the output.
///
/// Every frame gets the same width unless what happens there needs more room (a long
/// label); frames line up across all streams. Events at the same frame are stacked at
/// that frame's x on a shaded band, so that they read as one instant; a stream with
/// such a group gets taller.
public struct SVGRenderer: Sendable {
    /// Sizes, in pixels: the marble sizes every marble picture shares (RxTest's failure
    /// diagrams draw with them too).
    public typealias Metrics = MarbleMetrics

    /// The sizes used.
    public var metrics: Metrics
    /// Whether to draw the inputs' subscriptions under them (diagrams whose
    /// subscriptions are the point of the example draw them anyway).
    public var showSubscriptions: Bool

    /// A renderer with `metrics`.
    public init(metrics: Metrics = Metrics(), showSubscriptions: Bool = false) {
        self.metrics = metrics
        self.showSubscriptions = showSubscriptions
    }

    /// The subscription lines drawn under each input of `diagram` (none when they are
    /// not shown).
    func subscriptionRows(_ diagram: OperatorDiagram) -> [[[FrameSpan]]] {
        let shown = showSubscriptions || diagram.showsSubscriptions
        return diagram.inputs.map { shown ? MarbleLayout.packedSubscriptions(of: $0) : [] }
    }

    /// The extra height under an input for `lines` lines of subscriptions.
    func subscriptionHeight(lines: Int) -> Int {
        lines == 0 ? 0 : lines * metrics.subscriptionLineHeight + 6
    }

    /// The x positions and widths of the frames, and where the streams start and end.
    public struct Geometry: Equatable, Sendable {
        /// Where the streams' axes start.
        public var axisStart: Int
        /// Where the arrows end.
        public var axisEnd: Int
        /// The left edge of each frame.
        public var frameStarts: [Int]
        /// The width of each frame.
        public var frameWidths: [Int]
        /// The x of each frame's time: every event of the frame is centred there.
        public var frameAnchors: [Int]
        /// The y of each stream's axis, inputs first, the output last.
        public var rowAxes: [Int]
        /// The operator box: x, y, width, height (the last one's, for a chain or a
        /// comparison).
        public var operatorBox: (x: Int, y: Int, width: Int, height: Int)
        /// The y of every operator box, one per step (see ``OperatorDiagram/steps``).
        public var boxTops: [Int]
        /// The size of the picture.
        public var width: Int
        /// The size of the picture.
        public var height: Int


        public static func == (lhs: Geometry, rhs: Geometry) -> Bool {
            lhs.axisStart == rhs.axisStart && lhs.axisEnd == rhs.axisEnd && lhs.frameStarts == rhs.frameStarts
                && lhs.frameWidths == rhs.frameWidths && lhs.frameAnchors == rhs.frameAnchors && lhs.rowAxes == rhs.rowAxes
                && lhs.operatorBox == rhs.operatorBox && lhs.boxTops == rhs.boxTops && lhs.width == rhs.width && lhs.height == rhs.height
        }
    }

    /// The width one event takes on a stream.
    func eventWidth(_ kind: MarbleEventKind) -> Int {
        switch kind {
        case .next(let label): return marbleWidth(label)
        case .completed, .error: return metrics.radius + 4
        }
    }

    /// A marble is a circle for short labels and a rounded bar for long ones.
    func marbleWidth(_ label: String) -> Int {
        MarbleSVG.marbleWidth(label, radius: metrics.radius, characterWidth: metrics.characterWidth)
    }

    /// How far a cell reaches left and right of its frame's anchor.
    func cellExtent(_ cell: MarbleCell) -> (left: Int, right: Int) {
        guard case .events(let kinds) = cell else { return (0, 0) }
        let half = (kinds.map(eventWidth).max() ?? 0) / 2 + (kinds.count > 1 ? metrics.gap + 3 : 3)
        return (half, half)
    }

    /// The vertical distance between the events of a group.
    var stackStep: Int {
        2 * metrics.radius + metrics.gap
    }

    /// The extra height a stream needs for its largest group.
    func stackHeight(_ cells: [MarbleCell]) -> Int {
        let largest = cells.map { cell -> Int in
            if case .events(let kinds) = cell { return kinds.count }
            return 1
        }.max() ?? 1
        return (largest - 1) * stackStep
    }

    /// The geometry of `diagram`'s picture.
    public func geometry(_ diagram: OperatorDiagram) -> Geometry {
        let layout = MarbleLayout(diagram)
        let names = diagram.timelines.map(displayName)
        let longestName = names.map(\.count).max() ?? 0
        let gutter = longestName == 0 ? 0 : longestName * metrics.characterWidth + 12
        let axisStart = metrics.margin + gutter

        var frameStarts: [Int] = []
        var frameWidths: [Int] = []
        var frameAnchors: [Int] = []
        var x = axisStart + 8
        for frame in 0..<layout.frameCount {
            let extents = layout.cells.map { cellExtent($0[frame]) }
            let left = max(metrics.frameWidth / 2, extents.map(\.left).max() ?? 0)
            let right = max(metrics.frameWidth - metrics.frameWidth / 2, extents.map(\.right).max() ?? 0)
            frameStarts.append(x)
            frameWidths.append(left + right)
            frameAnchors.append(x + left)
            x += left + right
        }
        let callWidth = (diagram.steps.map(\.call.count).max() ?? 0) * metrics.characterWidth + 32
        let axisEnd = max(x + 12, axisStart + callWidth)
        let boxWidth = axisEnd - axisStart
        let width = axisEnd + metrics.margin

        var rowAxes: [Int] = []
        var y = metrics.margin
        for (row, lines) in subscriptionRows(diagram).enumerated() {
            let stack = stackHeight(layout.cells[row])
            rowAxes.append(y + (metrics.rowHeight + stack) / 2)
            y += metrics.rowHeight + stack + subscriptionHeight(lines: lines.count)
        }
        var boxTops: [Int] = []
        for row in diagram.inputs.count..<layout.cells.count {
            boxTops.append(y + 8)
            y += 8 + metrics.operatorHeight + 8
            let stack = stackHeight(layout.cells[row])
            rowAxes.append(y + (metrics.rowHeight + stack) / 2)
            y += metrics.rowHeight + stack
        }
        y += metrics.margin

        return Geometry(
            axisStart: axisStart, axisEnd: axisEnd, frameStarts: frameStarts, frameWidths: frameWidths, frameAnchors: frameAnchors,
            rowAxes: rowAxes, operatorBox: (axisStart, boxTops.last ?? y, boxWidth, metrics.operatorHeight), boxTops: boxTops,
            width: width, height: y
        )
    }

    /// The SVG document for `diagram`.
    public func render(_ diagram: OperatorDiagram) -> String {
        let layout = MarbleLayout(diagram)
        let geometry = geometry(diagram)
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(geometry.width)" height="\(geometry.height)" viewBox="0 0 \(geometry.width) \(geometry.height)" font-family="Menlo, Consolas, 'DejaVu Sans Mono', monospace" font-size="14">
          <title>\(escape(diagram.name))</title>
          <desc>\(escape(diagram.summary))</desc>
          <rect class="background" x="0" y="0" width="\(geometry.width)" height="\(geometry.height)" fill="#ffffff"/>

        """
        let subscriptions = subscriptionRows(diagram)
        for (row, input) in diagram.inputs.enumerated() {
            out += stream(input, role: "input", layout: layout, row: row, axisY: geometry.rowAxes[row], geometry: geometry)
            // Under the lowest event of the row's largest group.
            let below = geometry.rowAxes[row] + stackHeight(layout.cells[row]) / 2
            out += subscriptionLines(subscriptions[row], of: input, below: below, geometry: geometry)
        }
        let steps = diagram.steps
        for (step, (call, output)) in steps.enumerated() {
            let row = diagram.inputs.count + step
            out += operatorBox(call, top: geometry.boxTops[step], geometry: geometry)
            out += stream(output, role: step == steps.count - 1 ? "output" : "stage", layout: layout, row: row, axisY: geometry.rowAxes[row], geometry: geometry)
            if diagram.comparesOutputs, step > 0 {
                out += differences(diagram.differingFrames(ofStep: step), axisY: geometry.rowAxes[row], geometry: geometry)
            }
        }
        out += "</svg>\n"
        return out
    }

    private func operatorBox(_ call: String, top: Int, geometry: Geometry) -> String {
        let box = geometry.operatorBox
        return """
          <g class="operator">
            <rect x="\(box.x)" y="\(top)" width="\(box.width)" height="\(box.height)" rx="6" fill="#f6f6f6" stroke="#555555" stroke-width="1.5"/>
            <text x="\(box.x + box.width / 2)" y="\(top + box.height / 2 + 5)" text-anchor="middle" fill="#222222">\(escape(call))</text>
          </g>

        """
    }

    /// A compared output's frames that differ from the first output's: a red dashed
    /// frame around each.
    private func differences(_ frames: Set<Int>, axisY y: Int, geometry: Geometry) -> String {
        var out = ""
        for frame in frames.sorted() where frame < geometry.frameAnchors.count {
            let r = metrics.radius + metrics.gap
            out += "  <rect class=\"differs\" data-frame=\"\(frame)\" x=\"\(geometry.frameStarts[frame])\" y=\"\(y - r)\" width=\"\(geometry.frameWidths[frame])\" height=\"\(2 * r)\" rx=\"6\" fill=\"none\" stroke=\"#c62828\" stroke-width=\"2\" stroke-dasharray=\"5 3\"><title>differs from the first output</title></rect>\n"
        }
        return out
    }

    private func stream(_ timeline: Timeline, role: String, layout: MarbleLayout, row: Int, axisY y: Int, geometry: Geometry) -> String {
        let name = displayName(timeline)
        var out = "  <g class=\"stream \(role)\" data-name=\"\(escape(timeline.name))\">\n"
        if !name.isEmpty {
            out += "    <text class=\"stream-name\" x=\"\(metrics.margin)\" y=\"\(y + 5)\" fill=\"#777777\">\(escape(name))</text>\n"
        }
        let tip = geometry.axisEnd
        out += MarbleSVG.axis(from: geometry.axisStart, to: tip, y: y)
        for (frame, cell) in layout.cells[row].enumerated() {
            guard case .events(let kinds) = cell else { continue }
            let x = geometry.frameAnchors[frame]
            let colors = layout.colors[row][frame]
            if kinds.count == 1 {
                out += event(kinds[0], frame: frame, centerX: x, y: y, color: colors.first ?? 0)
                continue
            }
            // One instant: the events stacked at the frame's x, on one shaded band.
            let top = y - (kinds.count - 1) * stackStep / 2
            let half = (kinds.map(eventWidth).max() ?? 0) / 2 + metrics.gap
            let bandHeight = (kinds.count - 1) * stackStep + 2 * (metrics.radius + metrics.gap)
            out += "    <g class=\"group\" data-frame=\"\(frame)\" data-count=\"\(kinds.count)\">"
            out += "<rect x=\"\(x - half)\" y=\"\(top - metrics.radius - metrics.gap)\" width=\"\(2 * half)\" height=\"\(bandHeight)\" rx=\"\(half)\" fill=\"#e8eaf0\" stroke=\"#9aa0b0\" stroke-dasharray=\"4 3\"/></g>\n"
            for (index, kind) in kinds.enumerated() {
                out += event(kind, frame: frame, centerX: x, y: top + index * stackStep, color: index < colors.count ? colors[index] : 0)
            }
        }
        out += "  </g>\n"
        return out
    }

    /// The subscriptions under an input: a thin line from the subscription (a caret) to
    /// the disposal (a bar), or to the arrow's end while it lasts.
    private func subscriptionLines(_ lines: [[FrameSpan]], of timeline: Timeline, below axisY: Int, geometry: Geometry) -> String {
        guard !lines.isEmpty else { return "" }
        var out = "  <g class=\"subscriptions\" data-name=\"\(escape(timeline.name))\" stroke=\"#888888\" stroke-width=\"1.5\" fill=\"none\">\n"
        let lastFrame = geometry.frameAnchors.count - 1
        for (index, spans) in lines.enumerated() {
            let y = axisY + metrics.radius + 12 + index * metrics.subscriptionLineHeight
            for span in spans where lastFrame >= 0 {
                let x1 = geometry.frameAnchors[min(span.start, lastFrame)]
                let x2 = span.end.map { geometry.frameAnchors[min($0, lastFrame)] } ?? geometry.axisEnd - 8
                let title = "subscribed at \(span.start)" + (span.end.map { ", disposed at \($0)" } ?? "")
                out += "    <g class=\"subscription\" data-start=\"\(span.start)\" data-end=\"\(span.end.map(String.init) ?? "")\"><title>\(title)</title>"
                out += "<line x1=\"\(x1)\" y1=\"\(y)\" x2=\"\(x2)\" y2=\"\(y)\"/>"
                out += "<path d=\"M \(x1 - 5) \(y + 5) L \(x1) \(y - 4) L \(x1 + 5) \(y + 5)\"/>"
                if span.end != nil {
                    out += "<line x1=\"\(x2)\" y1=\"\(y - 5)\" x2=\"\(x2)\" y2=\"\(y + 5)\"/>"
                }
                out += "</g>\n"
            }
        }
        out += "  </g>\n"
        return out
    }

    private func event(_ kind: MarbleEventKind, frame: Int, centerX x: Int, y: Int, color: Int) -> String {
        switch kind {
        case .next(let label):
            return MarbleSVG.marble(label, x: x, y: y, radius: metrics.radius, characterWidth: metrics.characterWidth, frame: frame, fill: MarblePalette.fills[color])
        case .completed:
            return MarbleSVG.completion(x: x, y: y, radius: metrics.radius, frame: frame)
        case .error(let description):
            return MarbleSVG.error(description, x: x, y: y, radius: metrics.radius, frame: frame)
        }
    }

    private func displayName(_ timeline: Timeline) -> String {
        timeline.isCold && !timeline.name.isEmpty ? timeline.name + " (cold)" : timeline.name
    }

    /// `text` with XML's special characters escaped.
    public func escape(_ text: String) -> String {
        MarbleSVG.escape(text)
    }
}
