import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The elements of an SVG document, read with Foundation's XML parser (so that a
/// document that is not well-formed fails the test).
final class SVGElements: NSObject, XMLParserDelegate {
    struct Element {
        let name: String
        let attributes: [String: String]
        var text = ""
        /// The `class` attributes of the enclosing elements, innermost last.
        let ancestors: [String]
    }

    private(set) var elements: [Element] = []
    private var open: [Int] = []
    private(set) var error: Error?

    init(_ svg: String) {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        if !parser.parse() { error = parser.parserError ?? CocoaError(.fileReadCorruptFile) }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        let ancestors = open.map { elements[$0].attributes["class"] ?? "" }
        elements.append(Element(name: name, attributes: attributes, ancestors: ancestors))
        open.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let last = open.last { elements[last].text += string }
    }

    /// The elements with `class` among their classes.
    func withClass(_ name: String) -> [Element] {
        elements.filter { ($0.attributes["class"] ?? "").split(separator: " ").contains(Substring(name)) }
    }

    /// The labels of the marbles drawn inside the stream with class `stream`.
    func marbleLabels(in stream: String) -> [String] {
        elements.filter { $0.name == "text" && $0.ancestors.contains("stream \(stream)") && $0.ancestors.last?.hasPrefix("marble") == true }
            .map(\.text)
    }
}

/// A fresh folder under the temporary directory.
func temporaryFolder() -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("rxtest-failure-diagrams-\(UUID().uuidString)")
    return url.path
}

/// The file named on the message's `Failure diagram:` line.
private func diagramPath(in message: String) -> String? {
    message.split(separator: "\n").last { $0.hasPrefix("Failure diagram: ") }.map { String($0.dropFirst("Failure diagram: ".count)) }
}

let diagramFolder = temporaryFolder()


@Suite("Failure diagrams", .rxLeakCheck)
struct FailureDiagramTests {
    @Test("off unless the environment or a trait asks", .enabled(if: ProcessInfo.processInfo.environment[FailureDiagrams.environmentVariable] == nil))
    func offByDefault() {
        #expect(FailureDiagrams.folder == nil)
        let (_, _, res) = FailureOutputTests.recording()
        let failures = capturingFailures {
            expectEvents(res, equal: [.next(210, 1), .next(220, 2), .completed(300)])
        }
        #expect(failures.map(\.message) == [rangeMismatchMessage])
    }

    @Test("a failed comparison writes its diagram, named after the test, and the message names it", .failureDiagrams(in: diagramFolder))
    func writesTheDiagram() throws {
        let (_, _, res) = FailureOutputTests.recording()
        let failures = capturingFailures {
            expectEvents(res, equal: [.next(210, 1), .next(220, 2), .completed(300)])
        }
        #expect(failures.count == 1)
        let message = failures.first?.message ?? ""
        #expect(message.hasPrefix(rangeMismatchMessage))
        let path = try #require(diagramPath(in: message), "\(message)")
        #expect(path == diagramFolder + "/RxTestTests.FailureDiagramTests.writesTheDiagram.svg")
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        let parsed = SVGElements(svg)
        #expect(parsed.error == nil)
        #expect(parsed.marbleLabels(in: "expected") == ["1", "2"])
        #expect(parsed.marbleLabels(in: "actual") == ["1", "3"])
        #expect(parsed.withClass("test-name").first?.text == "RxTestTests.FailureDiagramTests.writesTheDiagram()")
        let band = try #require(parsed.withClass("first-difference").first)
        #expect(band.attributes["data-time"] == "220")
        // The first difference is outlined in both timelines: next(2) expected, next(3) got.
        let marked = parsed.withClass("difference")
        #expect(marked.count == 2)
        #expect(marked.map { $0.ancestors.last ?? "" } == ["stream expected", "stream actual"])
    }

    @Test("the timelines share their frames: events at one time stand one above the other")
    func timelinesAreAligned() throws {
        let expected: [Recorded<Event<String>>] = [.next(10, "a"), .next(30, "long label"), .next(30, "c"), .completed(50)]
        let actual: [Recorded<Event<String>>] = [.next(10, "a"), .next(40, "c"), .completed(50)]
        let parsed = SVGElements(FailureDiagram.svg(actual: actual, expected: expected, title: "aligned"))
        #expect(parsed.error == nil)
        // The x of each marble (by label) and of the completion of a stream.
        func positions(_ stream: String) -> [String: Int] {
            var found: [String: Int] = [:]
            for (index, element) in parsed.elements.enumerated() where element.ancestors.last == "stream \(stream)" {
                let classes = element.attributes["class"] ?? ""
                if classes.hasPrefix("marble"), index + 2 < parsed.elements.count {
                    let shape = parsed.elements[index + 1]
                    let x = shape.attributes["cx"].flatMap(Int.init)
                        ?? (Int(shape.attributes["x"] ?? "") ?? 0) + (Int(shape.attributes["width"] ?? "") ?? 0) / 2
                    found[parsed.elements[index + 2].text] = x
                } else if classes.hasPrefix("complete") {
                    found["|"] = Int(element.attributes["x1"] ?? "")
                }
            }
            return found
        }
        let top = positions("expected")
        let bottom = positions("actual")
        #expect(Set(top.keys) == ["a", "long label", "c", "|"])
        #expect(top["a"] == bottom["a"])
        #expect(top["|"] == bottom["|"])
        #expect(try #require(top["c"]) < (try #require(bottom["c"])))
        #expect(try #require(top["long label"]) < (try #require(top["c"])))
        // Times under the frames where something happens, in virtual ticks.
        #expect(parsed.withClass("times").isEmpty == false)
        let times = parsed.elements.filter { $0.ancestors.last == "times" }.map(\.text)
        #expect(times == ["10", "30", "40", "50"])
        #expect(parsed.withClass("first-difference").first?.attributes["data-time"] == "30")
    }

    @Test("the first difference outlines each marked marble's own shape, a little larger, inside the band")
    func differenceOutlines() throws {
        func number(_ element: SVGElements.Element?, _ name: String) throws -> Int {
            try #require(element?.attributes[name].flatMap(Int.init), "\(name) of \(String(describing: element))")
        }
        // Long labels: rounded bars, outlined by rounded bars 6 px outside them.
        let expected: [Recorded<Event<String>>] = [.next(10, "a"), .next(20, "signed-in@example.com"), .completed(40)]
        let actual: [Recorded<Event<String>>] = [.next(10, "a"), .next(20, "wrong-password"), .completed(40)]
        let wide = SVGElements(FailureDiagram.svg(actual: actual, expected: expected, title: "wide"))
        #expect(wide.error == nil)
        let bars = wide.elements.filter { $0.name == "rect" && $0.ancestors.last == "marble difference" }
        let rings = wide.withClass("difference-ring")
        #expect(bars.count == 2)
        #expect(rings.map(\.name) == ["rect", "rect"])
        let band = try #require(wide.elements.first { $0.name == "rect" && $0.ancestors.last == "first-difference" })
        for (bar, ring) in zip(bars, rings) {
            #expect(try number(ring, "x") == number(bar, "x") - 6)
            #expect(try number(ring, "y") == number(bar, "y") - 6)
            #expect(try number(ring, "width") == number(bar, "width") + 12)
            #expect(try number(ring, "height") == number(bar, "height") + 12)
            #expect(try number(ring, "rx") == number(bar, "rx") + 6)
            #expect(try number(band, "x") < number(ring, "x"))
            #expect(try number(band, "x") + number(band, "width") > number(ring, "x") + number(ring, "width"))
        }
        // The headline fits: the picture is as wide as its text at 9 px a character.
        let headline = try #require(wide.withClass("headline").first?.text)
        let svg = try #require(wide.elements.first)
        #expect(try number(svg, "width") >= 2 * 16 + headline.count * 9)

        // Short labels: circles, outlined by circles 6 px larger.
        let short = SVGElements(FailureDiagram.svg(actual: [.next(10, 1), .next(20, 3)], expected: [.next(10, 1), .next(20, 2)], title: "short"))
        let circles = short.elements.filter { $0.name == "circle" && $0.ancestors.last == "marble difference" }
        let circleRings = short.withClass("difference-ring")
        #expect(circles.count == 2)
        #expect(circleRings.map(\.name) == ["circle", "circle"])
        for (circle, ring) in zip(circles, circleRings) {
            #expect(try number(ring, "cx") == number(circle, "cx"))
            #expect(try number(ring, "cy") == number(circle, "cy"))
            #expect(try number(ring, "r") == number(circle, "r") + 6)
        }
    }

    @Test("the documentation's example is what the kit draws now")
    func documentationExample() throws {
        let url = packageRoot.appendingPathComponent("Sources/RxTest/RxTest.docc/Resources/failure-diagram-example.svg")
        let (_, _, res) = FailureOutputTests.recording()
        let drawn = FailureDiagram.svg(actual: res.events, expected: [.next(210, 1), .next(220, 2), .completed(300)], title: "LoginTests.TempoTests.tempo()")
        if ProcessInfo.processInfo.environment["RIVULET_REGENERATE_DOCS"] == "1" {
            try Data(drawn.utf8).write(to: url)
        }
        let committed = try? String(contentsOf: url, encoding: .utf8)
        #expect(committed == drawn, "\(url.path) is stale; regenerate with RIVULET_REGENERATE_DOCS=1 swift test --filter documentationExample")
    }

    @Test("every kind of comparison writes one, and a second failure of a test keeps the first", .failureDiagrams(in: diagramFolder))
    func everyComparisonAndSecondFailures() throws {
        let (_, _, res) = FailureOutputTests.recording()
        let failures = capturingFailures {
            XCTAssertEqual(res.events, [.next(210, 1), .completed(300)])
            expectEvents(res, marbles: "^-B--C|", values: ["B": 10, "C": 30], frame: 10)
            XCTAssertEqual(res.events, marbles: "^-B-|", values: ["B": 10], frame: 10)
        }
        let paths = failures.map { diagramPath(in: $0.message) ?? "none" }
        let base = diagramFolder + "/RxTestTests.FailureDiagramTests.everyComparisonAndSecondFailures"
        #expect(paths == [base + ".svg", base + "-2.svg", base + "-3.svg"])
        for path in paths {
            #expect(FileManager.default.fileExists(atPath: path), "\(path)")
        }
    }
}
