import Foundation
import RxSwift
import RxTestCore
import Testing
@testable import RxMarblesKit

/// The subscriptions an entry's default example made to its inputs, by input name.
private func subscriptionsOf(_ name: String) throws -> [String: [FrameSpan]] {
    let entry = try #require(Gallery.entry(named: name))
    var spans: [String: [FrameSpan]] = [:]
    for input in entry.diagram().inputs {
        spans[input.name] = input.subscriptions
    }
    return spans
}

private func span(_ start: Int, _ end: Int?) -> FrameSpan {
    FrameSpan(start: start, end: end)
}

/// The combining and higher-order entries: each output is what the operator does at
/// these frames, recorded by running it on a TestScheduler.
@Suite struct GalleryCombiningTests {
    @Test func mergePassesEverythingOnAndCompletesWithTheLastInput() throws {
        #expect(try outputOf("merge") == ["1:1", "3:2", "5:3", "7:4", "12:|"])
        #expect(try subscriptionsOf("merge") == ["a": [span(0, 9)], "b": [span(0, 12)]])
    }

    @Test func concatSubscribesTheSecondInputWhenTheFirstCompletes() throws {
        #expect(try outputOf("concat") == ["1:1", "3:2", "5:3", "8:4", "9:|"])
        #expect(try subscriptionsOf("concat") == ["a": [span(0, 4)], "b": [span(4, 9)]])
        let diagram = try #require(Gallery.entry(named: "concat")).diagram()
        #expect(diagram.inputs.map(\.isCold) == [true, true])
        #expect(diagram.showsSubscriptions)
    }

    @Test func withLatestFromDropsElementsBeforeTheOtherInputEmits() throws {
        #expect(try outputOf("withLatestFrom") == ["5:2a", "9:3b", "11:|"])
    }

    @Test func ambMirrorsTheFirstInputToEmitAndDropsTheOther() throws {
        #expect(try outputOf("amb") == ["1:7", "3:8", "5:9", "6:|"])
        #expect(try subscriptionsOf("amb") == ["a": [span(0, 1)], "b": [span(0, 6)]])
    }

    // The higher-order entries share one source, "-a--b-----a---|" (a at 1, b at 4, a
    // again at 10), and the cold inners a "-1---2|" and b "-3--4|".

    @Test func flatMapMergesEveryInnerStream() throws {
        #expect(try outputOf("flatMap") == ["2:1", "5:3", "6:2", "8:4", "11:1", "15:2", "16:|"])
        #expect(try subscriptionsOf("flatMap") == [
            "source": [span(0, 14)], "a": [span(1, 7), span(10, 16)], "b": [span(4, 9)],
        ])
    }

    @Test func flatMapLatestDropsThePreviousInnerStream() throws {
        #expect(try outputOf("flatMapLatest") == ["2:1", "5:3", "8:4", "11:1", "15:2", "16:|"])
        #expect(try subscriptionsOf("flatMapLatest") == [
            "source": [span(0, 14)], "a": [span(1, 4), span(10, 16)], "b": [span(4, 9)],
        ])
    }

    @Test func flatMapFirstIgnoresElementsWhileAnInnerStreamRuns() throws {
        #expect(try outputOf("flatMapFirst") == ["2:1", "6:2", "11:1", "15:2", "16:|"])
        #expect(try subscriptionsOf("flatMapFirst") == [
            "source": [span(0, 14)], "a": [span(1, 7), span(10, 16)], "b": [],
        ])
    }

    @Test func concatMapRunsTheInnerStreamsOneAfterAnother() throws {
        #expect(try outputOf("concatMap") == ["2:1", "6:2", "8:3", "11:4", "13:1", "17:2", "18:|"])
        #expect(try subscriptionsOf("concatMap") == [
            "source": [span(0, 14)], "a": [span(1, 7), span(12, 18)], "b": [span(7, 12)],
        ])
    }

    @Test func switchLatestMirrorsTheLatestInnerStream() throws {
        #expect(try outputOf("switchLatest") == ["2:1", "5:3", "8:4", "11:1", "15:2", "16:|"])
        #expect(try subscriptionsOf("switchLatest")["a"] == [span(1, 4), span(10, 16)])
    }

    @Test func higherOrderEntriesShowTheInnerStreamsAsColdInputsWithTheirSubscriptions() throws {
        for name in ["flatMap", "flatMapLatest", "flatMapFirst", "concatMap", "switchLatest"] {
            let diagram = try #require(Gallery.entry(named: name)).diagram()
            #expect(diagram.inputs.map(\.name) == ["source", "a", "b"])
            #expect(diagram.inputs.map(\.isCold) == [false, true, true])
            #expect(diagram.showsSubscriptions)
        }
        #expect(Gallery.entry(named: "switchMap")?.name == "flatMapLatest")
        #expect(Gallery.entry(named: "exhaustMap")?.name == "flatMapFirst")
    }

    @Test func higherOrderEntriesTakeUserInputsAndRefuseUnknownInnerNames() throws {
        let entry = try #require(Gallery.entry(named: "flatMapLatest"))
        let source = try MarbleInputParser.parse("-b--a---|")
        let a = try MarbleInputParser.parse("-1-2|")
        let b = try MarbleInputParser.parse("-3---4|")
        let diagram = try entry.diagram(inputs: [source, a, b])
        // b from 1 (3 at 2); a from 4 ends b before its 4 (1 at 5, 2 at 7, completes
        // at 8 with the source).
        #expect(diagram.output.events.map { "\($0.frame):\($0.kind.symbol)" } == ["2:3", "5:1", "7:2", "8:|"])
        #expect(diagram.inputs[2].subscriptions == [FrameSpan(start: 1, end: 4)])

        let wrong = try MarbleInputParser.parse("-c-|")
        do {
            _ = try entry.diagram(inputs: [wrong, a, b])
            Issue.record("an unknown inner name was accepted")
        } catch let error as GalleryInputError {
            guard case let .valueNotAccepted(_, input, name, key, _, _, expected) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(input == 1)
            #expect(name == "source")
            #expect(key == "c")
            #expect(expected.contains("a, b"))
        }
        #expect(throws: GalleryInputError.self) { try entry.diagram(inputs: [source, a]) }
    }
}

@Suite struct GallerySharingTests {
    @Test func publishSubscribesToTheSourceWhenConnected() throws {
        #expect(try outputOf("publish") == ["4:1", "6:2", "8:3", "10:|"])
        #expect(try subscriptionsOf("publish") == ["source": [span(3, 10)]])
        #expect(Gallery.entry(named: "connect")?.name == "publish")
    }
}

@Suite struct SubscriptionsInSVGTests {
    private func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func theSVGDrawsTheSubscriptionsOfExamplesAboutThem() throws {
        let diagram = try #require(Gallery.entry(named: "flatMapFirst")).diagram()
        let svg = SVGRenderer().render(diagram)
        // The source once, a twice, b never.
        #expect(count("class=\"subscription\"", in: svg) == 3)
        #expect(svg.contains("data-start=\"1\" data-end=\"7\""))
        #expect(svg.contains("data-start=\"10\" data-end=\"16\""))
        #expect(!svg.contains("data-name=\"b\" stroke"))
    }

    @Test func otherExamplesDrawThemOnlyWhenAsked() throws {
        let map = try #require(Gallery.entry(named: "map")).diagram()
        #expect(count("class=\"subscription\"", in: SVGRenderer().render(map)) == 0)
        let asked = SVGRenderer(showSubscriptions: true)
        #expect(asked.render(map).contains("data-start=\"0\" data-end=\"9\""))
        // One line of subscriptions makes room under the input; the output moves down.
        let plain = SVGRenderer().geometry(map)
        let withLines = asked.geometry(map)
        #expect(withLines.height == plain.height + 14 + 6)
        #expect(withLines.rowAxes[0] == plain.rowAxes[0])
        #expect(withLines.rowAxes[1] == plain.rowAxes[1] + 14 + 6)
    }
}
