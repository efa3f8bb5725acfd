import AllocCounter
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An order-sensitive checksum (FNV-1a over 64-bit words): a lost, extra or
/// reordered element changes it.
struct Checksum: Equatable, CustomStringConvertible {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    private(set) var count = 0

    @inline(__always)
    mutating func add(_ element: Int) {
        value = (value ^ UInt64(bitPattern: Int64(element))) &* 0x0000_0100_0000_01b3
        count += 1
    }

    /// The checksum of `values`, added in order.
    init<Values: Sequence<Int>>(of values: Values) {
        for value in values { add(value) }
    }

    /// An empty checksum.
    init() {}

    /// Folds another checksum in (for several subscribers, in a fixed order).
    mutating func combine(_ other: Checksum) {
        value = (value ^ other.value) &* 0x0000_0100_0000_01b3
        count += other.count
    }

    var description: String { "\(count) elements, hash \(String(value, radix: 16))" }
}

/// A subscriber's running checksum, shared by reference with the closures that feed it.
/// The checksum lives behind a pointer so that updating it pays for no dynamic
/// exclusivity check (a class's stored `var` would), keeping the floor honest.
final class Accumulator: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Checksum>

    init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: Checksum())
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    var checksum: Checksum { storage.pointee }

    @inline(__always)
    func add(_ element: Int) {
        storage.pointee.add(element)
    }
}

/// One implementation of a scenario: runs the whole workload once and returns the
/// checksum of what the final subscriber(s) received.
struct Variant {
    let run: () -> Checksum
    /// Shown next to the result when the implementation differs from the others
    /// (e.g. OpenCombine has no `share(replay:)`).
    var note: String? = nil
}

/// A workload run on Rivulet, on OpenCombine where it has an equivalent, and as the
/// floor: the same per-element work through closures the optimizer cannot see through.
struct Scenario {
    let name: String
    /// What one unit of work is ("element", "delivery", "subscription"...).
    let unit: String
    /// Units per run: the time of one run is divided by it.
    let units: Int
    /// What every implementation must produce.
    let expected: Checksum
    let rivulet: Variant
    let openCombine: Variant?
    let floor: Variant
    /// Why OpenCombine is missing, when it is.
    var openCombineMissing: String = "no equivalent"
    var note: String? = nil
}

/// The result of one implementation of a scenario.
struct Timing {
    /// Median nanoseconds per unit over the repetitions.
    let nanosecondsPerUnit: Double
    /// Spread: the fastest and slowest repetition, nanoseconds per unit.
    let fastest: Double
    let slowest: Double
    /// Heap allocations per unit in one extra run with counting on (nil when the
    /// counter is not available on this platform).
    let allocationsPerUnit: Double?
}

struct ScenarioResult {
    let scenario: Scenario
    let repetitions: Int
    let floor: Timing
    let rivulet: Timing
    let openCombine: Timing?
}

/// A monotonic clock reading in nanoseconds.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Writes `text` to standard error.
func printError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        _ = write(2, bytes.baseAddress, bytes.count)
    }
}

/// Stops the process with a clear message: a benchmark whose output is wrong
/// measures nothing.
func failCheck(_ scenario: String, _ implementation: String, expected: Checksum, got: Checksum) -> Never {
    let message = "rivulet-bench: CHECK FAILED in '\(scenario)' (\(implementation)): expected \(expected), got \(got)\n"
    printError(message)
    exit(2)
}

struct RunOptions {
    var repetitions = 7
    var warmups = 1
    var filter: String? = nil
    /// Divides every scenario's size (for a quick smoke run).
    var scale = 1
    /// Time allowed for one scenario's timed repetitions (all implementations together).
    var budgetNanosecondsPerScenario: UInt64 = 2_000_000_000
}

/// Runs `run` once, checks its result, returns the elapsed nanoseconds.
private func timedRun(_ scenario: Scenario, _ label: String, _ variant: Variant) -> UInt64 {
    let start = monotonicNanoseconds()
    let result = variant.run()
    let elapsed = monotonicNanoseconds() &- start
    if result != scenario.expected {
        failCheck(scenario.name, label, expected: scenario.expected, got: result)
    }
    return elapsed
}

/// Counts heap allocations over one checked run.
private func countedRun(_ scenario: Scenario, _ label: String, _ variant: Variant) -> Double? {
    guard alloc_counter_available() != 0 else { return nil }
    // The busy threads of `--load` allocate too: they wait while this run is counted.
    backgroundLoad.pause()
    defer { backgroundLoad.resume() }
    alloc_counter_set_enabled(1)
    let before = alloc_counter_allocations()
    let result = variant.run()
    let after = alloc_counter_allocations()
    alloc_counter_set_enabled(0)
    if result != scenario.expected {
        failCheck(scenario.name, label, expected: scenario.expected, got: result)
    }
    return Double(after &- before) / Double(scenario.units)
}

private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Warms up, then runs the implementations round-robin (so that a slow phase of the
/// machine hits all of them alike) and takes each one's median.
func measure(_ scenario: Scenario, options: RunOptions) -> ScenarioResult {
    var variants: [(String, Variant)] = [("floor", scenario.floor), ("Rivulet", scenario.rivulet)]
    if let openCombine = scenario.openCombine { variants.append(("OpenCombine", openCombine)) }

    var warmupNanoseconds: UInt64 = 0
    for _ in 0..<options.warmups {
        for (label, variant) in variants { warmupNanoseconds += timedRun(scenario, label, variant) }
    }
    // A slow scenario gets fewer repetitions (never under 3), so the whole run stays short.
    let roundNanoseconds = max(warmupNanoseconds / UInt64(max(options.warmups, 1)), 1)
    let affordable = Int(options.budgetNanosecondsPerScenario / roundNanoseconds)
    let repetitions = min(options.repetitions, max(3, affordable))
    var samples = Array(repeating: [Double](), count: variants.count)
    for _ in 0..<repetitions {
        for (index, (label, variant)) in variants.enumerated() {
            let elapsed = timedRun(scenario, label, variant)
            samples[index].append(Double(elapsed) / Double(scenario.units))
        }
    }
    var timings: [Timing] = []
    for (index, (label, variant)) in variants.enumerated() {
        let allocations = countedRun(scenario, label, variant)
        timings.append(Timing(
            nanosecondsPerUnit: median(samples[index]),
            fastest: samples[index].min() ?? 0,
            slowest: samples[index].max() ?? 0,
            allocationsPerUnit: allocations
        ))
    }
    return ScenarioResult(
        scenario: scenario,
        repetitions: repetitions,
        floor: timings[0],
        rivulet: timings[1],
        openCombine: variants.count > 2 ? timings[2] : nil
    )
}

// MARK: - Table

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let count = text.count
    if count >= width { return text }
    let padding = String(repeating: " ", count: width - count)
    return right ? padding + text : text + padding
}

private func format(_ value: Double, decimals: Int) -> String {
    var scaled = value
    for _ in 0..<decimals { scaled *= 10 }
    let rounded = Int64(scaled.rounded())
    if decimals == 0 { return String(rounded) }
    var divisor: Int64 = 1
    for _ in 0..<decimals { divisor *= 10 }
    let sign = rounded < 0 ? "-" : ""
    let magnitude = abs(rounded)
    let fraction = String(magnitude % divisor)
    return sign + String(magnitude / divisor) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
}

func nanoseconds(_ value: Double) -> String {
    value >= 100 ? format(value, decimals: 0) : value >= 10 ? format(value, decimals: 1) : format(value, decimals: 2)
}

func ratio(_ value: Double) -> String {
    value >= 100 ? format(value, decimals: 0) + "x" : value >= 10 ? format(value, decimals: 1) + "x" : format(value, decimals: 2) + "x"
}

private func allocations(_ value: Double?) -> String {
    guard let value else { return "n/a" }
    return format(value, decimals: 2)
}

/// Prints the table: median nanoseconds per unit, ratios, allocations per unit.
func printTable(_ results: [ScenarioResult], skipped: [(String, String)]) {
    let header = [
        pad("scenario", 34), pad("unit", 13),
        pad("floor ns", 9, right: true), pad("Rivulet ns", 11, right: true), pad("OpenCmb ns", 11, right: true),
        pad("Riv/floor", 10, right: true), pad("Riv/OpenCmb", 12, right: true),
        pad("Riv allocs", 11, right: true), pad("OC allocs", 10, right: true),
    ].joined(separator: " ")
    print(header)
    print(String(repeating: "-", count: header.count))
    for result in results {
        let scenario = result.scenario
        let openCombine = result.openCombine
        let row = [
            pad(scenario.name, 34), pad(scenario.unit, 13),
            pad(nanoseconds(result.floor.nanosecondsPerUnit), 9, right: true),
            pad(nanoseconds(result.rivulet.nanosecondsPerUnit), 11, right: true),
            pad(openCombine.map { nanoseconds($0.nanosecondsPerUnit) } ?? "-", 11, right: true),
            pad(ratio(result.rivulet.nanosecondsPerUnit / result.floor.nanosecondsPerUnit), 10, right: true),
            pad(openCombine.map { ratio(result.rivulet.nanosecondsPerUnit / $0.nanosecondsPerUnit) } ?? "-", 12, right: true),
            pad(allocations(result.rivulet.allocationsPerUnit), 11, right: true),
            pad(openCombine.map { allocations($0.allocationsPerUnit) } ?? "-", 10, right: true),
        ].joined(separator: " ")
        print(row)
    }
    for (name, reason) in skipped {
        print("\(pad(name, 34)) skipped: \(reason)")
    }
    var notes: [String] = []
    for result in results {
        if let note = result.scenario.note { notes.append("\(result.scenario.name): \(note)") }
        if let note = result.scenario.openCombine?.note { notes.append("\(result.scenario.name): OpenCombine \(note)") }
        if result.openCombine == nil { notes.append("\(result.scenario.name): OpenCombine: \(result.scenario.openCombineMissing)") }
    }
    if !notes.isEmpty {
        print("")
        for note in notes { print("note  \(note)") }
    }
    print("")
    print("repetitions and spread (fastest..slowest repetition, ns per unit)")
    for result in results {
        var line = "  \(pad(result.scenario.name, 34)) x\(result.repetitions)  floor \(nanoseconds(result.floor.fastest))..\(nanoseconds(result.floor.slowest))"
        line += "  Rivulet \(nanoseconds(result.rivulet.fastest))..\(nanoseconds(result.rivulet.slowest))"
        if let openCombine = result.openCombine {
            line += "  OpenCombine \(nanoseconds(openCombine.fastest))..\(nanoseconds(openCombine.slowest))"
        }
        print(line)
    }
}

/// Runs Rivulet's side of every scenario whose name contains `filter`, `options.repetitions`
/// times, checking each result; nothing else runs, so a profile shows only Rivulet's work.
/// Returns `false` when no scenario matched or a result was wrong.
func profileRivulet(matching filter: String, options: RunOptions) -> Bool {
    var matched = false
    for entry in scenarioCatalog(scale: options.scale) where entry.name.lowercased().contains(filter.lowercased()) {
        guard case .ready(let make) = entry.kind else { continue }
        matched = true
        let scenario = make()
        printError("profiling Rivulet: \(scenario.name) x\(options.repetitions)\n")
        for _ in 0..<options.repetitions where scenario.rivulet.run() != scenario.expected {
            printError("rivulet-bench: '\(scenario.name)' (Rivulet) gave a wrong result\n")
            return false
        }
    }
    if !matched { printError("rivulet-bench: no scenario matches '\(filter)'\n") }
    return matched
}
