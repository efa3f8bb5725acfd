#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// rivulet-bench: runs every scenario on Rivulet, on OpenCombine where it has an
// equivalent, and as the floor (the same per-element work through opaque closures),
// then prints a table of time per unit and ratios. `--alloc-check` only counts heap
// allocations and exits non-zero when a count is over its budget (AllocCheck.swift).

let usage = """
usage: rivulet-bench [--alloc-check] [--sweep] [--quick] [--repetitions N] [--filter TEXT] [--no-alloc]
                     [--sizes LIST] [--no-sweep] [--profile-rivulet TEXT] [--load K] [--threads-only]

  (no option)       run every scenario and print the table, then the size sweep and
                    the allocation counts
  --alloc-check     only count allocations; exit 1 when one is over its budget
  --sweep           only the size sweep (n = 1k, 10k, 100k); --filter picks its rows
  --sizes LIST      the sweep's sizes, comma-separated (default 1000,10000,100000)
  --no-sweep        skip the size sweep after the table (also skipped with --filter)
  --quick           a tenth of each scenario's size and 3 repetitions (smoke test)
  --repetitions N   timed repetitions per implementation (default: up to 7, fewer but at
                    least 3 when 7 rounds would take over 2 s; the median is shown)
  --filter TEXT     only the scenarios whose name contains TEXT
  --threads-only    only the multi-threaded scenarios (7 and 13 to 20b); --filter narrows them
  --load K          start K busy threads (each spinning and allocating) before the
                    scenarios and stop them after (default 0); the table's header says so
  --no-alloc        skip the allocation counts after the table
  --profile-rivulet TEXT
                    run only Rivulet's side of the scenarios whose name contains TEXT,
                    repeatedly and untimed, for a profiler (perf, callgrind)
"""

var options = RunOptions()
var allocCheckOnly = false
var allocationReport = true
var sweepOnly = false
var sweepReport = true
var profileFilter: String? = nil
var threadsOnly = false
var loadThreads = 0
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--alloc-check":
        allocCheckOnly = true
    case "--sweep":
        sweepOnly = true
    case "--sizes":
        guard let value = arguments.popFirst(), case let sizes = value.split(separator: ",").compactMap({ Int($0) }),
              !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }) else {
            printError("rivulet-bench: --sizes needs positive numbers, e.g. 1000,10000\n\(usage)\n")
            exit(64)
        }
        sweepSizes = sizes
    case "--no-sweep":
        sweepReport = false
    case "--no-alloc":
        allocationReport = false
    case "--quick":
        options.scale = 10
        options.repetitions = 3
    case "--repetitions":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else {
            printError("rivulet-bench: --repetitions needs a positive number\n\(usage)\n")
            exit(64)
        }
        options.repetitions = value
        options.budgetNanosecondsPerScenario = .max
    case "--filter":
        guard let value = arguments.popFirst() else {
            printError("rivulet-bench: --filter needs a text\n\(usage)\n")
            exit(64)
        }
        options.filter = value
    case "--threads-only":
        threadsOnly = true
    case "--load":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), (0...64).contains(value) else {
            printError("rivulet-bench: --load needs a number of threads from 0 to 64\n\(usage)\n")
            exit(64)
        }
        loadThreads = value
    case "--profile-rivulet":
        guard let value = arguments.popFirst() else {
            printError("rivulet-bench: --profile-rivulet needs a text\n\(usage)\n")
            exit(64)
        }
        profileFilter = value
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        printError("rivulet-bench: unknown option \(argument)\n\(usage)\n")
        exit(64)
    }
}

if allocCheckOnly {
    let passed = runAllocationCheck(enforce: true)
    print(passed ? "alloc-check: passed" : "alloc-check: FAILED (a count is over its budget in AllocCheck.swift)")
    exit(passed ? 0 : 1)
}

// The sweep's median is over 3 runs per size unless --repetitions says otherwise.
let sweepRepetitions = options.budgetNanosecondsPerScenario == .max ? options.repetitions : 3

if sweepOnly {
    runSweep(filter: options.filter, repetitions: sweepRepetitions)
    exit(0)
}

if let profileFilter {
    exit(profileRivulet(matching: profileFilter, options: options) ? 0 : 1)
}

#if DEBUG
print("warning: a debug build; times mean nothing (use ./run.sh or swift build -c release)\n")
#endif

let scale = options.scale
let entries = scenarioCatalog(scale: scale)
var results: [ScenarioResult] = []
var skipped: [(String, String)] = []
backgroundLoad.start(threads: loadThreads)
let started = monotonicNanoseconds()
for entry in entries {
    if let filter = options.filter, !entry.name.lowercased().contains(filter.lowercased()) { continue }
    if threadsOnly && !entry.multiThreaded { continue }
    switch entry.kind {
    case .ready(let make):
        let scenario = make()
        printError("running \(scenario.name)...\n")
        results.append(measure(scenario, options: options))
    case .skipped(let reason):
        skipped.append((entry.name, reason))
    }
}
let elapsed = Double(monotonicNanoseconds() - started) / 1e9
let ran = Set(results.map { $0.scenario.name })
// The slow consumer's backlog is measured under the same load as its row.
let slowConsumerMemory = ran.contains(SlowConsumer.name) ? SlowConsumer(scale: scale).memoryReport() : []
// So are the blocking calls' latencies, when a blocking row ran.
let blockingLatencies = ran.contains(where: { $0.hasPrefix("20") }) ? blockingLatencyReport(calls: max(1_000 / scale, 100)) : []
backgroundLoad.stop()

print("Rivulet benchmarks: median of up to \(options.repetitions) runs after \(options.warmups) warm-up; ns per unit; allocs = heap allocations per unit")
print("load: \(loadThreads == 0 ? "none" : "\(loadThreads) busy thread\(loadThreads == 1 ? "" : "s") (spinning and allocating) beside the scenarios")")
print("")
printTable(results, skipped: skipped)
print("")
print("scenarios took \(String(Int(elapsed.rounded()))) s")
if ran.contains(where: { $0.hasPrefix("12 ") }) {
    print(laneRingMemory())
}
for line in slowConsumerMemory { print(line) }
for line in blockingLatencies { print(line) }
if sweepReport, options.filter == nil, !threadsOnly {
    print("")
    runSweep(filter: nil, repetitions: sweepRepetitions)
}
if allocationReport {
    print("")
    _ = runAllocationCheck(enforce: false)
}
