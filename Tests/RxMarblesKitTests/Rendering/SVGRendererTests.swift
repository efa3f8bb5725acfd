import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import RxMarblesKit

func parseSVG(_ text: String) throws -> XMLDocument {
    try XMLDocument(data: Data(text.utf8), options: [])
}

func nodes(_ document: XMLDocument, _ xpath: String) throws -> [XMLElement] {
    try document.nodes(forXPath: xpath).compactMap { $0 as? XMLElement }
}

/// An attribute's value (looked up through `attributes`: `attribute(forName:)` misses
/// attributes of elements in a default namespace on some platforms).
func attribute(_ element: XMLElement, _ name: String) -> String? {
    element.attributes?.first { $0.name == name }?.stringValue
}

func intAttribute(_ element: XMLElement, _ name: String) -> Int? {
    attribute(element, name).flatMap { Int($0) }
}

/// An attribute of the circle of each marble of a stream, by frame.
func circleAttribute(_ document: XMLDocument, _ stream: String, _ name: String) throws -> [Int: String] {
    var result: [Int: String] = [:]
    for marble in try nodes(document, "//*[@class='\(stream)']//*[@class='marble']") {
        let frame = try #require(intAttribute(marble, "data-frame"))
        let circle = try #require(try marble.nodes(forXPath: "*[local-name()='circle']").first as? XMLElement)
        result[frame] = attribute(circle, name)
    }
    return result
}

@Suite struct SVGRendererTests {
    let diagram = OperatorDiagram(
        name: "take", summary: "First n.",
        inputs: [line("source", [(1, "1"), (3, "2"), (5, "3"), (7, "4"), (9, "|")])],
        call: "source.take(2)",
        output: line("", [(1, "1"), (3, "2"), (3, "|")])
    )

    @Test func theDocumentIsWellFormedSVG() throws {
        let document = try parseSVG(SVGRenderer().render(diagram))
        let root = try #require(document.rootElement())
        #expect(root.name == "svg")
        #expect(root.uri == "http://www.w3.org/2000/svg")
        #expect(intAttribute(root, "width")! > 0 && intAttribute(root, "height")! > 0)
    }

    @Test func oneArrowPerStreamMarblesBarsAndTheOperatorBox() throws {
        let document = try parseSVG(SVGRenderer().render(diagram))
        let streams = try nodes(document, "//*[local-name()='g'][starts-with(@class, 'stream')]")
        #expect(streams.count == 2)
        #expect(try nodes(document, "//*[@class='axis']").count == 2)
        #expect(try nodes(document, "//*[@class='arrowhead']").count == 2)
        let input = try #require(streams.first)
        let output = try #require(streams.last)
        #expect(attribute(input, "class") == "stream input")
        #expect(attribute(output, "class") == "stream output")
        #expect(try input.nodes(forXPath: ".//*[@class='marble']").count == 4)
        #expect(try output.nodes(forXPath: ".//*[@class='marble']").count == 2)
        #expect(try input.nodes(forXPath: ".//*[@class='complete']").count == 1)
        #expect(try output.nodes(forXPath: ".//*[@class='complete']").count == 1)
        let labels = try output.nodes(forXPath: ".//*[@class='marble']/*[local-name()='text']").map { $0.stringValue ?? "" }
        #expect(labels == ["1", "2"])
        let box = try nodes(document, "//*[@class='operator']")
        #expect(box.count == 1)
        #expect(box.first?.stringValue?.contains("source.take(2)") == true)
    }

    @Test func theOperatorBoxSitsBetweenInputsAndOutput() throws {
        let document = try parseSVG(SVGRenderer().render(diagram))
        let axes = try nodes(document, "//*[@class='axis']").compactMap { intAttribute($0, "y1") }
        let rect = try #require(try nodes(document, "//*[@class='operator']/*[local-name()='rect']").first)
        let top = try #require(intAttribute(rect, "y"))
        let height = try #require(intAttribute(rect, "height"))
        #expect(axes.count == 2)
        #expect(axes[0] < top)
        #expect(top + height < axes[1])
    }

    @Test func eventsAtTheSameFrameLineUpAcrossStreamsAndTimeGoesRight() throws {
        let document = try parseSVG(SVGRenderer().render(diagram))
        let input = try circleAttribute(document, "stream input", "cx").compactMapValues { Int($0) }
        let output = try circleAttribute(document, "stream output", "cx").compactMapValues { Int($0) }
        #expect(input[1] == output[1])
        #expect(input[3] == output[3])
        let ordered = input.sorted { $0.key < $1.key }.map(\.value)
        #expect(ordered == ordered.sorted())
        #expect(Set(ordered).count == ordered.count)
        // The completion of the output at the marble's frame is at the same x, under it:
        // one instant.
        let bar = try #require(try nodes(document, "//*[@class='stream output']//*[@class='complete']").first)
        #expect(intAttribute(bar, "x1") == output[3])
        let group = try #require(try nodes(document, "//*[@class='stream output']//*[@class='group']").first)
        #expect(intAttribute(group, "data-frame") == 3)
        #expect(intAttribute(group, "data-count") == 2)
    }

    @Test func errorsAreCrossesWithTheirDescription() throws {
        let failing = OperatorDiagram(name: "e", summary: "s", inputs: [], call: "Observable<Int>.error(e)", output: line("", [(0, "#")]))
        let document = try parseSVG(SVGRenderer().render(failing))
        let crosses = try nodes(document, "//*[@class='error']")
        #expect(crosses.count == 1)
        #expect(try crosses[0].nodes(forXPath: "*[local-name()='line']").count == 2)
        #expect(try crosses[0].nodes(forXPath: "*[local-name()='title']").first?.stringValue == "boom")
    }

    @Test func specialCharactersAreEscaped() throws {
        let odd = OperatorDiagram(name: "<&>", summary: "\"quoted\" & 'single'", inputs: [line("a<b", [(1, "<")])], call: "a.filter { $0 < \"x\" && true }", output: line("", [(1, "&")]))
        let document = try parseSVG(SVGRenderer().render(odd))
        let texts = try nodes(document, "//*[@class='marble']/*[local-name()='text']").map { $0.stringValue ?? "" }
        #expect(texts == ["<", "&"])
        #expect(try nodes(document, "//*[@class='operator']").first?.stringValue?.contains("a.filter { $0 < \"x\" && true }") == true)
    }

    @Test func longLabelsGetRoundedBarsAndWiderFrames() throws {
        let wide = OperatorDiagram(name: "w", summary: "s", inputs: [line("a", [(1, "1")])], call: "c", output: line("", [(1, "[1, 2, 3]"), (2, "x")]))
        let renderer = SVGRenderer()
        let geometry = renderer.geometry(wide)
        #expect(geometry.frameWidths[1] > geometry.frameWidths[0])
        let document = try parseSVG(renderer.render(wide))
        let bar = try #require(try nodes(document, "//*[@class='stream output']//*[@class='marble']/*[local-name()='rect']").first)
        let barWidth = try #require(intAttribute(bar, "width"))
        #expect(barWidth > 2 * renderer.metrics.radius)
        // The next frame's marble does not overlap the bar.
        let next = try #require(try nodes(document, "//*[@class='stream output']//*[@class='marble'][@data-frame='2']/*[local-name()='circle']").first)
        #expect(intAttribute(next, "cx")! - renderer.metrics.radius >= intAttribute(bar, "x")! + barWidth)
    }

    @Test func groupsAreStackedAtTheirFramesXOnOneBand() throws {
        let grouped = OperatorDiagram(name: "of", summary: "s", inputs: [], call: "Observable.of(1, 2, 3)", output: line("", [(0, "1"), (0, "2"), (0, "3"), (0, "|")]))
        let renderer = SVGRenderer()
        let document = try parseSVG(renderer.render(grouped))
        let circles = try nodes(document, "//*[@class='marble']/*[local-name()='circle']")
        let xs = circles.compactMap { intAttribute($0, "cx") }
        let ys = circles.compactMap { intAttribute($0, "cy") }
        let geometry = renderer.geometry(grouped)
        #expect(xs == [geometry.frameAnchors[0], geometry.frameAnchors[0], geometry.frameAnchors[0]])
        // Top to bottom in their order, without overlap, centred on the axis.
        for (upper, lower) in zip(ys, ys.dropFirst()) {
            #expect(lower - upper >= 2 * renderer.metrics.radius)
        }
        let bar = try #require(try nodes(document, "//*[@class='complete']").first)
        #expect(ys[0] + (intAttribute(bar, "y1")! + intAttribute(bar, "y2")!) / 2 == 2 * geometry.rowAxes[0])
        #expect(intAttribute(bar, "x1") == geometry.frameAnchors[0])
        #expect(intAttribute(bar, "y1")! > ys[2])
        // The band behind them holds them all, and the picture is tall enough for it.
        let band = try #require(try nodes(document, "//*[@class='group']/*[local-name()='rect']").first)
        #expect(intAttribute(band, "y")! <= ys[0] - renderer.metrics.radius)
        #expect(intAttribute(band, "y")! + intAttribute(band, "height")! >= intAttribute(bar, "y2")!)
        #expect(intAttribute(band, "y")! >= 0 && intAttribute(band, "y")! + intAttribute(band, "height")! <= geometry.height)
    }

    @Test func outputMarblesTakeTheColourOfTheInputElementTheyCameFrom() throws {
        let entry = try #require(Gallery.entry(named: "map"))
        let document = try parseSVG(SVGRenderer().render(entry.diagram()))
        let input = try circleAttribute(document, "stream input", "fill")
        let output = try circleAttribute(document, "stream output", "fill")
        #expect(input.count == 3)
        #expect(output == input)
        // 1, 2 and 3 differ, so the test can tell the colours apart.
        #expect(Set(input.values).count == 3)
    }

    @Test func subscriptionLinesGoUnderAStackedGroup() throws {
        var input = line("a", [(1, "1"), (1, "2"), (1, "3"), (3, "|")])
        input.subscriptions = [FrameSpan(start: 0, end: 3)]
        let diagram = OperatorDiagram(name: "n", summary: "s", inputs: [input], call: "c", output: line("", [(3, "|")]))
        let renderer = SVGRenderer(showSubscriptions: true)
        let document = try parseSVG(renderer.render(diagram))
        let lowest = try nodes(document, "//*[@class='stream input']//*[local-name()='circle']").compactMap { intAttribute($0, "cy") }.max()
        let span = try #require(try nodes(document, "//*[@class='subscription']/*[local-name()='line']").first)
        #expect(intAttribute(span, "y1")! > lowest! + renderer.metrics.radius)
        // And above the operator box.
        #expect(intAttribute(span, "y1")! < renderer.geometry(diagram).operatorBox.y)
    }
}
