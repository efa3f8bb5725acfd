import Foundation
import RxSwift
import RxTest
import Testing

/// The concurrency mutants' run (`scripts/explore.sh`): each mutant of Rivulet's locks and
/// atomics (RxSwift's `Mutation`) is put in force in turn, and the scenarios that reach
/// its point are explored under it until one fails, which kills it. Only with
/// `RIVULET_MUTANT_RESULTS` set, as the script sets it.
///
/// What it writes to that file, one tab-separated line each, appended as it goes so that
/// the script can resume after a mutant stopped the process:
/// - `reached MUTANT SCENARIOS`: a mutant whose point the scenarios reach, and how many
///   reach it (the census, run first, unmutated);
/// - `failing SCENARIO REPORT`: a scenario that fails with no mutant (it cannot kill);
/// - `start MUTANT`, then `killed MUTANT SCENARIO REPORT` or `survived MUTANT SCENARIOS`.
///
/// A mutant that already has a `killed` or `survived` line is skipped, and so is the one
/// a `start` line was left for (the script records how it ended the process).
@Suite struct MutantRun {
    static let environment = ProcessInfo.processInfo.environment

    @Test(.enabled(if: environment["RIVULET_MUTANT_RESULTS"] != nil))
    func everyMutantIsExploredUntilAScenarioKillsIt() throws {
        let results = try MutantResults(path: try #require(Self.environment["RIVULET_MUTANT_RESULTS"]))
        let scenarios = ExplorationCatalogue.all
        let perMutant = Int(Self.environment["RIVULET_MUTANT_SCHEDULES"] ?? "") ?? 200
        // The mutants to run, one spelling a line, each alone or as `MUTANT=SCENARIO`:
        // the scenarios so named must each fail under the mutant, which re-creates the
        // bug they were written for. Unset or empty: every mutant, tried with every
        // scenario that reaches its point until one fails.
        var only: Set<String>?
        var named: [String: [String]] = [:]
        if let list = Self.environment["RIVULET_MUTANTS"], !list.isEmpty {
            only = []
            for entry in list.split(separator: "\n") {
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                only?.insert(parts[0])
                if parts.count == 2 { named[parts[0], default: []].append(parts[1]) }
            }
        }

        // The census: which scenarios reach which points, with no mutant in force.
        var reaching: [Mutation.Mutant: [Int]] = [:]
        var usable: [Int] = []
        for (index, scenario) in scenarios.enumerated() {
            Mutation.record(true)
            let exploration = exploreSchedulesQuietly(scenario.strategy, schedules: min(20, scenario.schedules), patience: 1, scenario.body)
            Mutation.record(false)
            if let failure = exploration.failure {
                results.write("failing", scenario.name, Self.firstLine(failure))
                continue
            }
            usable.append(index)
            for mutant in Mutation.takeReached() { reaching[mutant, default: []].append(index) }
        }
        // The library's own points; the test kit's and the tests' are not mutated.
        let libraries = ["RxSwift/", "RxRelay/", "RxCocoa/", "RxBlocking/"]
        let mutants = reaching.keys
            .filter { mutant in libraries.contains { mutant.fileID.hasPrefix($0) } }
            .sorted { $0.description < $1.description }
        if !results.hasCensus {
            for mutant in mutants { results.write("reached", "\(mutant)", "\(reaching[mutant]?.count ?? 0)") }
        }

        for mutant in mutants where !results.isDone(mutant) {
            if let only, !only.contains(mutant.description) { continue }
            results.write("start", "\(mutant)")
            Mutation.activate(mutant)
            var killer: (scenario: String, report: String)?
            var tried = reaching[mutant] ?? []
            if let names = named[mutant.description] {
                // Each named scenario must fail: the first that passes saves the mutant.
                tried = names.compactMap { name in scenarios.firstIndex { $0.name == name } }
                let failures = tried.map { index in
                    let scenario = scenarios[index]
                    return exploreSchedulesQuietly(scenario.strategy, schedules: min(perMutant, scenario.schedules), patience: 1, scenario.body).failure
                }
                if tried.count == names.count, failures.allSatisfy({ $0 != nil }) {
                    killer = (names.joined(separator: " and "), failures.compactMap { $0 }.map(Self.firstLine).joined(separator: " // "))
                }
                tried = []
            }
            // Each scenario under its own strategy, then under random choices: a lost
            // update needs one thread stopped at one exact step, which random choices
            // reach where few change points of PCT's may not.
            search: for index in tried {
                let scenario = scenarios[index]
                let schedules = min(perMutant, scenario.schedules)
                for strategy in [scenario.strategy, .random(seed: UInt64(index + 1))] {
                    let exploration = exploreSchedulesQuietly(strategy, schedules: schedules, patience: 1, scenario.body)
                    if let failure = exploration.failure {
                        killer = (scenario.name, Self.firstLine(failure))
                        break search
                    }
                }
            }
            Mutation.activate(nil)
            if let killer {
                results.write("killed", "\(mutant)", killer.scenario, killer.report)
            } else {
                results.write("survived", "\(mutant)", "\(tried.count)")
            }
        }
    }

    /// The line of a failure report that says what failed.
    private static func firstLine(_ report: String) -> String {
        let lines = report.split(separator: "\n", omittingEmptySubsequences: true)
        // "Schedule N of STRATEGY failed: PROBLEM", then the problem's own lines.
        return lines.prefix(2).joined(separator: " / ")
    }
}

/// The results file of a mutant run, appended to line by line.
private final class MutantResults {
    private let file: ResultsFile
    private let done: Set<String>
    let hasCensus: Bool

    init(path: String) throws {
        let existing = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        var done = Set<String>()
        var hasCensus = false
        for line in existing.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 2 else { continue }
            switch fields[0] {
            case "start", "killed", "survived": done.insert(fields[1])
            case "reached": hasCensus = true
            default: break
            }
        }
        self.done = done
        self.hasCensus = hasCensus
        file = try ResultsFile(path: path)
    }

    func isDone(_ mutant: Mutation.Mutant) -> Bool {
        done.contains(mutant.description)
    }

    func write(_ fields: String...) {
        file.write(fields)
    }
}
