import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import RxLanes
import Testing
@testable import RxMarblesKit

@Suite struct LaneSVGTests {
    /// The elements of `document` whose class list includes `name`.
    private func classed(_ document: XMLDocument, _ name: String) throws -> [XMLElement] {
        try nodes(document, "//*[contains(concat(' ', @class, ' '), ' \(name) ')]")
    }

    @Test func everyEventKindIsDrawnInSVG() throws {
        let document = try parseSVG(LaneSVGRenderer().render(LaneDiagram(everyKind)))
        #expect(try classed(document, "lane").map { attribute($0, "data-name") } == ["a", "b", "c", "d"])
        #expect(try classed(document, "subscribed").count == 3)
        #expect(try classed(document, "next").count == 4)
        #expect(try classed(document, "completed").count == 1)
        #expect(try classed(document, "disposed").count == 1)
        let error = try #require(try classed(document, "error").first)
        #expect(error.stringValue?.contains("b: failed: Boom, at 30 ms on main") == true)
        #expect(try classed(document, "started-earlier").count == 1)
        // Lanes still subscribed end in an arrow; ended ones do not.
        #expect(try nodes(document, "//*[@data-name='d']/*[@class='arrowhead']").count == 1)
        #expect(try nodes(document, "//*[@data-name='a']/*[@class='arrowhead']").isEmpty)
        // Each value's tooltip names the lane, the value, the time and the thread.
        let text = LaneSVGRenderer().render(LaneDiagram(everyKind))
        #expect(text.contains("<title>a: 1, at 10 ms on main</title>"))
        // The legend explains the marks used.
        for meaning in ["subscribed", "completed", "failed", "disposed", "subscribed before the oldest event kept"] {
            #expect(text.contains(">\(meaning)</text>"), "no legend for \(meaning)")
        }
        #expect(!LaneSVGRenderer(showsLegend: false).render(LaneDiagram(everyKind)).contains("class=\"legend\""))
    }

    @Test func simultaneousEventsAreStackedOnABand() throws {
        let recording = laneRecording(lanes: ["a"], [
            (0, 0, 1, 0, .subscribed), (10, 0, 1, 0, .next("1")), (10.0001, 0, 1, 0, .next("2")), (10.0002, 0, 1, 0, .completed),
        ])
        let document = try parseSVG(LaneSVGRenderer().render(LaneDiagram(recording)))
        let group = try #require(try classed(document, "group").first)
        #expect(attribute(group, "data-count") == "3")
        let circles = try nodes(document, "//*[contains(@class, 'next')]//*[local-name()='circle']")
        #expect(Set(circles.compactMap { attribute($0, "cx") }).count == 1)
        #expect(Set(circles.compactMap { attribute($0, "cy") }).count == 2)
    }

    @Test func aGapIsABandWithItsLengthOnTheRuler() throws {
        let recording = laneRecording(lanes: ["a"], [
            (0, 0, 1, 0, .subscribed), (100, 0, 1, 0, .next("1")), (9_000, 0, 1, 0, .next("3")),
        ])
        let text = LaneSVGRenderer().render(LaneDiagram(recording))
        let document = try parseSVG(text)
        #expect(try nodes(document, "//*[@class='gap']").count == 1)
        #expect(try nodes(document, "//*[@class='break']").count == 1)
        #expect(try nodes(document, "//*[@class='gap-length']").first?.stringValue?.hasPrefix("≈ ") == true)
    }

    @Test func threadTagsOnlyWithSeveralThreadsAndWhereTheThreadChanges() throws {
        #expect(try classed(parseSVG(LaneSVGRenderer().render(LaneDiagram(everyKind))), "thread").isEmpty)
        let recording = laneRecording(lanes: ["signIn"], threads: ["main", "com.example.network"], [
            (0, 0, 1, 0, .subscribed), (10, 0, 1, 1, .next("r")), (11, 0, 1, 1, .next("s")), (30, 0, 1, 0, .completed),
        ])
        let document = try parseSVG(LaneSVGRenderer().render(LaneDiagram(recording)))
        #expect(try classed(document, "thread").compactMap { attribute($0, "data-thread") } == ["1", "2", "1"])
        #expect(try classed(document, "key-thread").compactMap(\.stringValue) == ["1main", "2com.example.network"])
    }

    @Test func anEmptyRecordingIsAPictureWithItsHeading() throws {
        let text = LaneSVGRenderer().render(LaneDiagram(LaneRecording()))
        let document = try parseSVG(text)
        #expect(try classed(document, "heading").first?.stringValue == "No events recorded.")
        #expect(try classed(document, "lane").isEmpty)
    }

    @Test func theHTMLPageHoldsThePictureTheLegendAndEveryEvent() throws {
        let recording = laneRecording(lanes: ["email", "signIn"], threads: ["main", "net <1>"], [
            (0, 0, 1, 0, .subscribed), (5, 0, 1, 0, .next("alice@example.com")), (6, 1, 1, 0, .subscribed),
            (20, 1, 1, 1, .error("offline & <down>")),
        ])
        let html = LaneHTMLPage.render(LaneDiagram(recording), title: "sign-in.lanes")
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains("<title>Lanes: sign-in.lanes</title>"))
        #expect(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(!html.contains("<?xml"))
        #expect(!html.contains("class=\"legend\" font-size"))
        #expect(html.contains("<code>alice@example.com</code>"))
        #expect(html.contains("signIn: <code>offline &amp; &lt;down&gt;</code>"))
        #expect(html.contains("2</span> net &lt;1&gt;</li>"))
        #expect(html.contains("<summary>Every event (4)</summary>"))
        #expect(html.components(separatedBy: "<tr><td class=\"time\">").count - 1 == 4)
        #expect(html.contains("<td class=\"time\">0.005000 s</td><td>email</td><td>1 main</td><td>next</td><td class=\"value\">alice@example.com</td>"))
        #expect(!html.contains("<script"))
    }
}
