/// A scenario in the table: built on demand, or skipped because an operator it needs
/// has not landed in Rivulet yet.
struct CatalogEntry {
    enum Kind {
        case ready(() -> Scenario)
        case skipped(String)
    }
    let name: String
    let kind: Kind
    /// Whether more than one thread does the work (`--threads-only` runs these).
    var multiThreaded = false
}

/// Every scenario in table order; sizes are divided by `scale` for a quick run.
func scenarioCatalog(scale: Int) -> [CatalogEntry] {
    func size(_ full: Int) -> Int { max(full / scale, 10) }
    return [
        CatalogEntry(name: "1 sync chain", kind: .ready { syncChainScenario(count: size(1_000_000)) }),
        CatalogEntry(name: "2 fan-out", kind: .ready { fanOutScenario(events: size(100_000), subscribers: 10) }),
        CatalogEntry(name: "3 churn", kind: .ready { churnScenario(count: size(50_000)) }),
        CatalogEntry(name: "4 flatMap", kind: .ready { flatMapScenario(outer: size(10_000)) }),
        CatalogEntry(name: "4b flatMap, synchronous outer", kind: .ready { synchronousFlatMapScenario(outer: size(100_000)) }),
        CatalogEntry(name: "5 combineLatest", kind: .ready { combineLatestScenario(events: size(500_000)) }),
        CatalogEntry(name: "5b combineLatest, ranges", kind: .ready { combineLatestScenario(events: size(500_000), inputs: .ranges) }),
        CatalogEntry(name: "6 zip", kind: .ready { zipScenario(events: size(500_000)) }),
        CatalogEntry(name: "6b zip, ranges", kind: .ready { zipScenario(events: size(500_000), inputs: .ranges) }),
        CatalogEntry(name: "7 observe(on:)", kind: .ready { observeOnScenario(count: size(200_000)) }, multiThreaded: true),
        CatalogEntry(name: "8 merge", kind: .ready { mergeScenario(events: size(100_000), sources: 100) }),
        CatalogEntry(name: "9 share(replay: 1)", kind: .ready { shareReplayScenario(events: size(100_000), subscribers: 10) }),
        CatalogEntry(name: "10 Driver", kind: .ready { driverScenario(count: size(100_000)) }),
        // The size is fixed: the scenario is defined as 100,000 events.
        CatalogEntry(name: "11 TestScheduler", kind: .ready { testSchedulerScenario(count: scale == 1 ? 100_000 : 10_000) }),
        CatalogEntry(name: "12 recordLane", kind: .ready { laneScenario(events: size(100_000), recorded: true) }),
        CatalogEntry(name: "12b without the lane", kind: .ready { laneScenario(events: size(100_000), recorded: false) }),
        // Several threads at once, or a queue's thread delivering (see ThreadScenarios.swift).
        CatalogEntry(name: "13 merge, 2 threads", kind: .ready { mergeTwoThreadsScenario(events: size(200_000)) }, multiThreaded: true),
        CatalogEntry(name: "14 observe(on:) concurrent queue", kind: .ready {
            observeOnConcurrentScenario(count: size(200_000), on: .dispatchQueue)
        }, multiThreaded: true),
        CatalogEntry(name: "14b observe(on:) OperationQueue", kind: .ready {
            observeOnConcurrentScenario(count: size(20_000), on: .operationQueue)
        }, multiThreaded: true),
        CatalogEntry(name: "15 subscribe(on:) serial queue", kind: .ready { subscribeOnScenario(count: size(1_000_000)) }, multiThreaded: true),
        CatalogEntry(name: "16 share(replay: 1), 4 threads", kind: .ready {
            shareReplayJoinersScenario(events: size(200_000))
        }, multiThreaded: true),
        CatalogEntry(name: "17 BehaviorRelay, 2 write 1 read", kind: .ready { relayThreadsScenario(operations: size(200_000)) }, multiThreaded: true),
        CatalogEntry(name: "18 Driver fed off the main thread", kind: .ready { offMainDriverScenario(count: size(100_000)) }, multiThreaded: true),
        CatalogEntry(name: "19 slow consumer, serial queue", kind: .ready { slowConsumerScenario(count: size(SlowConsumer.fullCount)) }, multiThreaded: true),
        // A blocking call waits for a queue's thread (see BlockingScenarios.swift).
        CatalogEntry(name: "20 blocking call, main thread", kind: .ready { blockingCallScenario(calls: size(1_000), caller: .mainThread) }, multiThreaded: true),
        CatalogEntry(name: "20b blocking call, another thread", kind: .ready { blockingCallScenario(calls: size(1_000), caller: .otherThread) }, multiThreaded: true),
    ]
}
