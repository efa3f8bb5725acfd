#if PropertyTesting
import PropertyBased
import RxSwift
import RxTestCore
import Testing

/// Marble laws: properties of operators checked over generated marble inputs (see
/// ``MarbleGen``), with exact virtual times.
///
/// A law runs `cases` inputs drawn from a seeded generator, so the same seed checks the
/// same inputs on every run. Each side of the law runs in a `TestScheduler` of its own,
/// created at 100, subscribed at 200 and disposed at 1000, as `start` does. When an input
/// breaks the law, swift-property-based shrinks it (fewer events, smaller gaps and
/// elements, simpler endings) and the failure shows the smallest input that still breaks
/// it, drawn as marbles, with the expected and actual timelines (and its failure diagram,
/// when failure diagrams are on).
public enum MarbleLaws {
    /// The seed a law uses unless given one.
    public static let defaultSeed: UInt64 = 24

    /// The state of the generator of `seed`: splitmix64's first four outputs, which are
    /// never all zero.
    static func state(of seed: UInt64) -> (UInt64, UInt64, UInt64, UInt64) {
        var mixer = seed
        func next() -> UInt64 {
            mixer &+= 0x9E37_79B9_7F4A_7C15
            var z = mixer
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return (next(), next(), next(), next())
    }
}

/// The smallest input a law's check found that breaks it, and what it did.
public struct MarbleCounterexample<Input, Output> {
    /// The smallest input found that breaks the law.
    public let input: Input
    /// The input that broke the law first, before shrinking.
    public let original: Input
    /// The 0-based index of the case that broke the law first.
    public let caseIndex: Int
    /// The seed of the check.
    public let seed: UInt64
    /// What the law's first side delivered for `input`.
    public let actual: [Recorded<Event<Output>>]
    /// What the law says it must deliver for `input`.
    public let expected: [Recorded<Event<Output>>]
}

/// Checks that two observables built from the same generated input deliver the same
/// events at the same virtual times, for `cases` inputs.
///
/// ```swift
/// @Test func mapFusion() async {
///     await expectMarbleLaw(input: MarbleGen.cold(Gen.int(in: 0...9))) { source, scheduler in
///         source.observable(in: scheduler).map { $0 + 1 }.map { $0 * 2 }
///     } equals: { source, scheduler in
///         source.observable(in: scheduler).map { ($0 + 1) * 2 }
///     }
/// }
/// ```
///
/// Each side gets a scheduler of its own and is subscribed at 200. A broken law is
/// reported with the smallest input found, as marbles; in Swift Testing the input is
/// shrunk, in XCTest the first one found is reported as it is.
///
/// - Parameters:
///   - cases: How many inputs to check.
///   - seed: The seed of the inputs; the same seed checks the same inputs.
///   - input: The generator of inputs: a ``MarbleGen`` generator, or several zipped
///     with other values.
///   - fileID: The file a broken law is reported in; the caller's by default.
///   - filePath: The path of that file; the caller's by default.
///   - line: The line a broken law is reported at; the caller's by default.
///   - column: The column a broken law is reported at; the caller's by default.
///   - lhs: The first side, built in `scheduler`; its events are "actual".
///   - rhs: The second side; its events are "expected".
/// - Returns: The smallest counterexample, when the law is broken.
@discardableResult
public func expectMarbleLaw<Input: Sendable, Left: ObservableConvertibleType, Right: ObservableConvertibleType>(
    cases: Int = 100,
    seed: UInt64 = MarbleLaws.defaultSeed,
    input: Generator<Input, some SendableSequenceType>,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ lhs: @escaping @Sendable (Input, TestScheduler) -> Left,
    equals rhs: @escaping @Sendable (Input, TestScheduler) -> Right
) async -> MarbleCounterexample<Input, Left.Element>? where Left.Element == Right.Element, Left.Element: Equatable {
    await checkLaw(
        cases: cases, seed: seed, input: input,
        at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { value in
        (actual: run(lhs, on: value), expected: run(rhs, on: value))
    }
}

/// Checks that an observable built from a generated input delivers what a model of the
/// law computes from that input, for `cases` inputs.
///
/// ```swift
/// @Test func startWith() async {
///     await expectMarbleLaw(input: MarbleGen.hot(Gen.int(in: 0...9))) { source, scheduler in
///         source.observable(in: scheduler).startWith(-1)
///     } delivers: { source in
///         [.next(200, -1)] + source.delivered()
///     }
/// }
/// ```
///
/// - Parameters:
///   - cases: How many inputs to check.
///   - seed: The seed of the inputs; the same seed checks the same inputs.
///   - input: The generator of inputs.
///   - fileID: The file a broken law is reported in; the caller's by default.
///   - filePath: The path of that file; the caller's by default.
///   - line: The line a broken law is reported at; the caller's by default.
///   - column: The column a broken law is reported at; the caller's by default.
///   - actual: The observable, built in `scheduler` and subscribed at 200.
///   - expected: The events it must deliver, with their virtual times.
/// - Returns: The smallest counterexample, when the law is broken.
@discardableResult
public func expectMarbleLaw<Input: Sendable, Actual: ObservableConvertibleType>(
    cases: Int = 100,
    seed: UInt64 = MarbleLaws.defaultSeed,
    input: Generator<Input, some SendableSequenceType>,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ actual: @escaping @Sendable (Input, TestScheduler) -> Actual,
    delivers expected: @escaping @Sendable (Input) -> [Recorded<Event<Actual.Element>>]
) async -> MarbleCounterexample<Input, Actual.Element>? where Actual.Element: Equatable {
    await checkLaw(
        cases: cases, seed: seed, input: input,
        at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { value in
        (actual: run(actual, on: value), expected: expected(value))
    }
}

/// The events one side of a law delivers for `input`, in a scheduler of its own.
private func run<Input, Side: ObservableConvertibleType>(
    _ side: @escaping @Sendable (Input, TestScheduler) -> Side,
    on input: Input
) -> [Recorded<Event<Side.Element>>] {
    let scheduler = TestScheduler(initialClock: 0)
    return scheduler.start { side(input, scheduler) }.events
}

/// Runs `cases` inputs through `outcome`; on the first that breaks the law, shrinks it
/// (Swift Testing) and reports the smallest.
private func checkLaw<Input: Sendable, Output: Equatable>(
    cases: Int,
    seed: UInt64,
    input generator: Generator<Input, some SendableSequenceType>,
    at site: CallSite,
    outcome: (Input) -> (actual: [Recorded<Event<Output>>], expected: [Recorded<Event<Output>>])
) async -> MarbleCounterexample<Input, Output>? {
    precondition(cases >= 0, "cases cannot be negative")
    let initial = MarbleLaws.state(of: seed)
    var random = Xoshiro(seed: initial)
    for index in 0..<cases {
        let state = random.currentState
        let value = generator.run(using: &random)
        let first = outcome(value)
        guard first.actual != first.expected else { continue }

        var smallest = (input: value, actual: first.actual, expected: first.expected)
        let describe = { (input: Input, actual: [Recorded<Event<Output>>], expected: [Recorded<Event<Output>>], which: String) in
            lawFailureMessage(input: input, actual: actual, expected: expected, index: index, cases: cases, seed: seed, which: which)
        }
        if let test = Test.current {
            // swift-property-based regenerates the same input from the same state, shrinks
            // it and calls the body with every candidate; the last failing call is the
            // smallest input, and the only one whose issue is not suppressed.
            let replay = FixedSeedTrait.fixedSeed(state.0, state.1, state.2, state.3, sourceLocation: site.sourceLocation)
            await replay.provideScope(for: test, testCase: Test.Case.current) {
                await propertyCheck(count: 1, input: generator, perform: { candidate in
                    let result = outcome(candidate)
                    guard result.actual != result.expected else { return }
                    smallest = (candidate, result.actual, result.expected)
                    let shrunk = String(describingForTest: candidate) != String(describingForTest: value)
                    Issue.record(
                        Comment(rawValue: describe(candidate, result.actual, result.expected, shrunk ? "smallest input found by shrinking" : "input")),
                        sourceLocation: site.sourceLocation
                    )
                }, isolation: nil, sourceLocation: site.sourceLocation)
            }
        } else {
            reportFailure(describe(value, first.actual, first.expected, "input (not shrunk: shrinking needs Swift Testing)"), at: site)
        }
        if let note = FailureDiagrams.note(actual: smallest.actual, expected: smallest.expected, at: site) {
            reportFailure("Marble law broken by the input above; " + note.prefix(1).lowercased() + note.dropFirst(), at: site)
        }
        return MarbleCounterexample(
            input: smallest.input, original: value, caseIndex: index, seed: seed,
            actual: smallest.actual, expected: smallest.expected
        )
    }
    return nil
}

/// The failure text of a broken law: which case, `which` input it shows and the input
/// as marbles, then the two timelines.
private func lawFailureMessage<Input, Output: Equatable>(
    input: Input,
    actual: [Recorded<Event<Output>>],
    expected: [Recorded<Event<Output>>],
    index: Int,
    cases: Int,
    seed: UInt64,
    which: String
) -> String {
    // The timelines one tick per column from the subscription (or an earlier event), as
    // the inputs are drawn.
    let start = min(TestScheduler.Defaults.subscribed, (actual + expected).map(\.time).min() ?? TestScheduler.Defaults.subscribed)
    let layout = MarbleLayout(frame: 1, zero: start, start: start, marksZero: false, keysSpanTicks: false)
    let keys = MarbleKeyBook(values: [String: Output](), errors: [:], layout: layout)
    return """
    Marble law broken by case \(index + 1) of \(cases) (seed \(seed)); \(which):
    \(String(describingForTest: input))
    \(recordedEventsMismatchMessage(actual, expected, keys: keys))
    """
}
#endif
