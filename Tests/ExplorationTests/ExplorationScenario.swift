import Foundation
import RxTest
import Testing

/// One explored scenario: a stateful part of the library raced by threads, with a property that can fail.
struct ExplorationScenario: Sendable, CustomTestStringConvertible {
    /// The stateful part explored, e.g. "zip", "PublishSubject", "CompositeDisposable".
    let part: String
    /// What races, e.g. "an element against dispose".
    let race: String
    let strategy: ScheduleStrategy
    /// The schedules of the full run.
    let schedules: Int
    let body: @Sendable (ScheduleRun) throws -> Void

    var name: String { "\(part): \(race)" }
    var testDescription: String { name }
}

extension ExplorationScenario {
    /// The schedules a scenario runs in the full run unless it says otherwise: with 60
    /// scenarios and more, the full run explores more than 100,000 schedules.
    static let fullRun = 1_700

    /// A scenario explored with PCT of `depth` from `seed`.
    init(
        _ part: String,
        _ race: String,
        depth: Int = 3,
        seed: UInt64,
        schedules: Int = fullRun,
        _ body: @escaping @Sendable (ScheduleRun) throws -> Void
    ) {
        self.init(part: part, race: race, strategy: .pct(depth: depth, seed: seed), schedules: schedules, body: body)
    }
}

/// Every explored scenario, family by family.
enum ExplorationCatalogue {
    static let all: [ExplorationScenario] =
        RxSwiftIssueScenarios.all
            + CombiningScenarios.all
            + FlatteningScenarios.all
            + FilteringScenarios.all
            + ErrorHandlingScenarios.all
            + SchedulerScenarios.all
            + SubjectScenarios.all
            + RelayScenarios.all
            + DisposableScenarios.all
            + SharingScenarios.all
            + TraitScenarios.all
            + TimerScenarios.all
            + LaneScenarios.all

    /// Scenarios that find a bug of the library still open: kept with their property,
    /// out of the run so that the suite stays green until the fix. None now.
    static let failing: [ExplorationScenario] = []
}

/// How many schedules each scenario runs: `RIVULET_EXPLORE_SCHEDULES` is a fraction of the
/// full run (`0.05`) or `full`; unset, a few schedules each, so that `swift test` stays quick.
enum ExplorationBudget {
    /// The environment variable that sets the budget.
    static let variable = "RIVULET_EXPLORE_SCHEDULES"
    /// The schedules of a scenario when the variable is unset.
    static let quick = 10

    static func schedules(for scenario: ExplorationScenario) -> Int {
        schedules(for: scenario, setting: ProcessInfo.processInfo.environment[variable])
    }

    /// The schedules of `scenario` under the variable's value `setting` (a malformed one
    /// counts as unset; ``fraction(_:)`` says what is wrong with it).
    static func schedules(for scenario: ExplorationScenario, setting: String?) -> Int {
        guard let fraction = try? fraction(setting) else { return min(quick, scenario.schedules) }
        return max(1, Int((Double(scenario.schedules) * fraction).rounded()))
    }

    /// The fraction of the full run that `setting` asks for; `nil` when unset.
    static func fraction(_ setting: String?) throws -> Double? {
        guard let setting = setting?.trimmingCharacters(in: .whitespaces), !setting.isEmpty else { return nil }
        if setting == "full" { return 1 }
        guard let fraction = Double(setting), fraction > 0, fraction <= 1 else {
            throw ExploredMismatch("\(variable)=\(setting): expected a fraction of the full run in (0, 1], such as 0.05, or full")
        }
        return fraction
    }
}

@Suite struct ExplorationTests {
    @Test(arguments: ExplorationCatalogue.all)
    func scenarioHolds(_ scenario: ExplorationScenario) {
        let exploration = exploreSchedules(scenario.strategy, schedules: ExplorationBudget.schedules(for: scenario), scenario.body)
        ExplorationReport.shared?.add(scenario, exploration)
    }

    @Test func theCatalogueNamesEachScenarioOnce() {
        let names = (ExplorationCatalogue.all + ExplorationCatalogue.failing).map(\.name)
        let repeated = Dictionary(grouping: names, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "scenarios named twice: \(repeated)")
    }

    @Test func theBudgetIsAFractionOfTheFullRun() throws {
        let scenario = ExplorationCatalogue.all[0]
        #expect(ExplorationBudget.schedules(for: scenario, setting: nil) == min(ExplorationBudget.quick, scenario.schedules))
        #expect(ExplorationBudget.schedules(for: scenario, setting: "full") == scenario.schedules)
        #expect(ExplorationBudget.schedules(for: scenario, setting: "0.5") == (scenario.schedules + 1) / 2)
        #expect(throws: ExploredMismatch.self) { try ExplorationBudget.fraction("half") }
        #expect(throws: ExploredMismatch.self) { try ExplorationBudget.fraction("2") }
        // The variable of this run, if set, is one the budget reads.
        _ = try ExplorationBudget.fraction(ProcessInfo.processInfo.environment[ExplorationBudget.variable])
    }
}

/// What `scripts/explore.sh` reads of a scenario run: with `RIVULET_EXPLORE_REPORT` set to
/// a file, one tab-separated line per scenario (`explored NAME SCHEDULES passed|failed
/// REPORT`), appended as each ends.
final class ExplorationReport: @unchecked Sendable {
    static let shared: ExplorationReport? = ProcessInfo.processInfo.environment["RIVULET_EXPLORE_REPORT"]
        .flatMap { try? ResultsFile(path: $0) }
        .map(ExplorationReport.init)

    private let file: ResultsFile

    private init(file: ResultsFile) {
        self.file = file
    }

    func add(_ scenario: ExplorationScenario, _ exploration: ScheduleExploration) {
        let failure = exploration.failure?.split(separator: "\n").first.map(String.init) ?? ""
        file.write("explored", scenario.name, "\(exploration.schedulesRun)", exploration.failure == nil ? "passed" : "failed", failure)
    }
}

/// A file that `scripts/explore.sh` reads: lines of tab-separated fields, appended from
/// any thread and flushed as each is written, so what was written survives a process
/// that stops.
final class ResultsFile: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()

    /// Opens `path` for appending, creating it when missing.
    init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
    }

    /// Appends one line of `fields`.
    func write(_ fields: String...) {
        write(fields)
    }

    /// Appends one line of `fields`; a tab or a line break inside a field becomes a
    /// separator of its own (a space, " / ").
    func write(_ fields: [String]) {
        let line = fields.map { $0.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " / ") }
            .joined(separator: "\t") + "\n"
        lock.lock()
        defer { lock.unlock() }
        handle.write(Data(line.utf8))
        try? handle.synchronize()
    }
}
