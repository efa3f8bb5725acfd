#if PropertyTesting
import Foundation
import PropertyBased
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

/// The generators and the law checker themselves: what the inputs look like, that they
/// deliver what they say, and that a broken law is reported with its smallest input.
@Suite("Marble laws: generators, checking and shrinking")
struct MarbleLawKitTests {
    static let letters = Gen.int(in: 0...3).map { ["a", "b", "c", "d"][$0] }

    /// The inputs of a seed, drawn the way a law draws them.
    static func inputs<Shrinks>(_ generator: Generator<MarbleInput<String>, Shrinks>, count: Int = 300) -> [MarbleInput<String>] {
        var random = Xoshiro(seed: (1, 2, 3, 4))
        return (0..<count).map { _ in generator.run(using: &random) }
    }

    @Test("cold inputs: times from the subscription, in order, at most one ending, last")
    func coldShape() {
        let inputs = Self.inputs(MarbleGen.cold(Self.letters, MarbleShape(events: 0...4, gaps: 0...2)))
        for input in inputs {
            #expect(input.temperature == .cold)
            let times = input.events.map(\.time)
            #expect(times == times.sorted())
            #expect(times.allSatisfy { $0 >= 1 })
            #expect(input.events.filter { $0.value.isStopEvent }.count <= 1)
            #expect(input.events.dropLast().allSatisfy { !$0.value.isStopEvent })
            #expect(input.events.filter { $0.value.element != nil }.count <= 4)
        }
        // The generator reaches every shape the laws need.
        #expect(inputs.contains { $0.events.isEmpty })
        #expect(inputs.contains { $0.events.last?.value.isCompleted == true })
        #expect(inputs.contains { $0.events.last?.value.error != nil })
        #expect(inputs.contains { $0.marbles.contains("(") })
    }

    @Test("hot inputs: some events come before the subscription at 200, and are not delivered")
    func hotShape() {
        let inputs = Self.inputs(MarbleGen.hot(Self.letters))
        #expect(inputs.allSatisfy { $0.temperature == .hot && $0.events.allSatisfy { $0.time >= 198 && $0.time != 200 } })
        #expect(inputs.contains { $0.events.contains { $0.time < 200 } })
        for input in inputs {
            #expect(input.delivered() == input.events.filter { $0.time > 200 })
        }
    }

    @Test("a testable observable of an input delivers what delivered() says, hot or cold")
    func deliveredIsWhatTheSchedulerDelivers() {
        for input in Self.inputs(MarbleGen.any(Self.letters)) {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start { input.observable(in: scheduler) }
            #expect(observer.events == input.delivered(), "\(input)")
        }
    }

    @Test("an input's marbles parse back to its events")
    func marblesRoundTrip() throws {
        for input in Self.inputs(MarbleGen.any(Self.letters)) {
            let scheduler = TestScheduler(initialClock: 0)
            switch input.temperature {
            case .cold:
                #expect(try scheduler.parseMarbles(input.marbles, origin: 0) == input.events, "\(input)")
            case .hot:
                #expect(try scheduler.parseMarbles(input.marbles) == input.events, "\(input)")
            }
        }
    }

    @Test("descriptions: the temperature and the marbles, with a legend for long elements")
    func descriptions() {
        let cold = MarbleInput<String>(.cold, events: [.next(1, "a"), .next(3, "b"), .next(3, "c"), .completed(4)])
        #expect(cold.description == "cold \"-a-(bc)|\"")
        let hot = MarbleInput<Int>(.hot, events: [.next(199, 10), .next(202, 20), .error(203, MarbleDefaultError())])
        #expect(hot.description == "hot \"a^-b#\" (a = 10, b = 20)")
        let late = MarbleInput<String>(.hot, events: [.next(202, "x")])
        #expect(late.description == "hot \"^-x\"")
        // An input made by hand may have an event at the subscription's own tick: the
        // first column is 200 then, unmarked.
        let atSubscription = MarbleInput<String>(.hot, events: [.next(200, "x"), .completed(201)])
        #expect(atSubscription.description == "hot \"x|\"")
    }

    @Test("the same seed draws the same inputs; another seed others")
    func seeds() async {
        let recorder = LockedBox<[Int: [String]]>([:])
        let generator = MarbleGen.cold(Self.letters)
        for (run, seed) in [7, 7, 8 as UInt64].enumerated() {
            await expectMarbleLaw(cases: 20, seed: seed, input: generator) { source, scheduler in
                recorder.mutate { $0[run, default: []].append(source.description) }
                return source.observable(in: scheduler)
            } equals: { source, scheduler in
                source.observable(in: scheduler)
            }
        }
        let drawn = recorder.withLock { runs in runs.keys.sorted().map { runs[$0]! } }
        #expect(drawn.count == 3 && drawn[0].count == 20)
        #expect(drawn[0] == drawn[1])
        #expect(drawn[0] != drawn[2])
    }

    @Test("a law that holds returns no counterexample")
    func holdingLaw() async {
        let counterexample = await expectMarbleLaw(cases: 50, input: MarbleGen.any(Self.letters)) { source, scheduler in
            source.observable(in: scheduler).map { $0 + $0 }
        } equals: { source, scheduler in
            source.observable(in: scheduler).map { $0 + $0 }.filter { _ in true }
        }
        #expect(counterexample == nil)
    }

    // MARK: Shrinking

    /// Runs a law expected to break, keeping the issues it reports.
    static func breaking(
        _ law: () async -> MarbleCounterexample<MarbleInput<String>, String>?
    ) async -> (counterexample: MarbleCounterexample<MarbleInput<String>, String>?, issues: [String]) {
        let issues = LockedBox<[String]>([])
        var counterexample: MarbleCounterexample<MarbleInput<String>, String>?
        await withKnownIssue {
            counterexample = await law()
        } matching: { issue in
            issues.append(issue.comments.map(\.rawValue).joined(separator: "\n"))
            return true
        }
        return (counterexample, issues.value)
    }

    @Test("take(1) is not the source: the smallest input that shows it is one element, and it is reported", .shrinking)
    func shrinksTakeOne() async throws {
        let (counterexample, issues) = await Self.breaking {
            await expectMarbleLaw(input: MarbleGen.any(Self.letters)) { source, scheduler in
                source.observable(in: scheduler).take(1)
            } equals: { source, scheduler in
                source.observable(in: scheduler)
            }
        }
        let found = try #require(counterexample)
        #expect(found.input.description == "cold \"-a\"")
        #expect(found.actual == [.next(201, "a"), .completed(201)])
        #expect(found.expected == [.next(201, "a")])
        #expect(found.original.description != found.input.description)
        // The report shows the smallest input as marbles, with the two timelines.
        // Every candidate's report reaches the known-issue matcher; the last is the smallest's.
        let report = try #require(issues.last { $0.hasPrefix("Marble law broken by case") })
        #expect(report.contains("smallest input found by shrinking:\ncold \"-a\"\n"))
        #expect(report.contains("""
            Recorded events differ at index 1: expected nothing, got completed @ 201
            expected: -a
            actual:   -(a|)
            """))
        #expect(report.contains("one column = 1 tick, first column = time 200"))
    }

    /// A deliberately broken operator: it drops an element that arrives in the same
    /// virtual tick as the element before it.
    static func dropsSecondOfATick(_ source: Observable<String>, _ scheduler: TestScheduler) -> Observable<String> {
        Observable.create { observer in
            var lastTime: TestTime?
            return source.subscribe { event in
                if case .next = event {
                    defer { lastTime = scheduler.clock }
                    if lastTime == scheduler.clock { return }
                }
                observer.on(event)
            }
        }
    }

    @Test("a broken operator that loses simultaneous elements shrinks to a group of two", .shrinking)
    func shrinksToAGroup() async throws {
        let (counterexample, issues) = await Self.breaking {
            await expectMarbleLaw(cases: 300, input: MarbleGen.any(Self.letters, MarbleShape(events: 0...8))) { source, scheduler in
                Self.dropsSecondOfATick(source.observable(in: scheduler).asObservable(), scheduler)
            } equals: { source, scheduler in
                source.observable(in: scheduler)
            }
        }
        let found = try #require(counterexample)
        #expect(found.input.description == "cold \"-(aa)\"")
        #expect(found.original.events.count > found.input.events.count)
        #expect(issues.contains { $0.contains("cold \"-(aa)\"") && $0.contains("expected: ") })
    }

    /// Where the failure diagram test writes.
    static let diagramFolder = FileManager.default.temporaryDirectory.appendingPathComponent("rivulet-marble-law-diagrams").path

    @Test("with failure diagrams on, the smallest input's failure diagram is written", .shrinking, .failureDiagrams(in: diagramFolder))
    func failureDiagramOfTheSmallest() async throws {
        let (_, issues) = await Self.breaking {
            await expectMarbleLaw(input: MarbleGen.cold(Self.letters)) { source, scheduler in
                source.observable(in: scheduler).skip(1)
            } equals: { source, scheduler in
                source.observable(in: scheduler)
            }
        }
        let note = try #require(issues.first { $0.contains("failure diagram: ") })
        let path = try #require(note.components(separatedBy: "failure diagram: ").last)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.contains("<svg"))
        #expect(svg.contains("Recorded events differ at index 0: expected next(a) @ 201, got nothing"))
    }
}

#endif
