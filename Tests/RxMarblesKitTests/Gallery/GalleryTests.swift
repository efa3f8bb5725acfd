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

    @Test func moreFilteringExamples() throws {
        #expect(try outputOf("skip") == ["5:3", "7:4", "9:|"])
        #expect(try outputOf("distinctUntilChanged") == ["1:1", "5:2", "9:1", "11:3", "13:|"])
        #expect(try outputOf("takeWhile") == ["1:1", "3:2", "5:|"])
        #expect(try outputOf("skipWhile") == ["5:3", "7:1", "9:|"])
        #expect(try outputOf("takeLast") == ["9:3", "9:4", "9:|"])
        #expect(try outputOf("elementAt") == ["5:3", "5:|"])
        #expect(try outputOf("ignoreElements") == ["7:|"])
        #expect(try outputOf("takeUntil") == ["1:1", "3:2", "5:3", "6:|"])
        #expect(try outputOf("skipUntil") == ["5:3", "7:4", "9:|"])
    }

    @Test func accumulatingExamples() throws {
        #expect(try outputOf("scan") == ["1:1", "4:3", "7:6", "9:|"])
        #expect(try outputOf("reduce") == ["9:6", "9:|"])
        #expect(try outputOf("compactMap") == ["1:1", "5:2", "9:3", "11:|"])
    }

    @Test func combiningExamples() throws {
        #expect(try outputOf("startWith") == ["0:0", "3:1", "6:2", "8:|"])
        #expect(try outputOf("combineLatest") == ["2:1a", "4:2a", "5:2b", "8:3b", "9:|"])
        // As in RxSwift, zip completes once every input has (or when an element arrives
        // that can never be paired): b ends at 9 with nothing queued, a ends at 10.
        #expect(try outputOf("zip") == ["2:1a", "5:2b", "8:3c", "10:|"])
    }

    @Test func timeExamples() throws {
        #expect(try outputOf("debounce") == ["3:1", "7:3", "11:4", "11:|"])
        #expect(try outputOf("throttle") == ["1:1", "4:3", "9:4", "12:5", "14:|"])
        #expect(try outputOf("sample") == ["3:2", "9:4", "12:|"])
        #expect(try outputOf("delay") == ["3:1", "6:2", "8:3", "10:|"])
        #expect(try outputOf("delaySubscription") == ["3:1", "5:2", "7:|"])
        #expect(try outputOf("buffer") == ["2:[1, 2]", "7:[3]", "12:[]", "12:|"])
        #expect(try outputOf("timeout") == ["1:1", "3:2", "6:#"])
        #expect(try outputOf("takeFor") == ["1:1", "3:2", "5:3", "5:|"])
    }

    @Test func errorHandlingExamples() throws {
        #expect(try outputOf("catch") == ["1:1", "3:2", "5:7", "7:8", "8:|"])
        #expect(try outputOf("catchAndReturn") == ["1:1", "3:2", "5:0", "5:|"])
        #expect(try outputOf("retry") == ["1:1", "3:2", "6:1", "8:2", "10:#"])
        let retry = try #require(Gallery.entry(named: "retry")).diagram()
        #expect(retry.inputs[0].subscriptions == [FrameSpan(start: 0, end: 5), FrameSpan(start: 5, end: 10)])
        let fallback = try #require(Gallery.entry(named: "catch")).diagram().inputs[1]
        #expect(fallback.isCold)
        #expect(fallback.subscriptions == [FrameSpan(start: 5, end: 8)])
    }

    @Test func shareSubscribesToTheColdSourceOnceAndShowsIt() throws {
        let entry = try #require(Gallery.entry(named: "share"))
        let diagram = entry.diagram()
        #expect(diagram.output.events.map { "\($0.frame):\($0.kind.symbol)" } == ["3:12", "5:23", "7:|"])
        // Two subscribers (zip's two inputs), one subscription to the source.
        #expect(diagram.inputs[0].subscriptions == [FrameSpan(start: 0, end: 7)])
        #expect(diagram.showsSubscriptions)
        #expect(TextRenderer().render(diagram).contains("\n                 ^------!\n"))
    }

    @Test func theGallerysMarblesAreReadByRxTestCore() throws {
        let map = try #require(Gallery.entry(named: "map")).diagram()
        #expect(map.inputs[0].events == [
            MarbleEvent(frame: 1, kind: .next("1")),
            MarbleEvent(frame: 4, kind: .next("2")),
            MarbleEvent(frame: 7, kind: .next("3")),
            MarbleEvent(frame: 9, kind: .completed),
        ])
    }

    @Test func aZeroPointDelaysTheSubscriptionOfTheOutput() throws {
        let entry = try #require(Gallery.entry(named: "map"))
        let input = try MarbleInputParser.parse("-1-^-2-3|")
        let diagram = try entry.diagram(inputs: [input])
        // Everything moves right so that the first event is at frame 0; the output
        // subscribes at the zero point (frame 3) and misses the 1.
        #expect(diagram.inputs[0].events.map(\.frame) == [1, 5, 7, 8])
        #expect(diagram.output.zeroFrame == 3)
        #expect(diagram.output.events.map(\.kind.symbol) == ["20", "30", "|"])
        #expect(diagram.inputs[0].subscriptions == [FrameSpan(start: 3, end: 8)])
        // The input as typed, `^` included; the output's `^` where it subscribed.
        #expect(TextRenderer().render(diagram).contains("  source  -1-^-2-3|\n"))
        #expect(TextRenderer().render(diagram).contains("\n          ---^-a-b|\n          a = 20, b = 30\n"))
    }

    @Test func coldInputsCannotHaveEventsBeforeTheZeroPoint() throws {
        let entry = try #require(Gallery.entry(named: "subscribeOn"))
        let input = try MarbleInputParser.parse("1^-2|")
        #expect(throws: GalleryInputError.coldInputBeforeZero(operator: "subscribeOn", input: 1, name: "source")) {
            try entry.diagram(inputs: [input])
        }
    }

    @Test func theParserKeepsKeysPositionsAndTimes() throws {
        let input = try MarbleInputParser.parse("-a-(bc)-#")
        #expect(input.events.map(\.time) == [1, 3, 3, 5])
        #expect(input.positions == [1, 4, 5, 8])
        #expect(input.events.prefix(3).map { $0.value.element } == ["a", "b", "c"])
        #expect(input.events.last?.value.error != nil)
        #expect(input.frameCount == 6)
        #expect(throws: (any Error).self) { try MarbleInputParser.parse("-a-(b") }
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
        // subscribe(on:) subscribes one tick late, and disposes on the scheduler too: the
        // cold source ends at 8 and is unsubscribed at 9, as in RxSwift.
        let subscribeOn = try #require(Gallery.entry(named: "subscribeOn")).diagram()
        #expect(subscribeOn.inputs[0].subscriptions == [FrameSpan(start: 1, end: 9)])
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
        #expect(throws: GalleryInputError.valueNotAccepted(operator: "map", input: 1, name: "source", key: "x", frame: 3, position: nil, expected: "a digit 0-9 (this example works on integers)")) {
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
