import Foundation
import RxSwift
import RxTestCore
import Testing
@testable import RxMarblesKit

/// `--chain` and `--compare`: several gallery operators in one diagram, computed by the
/// real operators.
@Suite struct CombinationTests {
    func parse(_ texts: String...) throws -> [MarbleInput] {
        try texts.map { try MarbleInputParser.parse($0) }
    }

    @Test func aChainFeedsEachOutputToTheNextOperator() throws {
        let chain = try Gallery.chain(["filter", "map"], inputs: parse("-1-2-3-4|"))
        let filtered = try #require(Gallery.entry(named: "filter")).diagram(inputs: parse("-1-2-3-4|"))
        // filter passes 2 and 4: what map then gets, written as marbles by hand.
        let mapped = try #require(Gallery.entry(named: "map")).diagram(inputs: parse("---2---4|"))
        #expect(chain.stages.map(\.name) == ["filter"])
        #expect(chain.stages[0].output.events == filtered.output.events)
        #expect(chain.output.events == mapped.output.events)
        #expect(shownEvents(chain.output) == ["3:20", "7:40", "8:|"])
        #expect(chain.steps.map(\.call) == [filtered.call, mapped.call])
        #expect(chain.name == "filter → map")
    }

    @Test func aStageGetsTheOutputBeforeItAsItHappened() throws {
        // delaySubscription's own example is cold and would replay the 1 and 2 from its
        // late subscription; after map, the stream is the output of map, already gone by
        // frame 3: only what map emits from then on arrives.
        let chain = try Gallery.chain(["map", "delaySubscription"], inputs: parse("-1-2-3-4|"))
        #expect(chain.stages[0].output.events.map(\.frame) == [1, 3, 5, 7, 8])
        #expect(shownEvents(chain.output) == ["5:30", "7:40", "8:|"])
    }

    @Test func aChainRefusesWhatItCannotFeed() throws {
        #expect(throws: CombinationError.self) { try Gallery.chain(["map", "combineLatest"], inputs: nil) }
        #expect(throws: CombinationError.self) { try Gallery.chain(["map"], inputs: nil) }
        do {
            _ = try Gallery.chain(["buffer", "map"], inputs: nil)
            Issue.record("map took buffer's arrays")
        } catch let error as CombinationError {
            #expect(!error.isUsageError)
            #expect(error.description.hasPrefix("map cannot take what buffer gives it: '[1, 2]' at frame"), "\(error.description)")
        }
    }

    @Test func aComparisonRunsEveryOperatorOnTheSameInputsAndMarksTheDifferences() throws {
        let compared = try Gallery.compare(["flatMap", "concatMap", "flatMapLatest"], inputs: nil)
        let names = ["flatMap", "concatMap", "flatMapLatest"]
        for (step, name) in names.enumerated() {
            let alone = try #require(Gallery.entry(named: name)).diagram()
            #expect(compared.steps[step].output.events == alone.output.events, "\(name)")
            #expect(compared.steps[step].output.name == name)
        }
        // flatMapLatest drops the 2 that flatMap passes at frame 6: by then the source's
        // b has replaced the inner stream a.
        #expect(compared.differingFrames(ofStep: 2) == [6])
        #expect(compared.differingFrames(ofStep: 0).isEmpty)
        let text = TextRenderer().render(compared)
        #expect(text.contains("  flatMapLatest  --1--3--4--1---2|\n                       *  differs from flatMap\n"))
        let svg = try parseSVG(SVGRenderer().render(compared))
        let marked = try nodes(svg, "//*[@class='differs']").compactMap { intAttribute($0, "data-frame") }
        #expect(Set(marked) == compared.differingFrames(ofStep: 1).union(compared.differingFrames(ofStep: 2)))
        #expect(try nodes(svg, "//*[@class='operator']").count == 3)
    }

    @Test func aComparisonNeedsOperatorsThatTakeTheSameInputs() {
        #expect(throws: CombinationError.self) { try Gallery.compare(["map", "combineLatest"], inputs: nil) }
    }

    @Test func everyLineOfACombinationAsPrintedIsMarbleTextOfItsStream() throws {
        for diagram in [try Gallery.chain(["filter", "map", "debounce"], inputs: parse("-1-2-3-4-5-6|")), try Gallery.compare(["merge", "concat"], inputs: nil)] {
            let layout = MarbleLayout(diagram)
            let text = TextRenderer().render(diagram)
            for (row, timeline) in diagram.timelines.enumerated() {
                let marbles = layout.marbles(row: row)
                #expect(text.contains(marbles + "\n"), "\(diagram.name): \(marbles)")
                let legend = Dictionary(uniqueKeysWithValues: layout.keys.legend.map { ($0.key, $0.label) })
                #expect(try parsedEvents(marbles, legend: legend, zeroFrame: timeline.zeroFrame) == shownEvents(timeline))
            }
        }
    }

    @Test func theCommandDrawsChainsAndComparisonsAndRefusesMixedOptions() throws {
        var text = ""
        let chain = try RxMarblesCommand.parse(["--chain", "filter, map", "--input", "-1-2-3-4|", "--events"])
        try chain.execute(environment: ToolEnvironment(stdoutIsTerminal: false, variables: [:])) { text += $0 }
        #expect(text.hasPrefix("filter → map"))
        #expect(text.contains("  filter output: [.next(3, 2), .next(7, 4), .completed(8)]\n"))
        #expect(text.contains("  output: [.next(3, 20), .next(7, 40), .completed(8)]\n"))
        for arguments in [["--chain", "map"], ["--chain", "map,nosuch"], ["map", "--chain", "map,filter"],
                          ["--chain", "map,filter", "--compare", "map,filter"], ["--chain", "map,filter", "--list"]] {
            #expect(throws: UsageError.self, "\(arguments)") { try RxMarblesCommand.parse(arguments) }
        }
    }
}
