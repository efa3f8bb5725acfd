import Foundation
import RxLanes
import RxTestCore

/// A lanes diagram as a self-contained HTML page: the heading, the SVG picture inline,
/// the legend (every value in full, the failures, the threads, the marks) and a table
/// of every event. It needs nothing but itself: no script, no file beside it.
public enum LaneHTMLPage {
    /// The page for `diagram`, titled after `title` (the recording's file name).
    public static func render(_ diagram: LaneDiagram, title: String) -> String {
        let svg = LaneSVGRenderer(showsLegend: false).render(diagram)
        let picture = svg.hasPrefix("<?xml") ? String(svg[svg.index(after: svg.firstIndex(of: "\n") ?? svg.startIndex)...]) : svg
        var html = """
        <!doctype html>
        <html lang="en">
        <head>
          <meta charset="utf-8">
          <meta name="viewport" content="width=device-width, initial-scale=1">
          <title>Lanes: \(escape(title))</title>
          <style>
            body { font-family: -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #222; margin: 0; padding: 16px 24px 40px; }
            h1 { font-size: 1.4rem; margin: 0 0 4px; }
            h2 { font-size: 1.05rem; margin: 20px 0 8px; }
            .heading { color: #555; margin: 0 0 8px; }
            .dropped { color: #a15c00; margin: 0 0 8px; padding-left: 20px; }
            .diagram { border: 1px solid #ddd; border-radius: 6px; padding: 4px; overflow-x: auto; width: fit-content; max-width: 100%; box-sizing: border-box; }
            .diagram svg { display: block; max-width: 100%; height: auto; }
            code, td.value, td.time, .key { font-family: Menlo, Consolas, "DejaVu Sans Mono", monospace; }
            .key { display: inline-block; min-width: 1.4em; height: 1.4em; line-height: 1.4em; border-radius: 0.7em; border: 1.5px solid #333; text-align: center; font-size: 0.85rem; }
            .thread { background: #e8ecf6; border: 1px solid #8890a0; border-radius: 0.6em; padding: 0 0.45em; font-size: 0.8rem; }
            table { border-collapse: collapse; font-size: 0.9rem; }
            th, td { text-align: left; padding: 3px 10px 3px 0; vertical-align: top; border-bottom: 1px solid #eee; }
            td.value { word-break: break-all; }
            td.time { text-align: right; white-space: nowrap; }
            ul.legend { list-style: none; padding: 0; margin: 0; }
            ul.legend li { margin: 3px 0; }
            ul.legend.values { column-width: 22em; column-gap: 2em; }
            ul.legend.values li { break-inside: avoid; }
            details summary { cursor: pointer; font-weight: 600; margin-top: 20px; }
          </style>
        </head>
        <body>
          <h1>Lanes of \(escape(title))</h1>
          <p class="heading">\(escape(diagram.heading()))</p>

        """
        if !diagram.droppedNotes.isEmpty {
            html += "  <ul class=\"dropped\">\n" + diagram.droppedNotes.map { "    <li>\(escape($0))</li>\n" }.joined() + "  </ul>\n"
        }
        if !diagram.rows.isEmpty {
            html += "  <div class=\"diagram\">\n" + picture + "  </div>\n"
        }
        if !diagram.keys.legend.isEmpty || diagram.keys.overflowCount > 0 {
            html += "  <h2>Values</h2>\n  <ul class=\"legend values\">\n"
            for entry in diagram.keys.legend {
                html += "    <li><span class=\"key\" style=\"background: \(MarblePalette.fill(for: entry.label))\">\(escape(entry.key))</span> <code>\(escape(LaneKeys.shortened(entry.label, limit: 2_000)))</code></li>\n"
            }
            if diagram.keys.overflowCount > 0 {
                html += "    <li><span class=\"key\">\(LaneKeys.overflowKey)</span> any of \(LaneDiagram.counted(diagram.keys.overflowCount, "more value")) (see the events below)</li>\n"
            }
            html += "  </ul>\n"
        }
        if !diagram.failures.isEmpty {
            html += "  <h2>Failures</h2>\n  <ul class=\"legend failures\">\n"
            for failure in diagram.failures {
                html += "    <li>\(escape(failure.row)): <code>\(escape(LaneKeys.shortened(failure.description, limit: 2_000)))</code></li>\n"
            }
            html += "  </ul>\n"
        }
        if !diagram.threadsUsed.isEmpty {
            html += "  <h2>Threads</h2>\n  <ul class=\"legend threads\">\n"
            for thread in diagram.threadsUsed {
                let fill = LaneSVGRenderer.threadFills[thread % LaneSVGRenderer.threadFills.count]
                html += "    <li><span class=\"thread\" style=\"background: \(fill)\">\(LaneDiagram.threadNumber(thread))</span> \(escape(diagram.threadName(thread)))</li>\n"
            }
            html += "  </ul>\n"
        }
        let marks = LaneTextRenderer().marksUsed(diagram)
        if !marks.isEmpty {
            html += "  <h2>Marks</h2>\n  <ul class=\"legend marks\">\n"
            html += marks.map { "    <li><code>\(escape($0.symbol))</code> \(escape($0.meaning))</li>\n" }.joined()
            html += "  </ul>\n"
        }
        if !diagram.recording.entries.isEmpty {
            html += eventTable(diagram)
        }
        html += "</body>\n</html>\n"
        return html
    }

    /// Every event, in the order recorded, in a table that opens on request.
    private static func eventTable(_ diagram: LaneDiagram) -> String {
        let recording = diagram.recording
        var html = "  <details class=\"events\">\n    <summary>Every event (\(recording.entries.count))</summary>\n"
        html += "    <table>\n      <thead><tr><th>time</th><th>lane</th><th>thread</th><th>event</th><th>value</th></tr></thead>\n      <tbody>\n"
        for entry in recording.entries {
            let lane = entry.lane < recording.lanes.count ? recording.lanes[entry.lane].name : "lane \(entry.lane)"
            let name = entry.subscription == 1 ? lane : "\(lane) #\(entry.subscription)"
            let (kind, value): (String, String)
            switch entry.kind {
            case .subscribed: (kind, value) = ("subscribed", "")
            case .next(let text): (kind, value) = ("next", text)
            case .error(let text): (kind, value) = ("error", text)
            case .completed: (kind, value) = ("completed", "")
            case .disposed: (kind, value) = ("disposed", "")
            }
            html += "        <tr><td class=\"time\">\(String(format: "%.6f s", Double(entry.time) / 1e9))</td><td>\(escape(name))</td>"
            html += "<td>\(LaneDiagram.threadNumber(entry.thread)) \(escape(diagram.threadName(entry.thread)))</td><td>\(kind)</td>"
            html += "<td class=\"value\">\(escape(LaneKeys.shortened(value, limit: 2_000)))</td></tr>\n"
        }
        html += "      </tbody>\n    </table>\n  </details>\n"
        return html
    }

    /// `text` with HTML's special characters escaped.
    static func escape(_ text: String) -> String {
        MarbleSVG.escape(text)
    }
}
