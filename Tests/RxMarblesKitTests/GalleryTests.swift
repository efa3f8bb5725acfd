import RxSwift
import RxTestCore
import Testing
@testable import RxMarblesKit

/// The output events of an entry's default example as (frame, symbol) pairs.
func outputOf(_ name: String) throws -> [String] {
    let entry = try #require(Gallery.entry(named: name))
    return entry.diagram().output.events.map { "\($0.frame):\($0.kind.symbol)" }
}

@Suite struct GalleryTests {
    @Test func namesAndAliasesAreUniqueAndEveryEntryHasText() {
        let entries = Gallery.entries
        #expect(!entries.isEmpty)
        let spellings = entries.flatMap { [$0.name.lowercased()] + $0.aliases.map { $0.lowercased() } }
        #expect(Set(spellings).count == spellings.count)
        for entry in entries {
            #expect(!entry.summary.isEmpty, "\(entry.name) has no summary")
            #expect(!entry.summary.contains("\n"), "\(entry.name)'s summary is not one line")
            #expect(entry.inputNames.count >= entry.inputCount.lowerBound)
        }
    }

    @Test func everyEntryRunsAndDrawsItsOutput() {
        for entry in Gallery.entries {
            let diagram = entry.diagram()
            #expect(diagram.name == entry.name)
            #expect(diagram.inputs.map(\.name) == entry.inputNames)
            #expect(!diagram.call.isEmpty)
            // Every default example shows something happen on the output within its frames.
            if entry.name != "never" {
                #expect(!diagram.output.events.isEmpty, "\(entry.name) drew an empty output")
            }
            #expect(diagram.frameCount > (diagram.timelines.compactMap(\.lastFrame).max() ?? -1))
        }
    }

    @Test func lookupIgnoresCaseAndKnowsAliases() {
        #expect(Gallery.entry(named: "MAP")?.name == "map")
        #expect(Gallery.entry(named: "observe(on:)")?.name == "observeOn")
        #expect(Gallery.entry(named: "subscribe(on:)")?.name == "subscribeOn")
        #expect(Gallery.entry(named: "nope") == nil)
    }

    // The outputs below are what RxSwift's operators do at these virtual times; the
    // gallery computes them by running the operators.
    @Test func transformingAndFilteringExamples() throws {
        #expect(try outputOf("map") == ["1:10", "4:20", "7:30", "9:|"])
        #expect(try outputOf("filter") == ["3:2", "7:4", "11:|"])
        #expect(try outputOf("take") == ["1:1", "3:2", "3:|"])
    }

    @Test func creationExamples() throws {
        #expect(try outputOf("just") == ["0:1", "0:|"])
        #expect(try outputOf("of") == ["0:1", "0:2", "0:3", "0:|"])
        #expect(try outputOf("range") == ["0:1", "0:2", "0:3", "0:4", "0:|"])
        #expect(try outputOf("interval") == ["3:0", "6:1", "9:2", "12:3"])
        #expect(try outputOf("timer") == ["4:0", "4:|"])
        #expect(try outputOf("empty") == ["0:|"])
        #expect(try outputOf("error") == ["0:#"])
        #expect(try outputOf("never") == [])
    }

    @Test func schedulingExamplesShowTheProcessingDelay() throws {
        // observe(on:) on a TestScheduler delivers each event one tick later.
        #expect(try outputOf("observeOn") == ["2:1", "5:2", "7:3", "9:|"])
        // subscribe(on:) subscribes one tick later, so the cold source starts at 1.
        #expect(try outputOf("subscribeOn") == ["1:1", "4:2", "6:3", "8:|"])
    }

    @Test func theInputsRecordTheirSubscriptions() throws {
        // take(2) disposes its source when the second element arrives.
        let take = try #require(Gallery.entry(named: "take")).diagram()
        #expect(take.inputs[0].subscriptions == [FrameSpan(start: 0, end: 3)])
        // subscribe(on:) subscribes one tick late; the cold source ends at 8.
        let subscribeOn = try #require(Gallery.entry(named: "subscribeOn")).diagram()
        #expect(subscribeOn.inputs[0].subscriptions == [FrameSpan(start: 1, end: 8)])
        // map keeps its source until the source completes.
        let map = try #require(Gallery.entry(named: "map")).diagram()
        #expect(map.inputs[0].subscriptions == [FrameSpan(start: 0, end: 9)])
    }

    @Test func userInputsReplaceTheDefaultsAndTheOperatorRunsOnThem() throws {
        let entry = try #require(Gallery.entry(named: "map"))
        let input = MarbleInput(events: [.next(2, "4"), .next(3, "5"), .completed(6)], frameCount: 7)
        let diagram = try entry.diagram(inputs: [input])
        #expect(diagram.inputs[0].events.map(\.kind.symbol) == ["4", "5", "|"])
        #expect(diagram.output.events == [
            MarbleEvent(frame: 2, kind: .next("40")),
            MarbleEvent(frame: 3, kind: .next("50")),
            MarbleEvent(frame: 6, kind: .completed),
        ])
        #expect(diagram.frameCount >= 7)
    }

    @Test func userErrorsPassThrough() throws {
        let entry = try #require(Gallery.entry(named: "filter"))
        let input = MarbleInput(events: [.next(1, "2"), .error(3, ExampleError("bad"))], frameCount: 4)
        let diagram = try entry.diagram(inputs: [input])
        #expect(diagram.output.events == [MarbleEvent(frame: 1, kind: .next("2")), MarbleEvent(frame: 3, kind: .error("bad"))])
    }

    @Test func valuesTheExampleCannotTakeAreRefused() throws {
        let entry = try #require(Gallery.entry(named: "map"))
        let input = MarbleInput(events: [.next(1, "1"), .next(3, "x"), .completed(4)], frameCount: 5)
        #expect(throws: GalleryInputError.valueNotAccepted(operator: "map", input: 1, name: "source", key: "x", frame: 3, expected: "a digit 0-9 (this example works on integers)")) {
            try entry.diagram(inputs: [input])
        }
    }

    @Test func theNumberOfInputsIsChecked() throws {
        let map = try #require(Gallery.entry(named: "map"))
        let input = MarbleInput(events: [.completed(1)], frameCount: 2)
        do {
            _ = try map.diagram(inputs: [input, input])
            Issue.record("two inputs for map were accepted")
        } catch let error as GalleryInputError {
            #expect(error.isUsageError)
            #expect(error.description == "map takes 1 input stream (source); got 2 --input.")
        }
        let just = try #require(Gallery.entry(named: "just"))
        #expect(throws: GalleryInputError.self) { try just.diagram(inputs: [input]) }
    }
}
