/// How ``exploreSchedules(_:schedules:patience:fileID:filePath:line:column:_:)`` chooses, at every
/// synchronization point, which of the run's threads goes on.
///
/// - ``random(seed:)`` picks uniformly among the threads that can go on.
/// - ``pct(depth:seed:)`` is probabilistic concurrency testing: threads get random
///   priorities and the highest-priority thread runs until one of `depth - 1` random
///   steps lowers it. A bug that needs `depth` ordering constraints between threads is
///   found with a probability bounded below, schedule after schedule.
/// - ``exhaustive(preemptionBound:)`` tries every schedule that switches away from a
///   thread that could have gone on at most `preemptionBound` times, in depth-first order,
///   until there is none left.
/// - ``replay(_:)`` runs the one schedule a failure report printed.
///
/// The same strategy and seed run the same schedules, every time, as long as the body
/// does the same work given the same order.
public struct ScheduleStrategy: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case random(seed: UInt64)
        case pct(depth: Int, seed: UInt64)
        case exhaustive(preemptionBound: Int)
        case replay([Int])
        /// A replay spelling that does not parse: what is wrong with it.
        case malformedReplay(String)
    }

    let kind: Kind

    /// Uniformly random choices, from `seed`.
    public static func random(seed: UInt64) -> ScheduleStrategy {
        ScheduleStrategy(kind: .random(seed: seed))
    }

    /// Probabilistic concurrency testing for bugs of depth `depth` (at least 1), from `seed`.
    public static func pct(depth: Int = 2, seed: UInt64) -> ScheduleStrategy {
        precondition(depth >= 1, "RxTest: a PCT depth is at least 1 (got \(depth))")
        return ScheduleStrategy(kind: .pct(depth: depth, seed: seed))
    }

    /// Every schedule with at most `preemptionBound` preemptions.
    public static func exhaustive(preemptionBound: Int = 2) -> ScheduleStrategy {
        precondition(preemptionBound >= 0, "RxTest: a preemption bound is at least 0 (got \(preemptionBound))")
        return ScheduleStrategy(kind: .exhaustive(preemptionBound: preemptionBound))
    }

    /// The schedule of a failure report: the threads that ran, step by step, as the
    /// report spells them (`"0*12 1*3 0*5"`: thread 0 for 12 steps, then thread 1 for 3...).
    /// A spelling that does not parse runs nothing and fails the test, naming the run
    /// that is wrong.
    public static func replay(_ schedule: String) -> ScheduleStrategy {
        switch ScheduleSpelling.parse(schedule) {
        case let .success(choices): ScheduleStrategy(kind: .replay(choices))
        case let .failure(problem): ScheduleStrategy(kind: .malformedReplay(problem.description))
        }
    }

    public var description: String {
        switch kind {
        case let .random(seed): ".random(seed: \(seed))"
        case let .pct(depth, seed): ".pct(depth: \(depth), seed: \(seed))"
        case let .exhaustive(bound): ".exhaustive(preemptionBound: \(bound))"
        case let .replay(choices): ".replay(\"\(ScheduleSpelling.spell(choices))\")"
        case .malformedReplay: ".replay(a malformed spelling)"
        }
    }

    /// The chooser of schedule `index`, given what the earlier schedules left (`previous`);
    /// `nil` once an exhaustive search or a replay has nothing left to run.
    func chooser(index: Int, previous: ScheduleChooser?) -> ScheduleChooser? {
        switch kind {
        case let .random(seed):
            return ScheduleChooser(rule: .random(SplitMix(seed: seed, stream: index)))
        case let .pct(depth, seed):
            var generator = SplitMix(seed: seed, stream: index)
            // The change points fall within the steps the longest schedule so far took.
            let length = max(previous?.longestRun ?? 0, 16)
            let points = (1..<depth).map { _ in Int(generator.next() % UInt64(length)) + 1 }
            var chooser = ScheduleChooser(rule: .pct(generator, changePoints: points, depth: depth))
            chooser.longestRun = length
            return chooser
        case let .exhaustive(bound):
            guard let previous else { return ScheduleChooser(rule: .exhaustive(prefix: [], bound: bound)) }
            guard let prefix = previous.nextExhaustivePrefix(bound: bound) else { return nil }
            return ScheduleChooser(rule: .exhaustive(prefix: prefix, bound: bound))
        case let .replay(choices):
            return previous == nil ? ScheduleChooser(rule: .replay(choices)) : nil
        case .malformedReplay:
            return nil
        }
    }
}

/// One choice point of a run: the threads that could go on (by number, ascending), the
/// one that was running and could go on (if any), and the one chosen.
struct ChoicePoint {
    let enabled: [Int]
    let current: Int?
    let chosen: Int
}

/// The choices of one schedule, made by its strategy's rule and written down.
struct ScheduleChooser {
    enum Rule {
        case random(SplitMix)
        case pct(SplitMix, changePoints: [Int], depth: Int)
        case exhaustive(prefix: [Int], bound: Int)
        case replay([Int])
    }

    var rule: Rule
    private(set) var points: [ChoicePoint] = []
    /// Thread priorities (PCT): a higher number runs first.
    private var priorities: [Int: Int] = [:]
    /// The longest run seen, carried from schedule to schedule (PCT's change points).
    var longestRun = 0
    /// PCT's change points (their indices) whose step came while no running thread could
    /// go on: each lowers the priority of the next running thread that can.
    private var pendingChanges: [Int] = []
    /// Set when a replayed schedule asked for a thread that could not go on.
    private(set) var replayDiverged: (step: Int, wanted: Int, enabled: [Int])?

    init(rule: Rule) {
        self.rule = rule
    }

    /// The threads chosen, step by step.
    var choices: [Int] { points.map(\.chosen) }

    /// Chooses among `enabled` (thread numbers, ascending, never empty); `current` is the
    /// running thread when it could go on.
    mutating func choose(among enabled: [Int], current: Int?) -> Int {
        let step = points.count
        let chosen: Int
        switch rule {
        case var .random(generator):
            chosen = enabled[Int(generator.next() % UInt64(enabled.count))]
            rule = .random(generator)
        case .pct(var generator, let changePoints, let depth):
            for thread in enabled where priorities[thread] == nil {
                // Initial priorities sit above every value a change point gives.
                priorities[thread] = depth + Int(generator.next() % 1_000_000)
            }
            // A change point is never skipped: one whose step finds no running thread
            // that can go on (it finished, or waits for a lock) waits for the next one.
            pendingChanges += changePoints.indices.filter { changePoints[$0] == step + 1 }
            if let current, !pendingChanges.isEmpty {
                priorities[current] = depth - 1 - pendingChanges.max()!
                pendingChanges = []
            }
            chosen = enabled.max { (priorities[$0] ?? 0, -$0) < (priorities[$1] ?? 0, -$1) }!
            rule = .pct(generator, changePoints: changePoints, depth: depth)
        case let .exhaustive(prefix, _):
            if step < prefix.count, enabled.contains(prefix[step]) {
                chosen = prefix[step]
            } else {
                chosen = current ?? enabled[0]
            }
        case let .replay(choices):
            if step < choices.count, enabled.contains(choices[step]) {
                chosen = choices[step]
            } else {
                if step < choices.count, replayDiverged == nil {
                    replayDiverged = (step, choices[step], enabled)
                }
                chosen = current ?? enabled[0]
            }
        }
        points.append(ChoicePoint(enabled: enabled, current: current, chosen: chosen))
        longestRun = max(longestRun, points.count)
        return chosen
    }

    /// The prefix of the next schedule of a depth-first search with at most `bound`
    /// preemptions: the last choice point with an untried alternative, taken.
    func nextExhaustivePrefix(bound: Int) -> [Int]? {
        var preemptionsBefore: [Int] = []
        var count = 0
        for point in points {
            preemptionsBefore.append(count)
            if let current = point.current, point.chosen != current { count += 1 }
        }
        for index in points.indices.reversed() {
            let point = points[index]
            // Alternatives are tried in ascending thread order after the default choice
            // (the running thread, else the lowest number).
            let ordered = Self.order(point)
            guard let position = ordered.firstIndex(of: point.chosen) else { continue }
            for alternative in ordered[(position + 1)...] {
                let preempts = point.current != nil && alternative != point.current
                if preemptionsBefore[index] + (preempts ? 1 : 0) <= bound {
                    return points[..<index].map(\.chosen) + [alternative]
                }
            }
        }
        return nil
    }

    private static func order(_ point: ChoicePoint) -> [Int] {
        guard let current = point.current else { return point.enabled }
        return [current] + point.enabled.filter { $0 != current }
    }
}

/// A small, fast, seedable generator (SplitMix64): the same seed and stream give the same
/// numbers on every platform.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64, stream: Int) {
        state = seed &+ 0x9E37_79B9_7F4A_7C15 &* UInt64(truncatingIfNeeded: stream &+ 1)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A schedule written as runs of thread numbers: `"0*12 1*3 0*5"`.
enum ScheduleSpelling {
    static func spell(_ choices: [Int]) -> String {
        var runs: [String] = []
        var index = 0
        while index < choices.count {
            var end = index
            while end + 1 < choices.count, choices[end + 1] == choices[index] { end += 1 }
            runs.append("\(choices[index])*\(end - index + 1)")
            index = end + 1
        }
        return runs.joined(separator: " ")
    }

    /// What is wrong with a spelling, in words.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ text: String) -> Result<[Int], Malformed> {
        var choices: [Int] = []
        for (position, run) in text.split(separator: " ").enumerated() {
            let parts = run.split(separator: "*", omittingEmptySubsequences: false)
            guard parts.count == 2, let thread = Int(parts[0]), let count = Int(parts[1]), thread >= 0, count > 0 else {
                return .failure(Malformed(description: "the replay spelling \"\(text)\" has \"\(run)\" as its run \(position + 1); each run is THREAD*COUNT (a thread number, then how many steps it takes), as a failure report prints it"))
            }
            choices += Array(repeating: thread, count: count)
        }
        if choices.isEmpty {
            return .failure(Malformed(description: "the replay spelling is empty; copy it from a failure report, as \"0*2 1*3\""))
        }
        return .success(choices)
    }
}
