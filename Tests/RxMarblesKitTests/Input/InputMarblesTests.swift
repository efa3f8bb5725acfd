import RxMarblesKit
import Testing

@Suite struct InputMarblesTests {
    @Test(arguments: Gallery.entries.filter { !$0.inputNames.isEmpty }.map(\.name))
    func theDefaultInputsWrittenAsMarblesRunTheSameExample(_ name: String) throws {
        let entry = try #require(Gallery.entry(named: name))
        let texts = entry.defaultInputMarbles
        #expect(texts.count == entry.inputNames.count)
        let inputs = try texts.map { try MarbleInputParser.parse($0) }
        let again = try entry.diagram(inputs: inputs)
        #expect(again == entry.diagram(), "\(name): \(texts)")
    }

    @Test func aTimelineIsWrittenOneCharacterPerFrame() {
        let timeline = Timeline(name: "a", events: [
            MarbleEvent(frame: 1, kind: .next("1")),
            MarbleEvent(frame: 3, kind: .next("2")),
            MarbleEvent(frame: 3, kind: .next("3")),
            MarbleEvent(frame: 5, kind: .completed),
        ])
        #expect(timeline.marbleText(frameCount: 9) == "-1-(23)-|")
        let endless = Timeline(name: "b", events: [MarbleEvent(frame: 2, kind: .next("x"))])
        #expect(endless.marbleText(frameCount: 9) == "--x")
    }
}
