import Testing
@testable import RxMarblesKit

/// `rxmarbles --test`: the tests it writes. scripts/written-tests.sh compiles and runs
/// them in a package of their own; here every operator is checked to be writable, and
/// what is written is checked against the diagram.
@Suite struct TestWriterTests {
    static let styles: [TestStyle] = [.xctest, .swiftTesting]

    @Test(arguments: Gallery.entries.map(\.name))
    func everyOperatorCanBeWrittenInBothStyles(_ name: String) throws {
        let entry = try #require(Gallery.entry(named: name))
        let diagram = entry.diagram()
        for style in Self.styles {
            let text = try TestWriter(style: style).write(diagram, entry: entry)
            #expect(text.contains(style == .xctest ? "XCTAssertEqual(observer.events, " : "expectEvents(observer, marbles: "))
            for input in diagram.inputs {
                #expect(text.contains("let \(input.name) = "), "\(name): \(input.name) is not declared")
            }
        }
    }

    @Test func userInputsAreWrittenWithTheirKeysAndZeroPoint() throws {
        let entry = try #require(Gallery.entry(named: "map"))
        let diagram = try entry.diagram(inputs: [MarbleInputParser.parse("-1-^-2-(34)|")])
        let text = try TestWriter(style: .swiftTesting).write(diagram, entry: entry)
        #expect(text.contains(#"let source = try scheduler.createHotObservable("-1-^-2-(34)|", values: ["1": 1, "2": 2, "3": 3, "4": 4], origin: 3)"#))
        #expect(text.contains("scheduler.scheduleAt(3) { subscription.disposable = output.subscribe(observer) }"))
        #expect(text.contains(#"expectEvents(observer, marbles: "---^-a-(bc)|", values: ["a": 20, "b": 30, "c": 40], origin: 3)"#))
        let xctest = try TestWriter(style: .xctest).write(diagram, entry: entry)
        #expect(xctest.contains("XCTAssertEqual(observer.events, [.next(5, 20), .next(7, 30), .next(7, 40), .completed(8)])"))
    }

    @Test func theCommandPrintsTheTestAndRefusesWhatItCannotWrite() throws {
        let command = try RxMarblesCommand.parse(["scan", "--input", "9999|", "--test", "xctest"])
        var text = ""
        try command.execute(environment: ToolEnvironment(stdoutIsTerminal: false, variables: [:])) { text += $0 }
        #expect(text.contains("final class ScanMarbleTestCase: XCTestCase {"))
        #expect(text.contains("[.next(0, 9), .next(1, 18), .next(2, 27), .next(3, 36), .completed(4)]"))
        #expect(throws: UsageError.self) { try RxMarblesCommand.parse(["--test", "xctest"]) }
        #expect(throws: UsageError.self) { try RxMarblesCommand.parse(["map", "--test", "junit"]) }
        #expect(throws: UsageError.self) { try RxMarblesCommand.parse(["map", "--test", "xctest", "--svg", "m.svg"]) }
    }

    @Test func aComparisonIsWrittenAsATestPerOperatorOnTheSameInputs() throws {
        let runs = try Gallery.comparedRuns(["merge", "concat"], inputs: [MarbleInputParser.parse("-1-2|"), MarbleInputParser.parse("-3|")])
        let text = try TestWriter(style: .xctest).write(comparing: runs)
        #expect(text.contains("final class MergeComparisonTestCase: XCTestCase {"))
        #expect(text.contains("    func testMerge() {") && text.contains("    func testConcat() {"))
        for run in runs {
            // Each test is the operator's own, as --test writes it alone.
            let alone = try TestWriter(style: .xctest).write(run.diagram, entry: run.entry)
            let body = alone.components(separatedBy: "\n").filter { $0.hasPrefix("        ") }
            #expect(!body.isEmpty && body.allSatisfy { text.contains($0) }, "\(run.entry.name)")
        }
        var printed = ""
        try RxMarblesCommand.parse(["--compare", "merge,concat", "--input", "-1-2|", "--input", "-3|", "--test", "swift-testing"])
            .execute(environment: ToolEnvironment(stdoutIsTerminal: false, variables: [:])) { printed += $0 }
        #expect(printed == (try TestWriter(style: .swiftTesting).write(comparing: runs)))
    }

    @Test func aChainIsWrittenAsATestPerStageOnWhatTheStageBeforeEmitted() throws {
        let runs = try Gallery.chainedRuns(["filter", "map"], inputs: [MarbleInputParser.parse("-1-2-3-4|")])
        // Every stage ran until the same frame.
        #expect(Set(runs.compactMap { $0.diagram.run?.disposeFrame }).count == 1)
        let text = try TestWriter(style: .swiftTesting).write(chaining: runs)
        #expect(text.contains("@Suite struct FilterMapChainTests {"))
        #expect(text.contains("    @Test func stage1Filter() throws {") && text.contains("    @Test func stage2Map() throws {"))
        // map's test starts from what filter emitted.
        #expect(text.contains(#"let source = try scheduler.createHotObservable("---2---4|", values: ["2": 2, "4": 4], origin: 0)"#))
        #expect(text.contains(#"expectEvents(observer, marbles: "---a---b|", values: ["a": 20, "b": 40], origin: 0)"#))
        var printed = ""
        try RxMarblesCommand.parse(["--chain", "filter,map", "--input", "-1-2-3-4|", "--test", "swift-testing"])
            .execute(environment: ToolEnvironment(stdoutIsTerminal: false, variables: [:])) { printed += $0 }
        #expect(printed == text)
    }

    @Test func stringLabelsAreSwiftLiteralsAndNamesAreIdentifiers() {
        #expect(TestWriter.literal(#"say "hi"\"#, type: "String") == #""say \"hi\"\\""#)
        #expect(TestWriter.literal("[1, 2]", type: "Array<Int>") == "[1, 2]")
        #expect(TestWriter.identifier("catch") == "catchExample")
        #expect(TestWriter.identifier("observe(on:)") == "observeon")
    }
}
