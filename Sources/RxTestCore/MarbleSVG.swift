/// The pieces every marble picture is drawn with, shared by the rxmarbles tool's
/// diagrams and RxTest's failure diagrams: a labelled marble, a completion bar, an
/// error cross and a time arrow, in SVG.
package enum MarbleSVG {
    /// The width of a marble: a circle for short labels, a rounded bar for long ones.
    package static func marbleWidth(_ label: String, radius: Int, characterWidth: Int) -> Int {
        max(2 * radius, label.count * characterWidth + 14)
    }

    /// A marble centred at `x`, `y`; `classes` and `stroke` let a picture mark one,
    /// `fill` gives it another colour than its label's.
    package static func marble(
        _ label: String, x: Int, y: Int, radius r: Int, characterWidth: Int, frame: Int,
        classes: String = "marble", stroke: String = "#333333", fill: String? = nil
    ) -> String {
        let fill = fill ?? MarblePalette.fill(for: label)
        let width = marbleWidth(label, radius: r, characterWidth: characterWidth)
        let shape: String
        if width == 2 * r {
            shape = "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"\(r)\" fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"2\"/>"
        } else {
            shape = "<rect x=\"\(x - width / 2)\" y=\"\(y - r)\" width=\"\(width)\" height=\"\(2 * r)\" rx=\"\(r)\" fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"2\"/>"
        }
        return "    <g class=\"\(classes)\" data-frame=\"\(frame)\">\(shape)<text x=\"\(x)\" y=\"\(y + 5)\" text-anchor=\"middle\" fill=\"#111111\">\(escape(label))</text></g>\n"
    }

    /// A completion: a vertical bar.
    package static func completion(x: Int, y: Int, radius r: Int, frame: Int, classes: String = "complete", stroke: String = "#333333") -> String {
        "    <line class=\"\(classes)\" data-frame=\"\(frame)\" x1=\"\(x)\" y1=\"\(y - r)\" x2=\"\(x)\" y2=\"\(y + r)\" stroke=\"\(stroke)\" stroke-width=\"3\"/>\n"
    }

    /// A failure: a red cross, its description as a tooltip.
    package static func error(_ description: String, x: Int, y: Int, radius r: Int, frame: Int, classes: String = "error") -> String {
        let d = r * 2 / 3
        return "    <g class=\"\(classes)\" data-frame=\"\(frame)\"><title>\(escape(description))</title><line x1=\"\(x - d)\" y1=\"\(y - d)\" x2=\"\(x + d)\" y2=\"\(y + d)\" stroke=\"#c62828\" stroke-width=\"3\"/><line x1=\"\(x - d)\" y1=\"\(y + d)\" x2=\"\(x + d)\" y2=\"\(y - d)\" stroke=\"#c62828\" stroke-width=\"3\"/></g>\n"
    }

    /// A time arrow from `start` to the tip at `end`.
    package static func axis(from start: Int, to end: Int, y: Int) -> String {
        "    <line class=\"axis\" x1=\"\(start)\" y1=\"\(y)\" x2=\"\(end - 8)\" y2=\"\(y)\" stroke=\"#333333\" stroke-width=\"2\"/>\n"
            + "    <path class=\"arrowhead\" d=\"M \(end) \(y) L \(end - 10) \(y - 6) L \(end - 10) \(y + 6) Z\" fill=\"#333333\"/>\n"
    }

    /// `text` with XML's special characters escaped.
    package static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}

/// Colours for element labels, stable across runs (the same label gets the same colour).
public enum MarblePalette {
    /// Fill colours of the marbles in SVG pictures.
    public static let fills = ["#f4c542", "#7fc8f8", "#f28fad", "#8ee08e", "#c7a6f5", "#ffa86b", "#6fd6c6", "#e6e46a"]
    /// ANSI colour codes of the marbles in text diagrams, in the order of `fills`.
    package static let ansi = [33, 36, 35, 32, 34, 93, 96, 95]

    /// A stable index for `label`: digits keep their order, other labels are hashed.
    public static func index(for label: String) -> Int {
        if let number = Int(label) {
            return ((number % fills.count) + fills.count) % fills.count
        }
        var hash = 0
        for scalar in label.unicodeScalars {
            hash = (hash &* 31 &+ Int(scalar.value)) & 0x7fff_ffff
        }
        return hash % fills.count
    }

    /// The SVG fill colour for `label`.
    public static func fill(for label: String) -> String {
        fills[index(for: label)]
    }
}

/// The sizes of a marble picture, in pixels, shared by the rxmarbles tool's diagrams
/// and RxTest's failure diagrams.
public struct MarbleMetrics: Equatable, Sendable {
    /// The radius of a marble.
    public var radius = 16
    /// The width of a frame with nothing wider in it.
    public var frameWidth = 38
    /// The approximate advance of one character of the label font.
    public var characterWidth = 9
    /// The height of the band of one stream.
    public var rowHeight = 56
    /// The height of the operator box.
    public var operatorHeight = 44
    /// The space around the picture.
    public var margin = 16
    /// The space between marbles of one frame.
    public var gap = 4
    /// The height of one line of subscriptions under an input.
    public var subscriptionLineHeight = 14

    /// The default sizes.
    public init() {}
}
