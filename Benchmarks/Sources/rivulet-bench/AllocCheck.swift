import AllocCounter
import OpenCombine
import RxSwift
import RxTest

/// The allocation budgets that `rivulet-bench --alloc-check` enforces (CI runs it).
///
/// Counts are deterministic (heap allocations counted by the interposed malloc), so
/// they can gate a build where times cannot. Per-event budgets are the goal: zero
/// allocations for an element travelling a synchronous chain or a subject's fan-out.
/// The per-subscription budgets are the counts measured when they were set: lower
/// them when the library improves; raising one needs a reason in the commit.
enum AllocationBudget {
    /// Allocations per element through range → map → filter → scan → subscribe.
    static let syncChainPerElement = 0.0
    /// Allocations per element sent into a PublishSubject with 10 mapped subscribers.
    static let fanOutPerEvent = 0.0
    /// Allocations to subscribe to and dispose of a prebuilt just → map → filter → map.
    static let threeOperatorSubscription = 3.0
    /// Allocations to build just → map → filter → map, subscribe and dispose.
    static let threeOperatorBuildAndSubscription = 7.0
    /// Allocations to subscribe `subscribe(onNext:)` to a PublishSubject that has 100
    /// observers already, and dispose of it.
    static let subjectSubscription = 1.0
    /// Allocations per inner source of `flatMap` over a subject, each inner a `just`.
    static let flatMapInnerSource = 3.0
    /// Allocations per hot event of a TestScheduler run through map into a
    /// TestableObserver (the growth of its lists aside, which the slack covers).
    static let testSchedulerPerEvent = 0.0
    /// Slack for per-event budgets: under one allocation per thousand events, so a
    /// one-off lazy initialisation inside the measured window is not a failure.
    static let perEventSlack = 0.001
}

/// Heap allocations made by `body`.
private func allocations(_ body: () -> Void) -> UInt64 {
    alloc_counter_set_enabled(1)
    let before = alloc_counter_allocations()
    body()
    let after = alloc_counter_allocations()
    alloc_counter_set_enabled(0)
    return after &- before
}

private func rivuletSyncChain(count: Int) -> Checksum {
    let sink = Accumulator()
    let subscription = Observable.range(start: 0, count: count)
        .map { triple($0) }
        .filter { isEven($0) }
        .scan(0) { add($0, $1) }
        .subscribe(onNext: { sink.add($0) })
    subscription.dispose()
    return sink.checksum
}

private func openCombineSyncChain(count: Int) -> Checksum {
    let sink = Accumulator()
    let cancellable = Publishers.Sequence<Range<Int>, Never>(sequence: 0..<count)
        .map { triple($0) }
        .filter { isEven($0) }
        .scan(0) { add($0, $1) }
        .sink { sink.add($0) }
    cancellable.cancel()
    return sink.checksum
}

/// Allocations per element of a whole synchronous run: the difference between a long
/// and a short run, so the subscription's own allocations cancel out.
private func perElement(_ run: (Int) -> Checksum, delivers expected: (Int) -> Int = { $0 / 2 + $0 % 2 }) -> Double {
    let short = 1_000
    let long = 101_000
    _ = run(short)
    var shortResult = Checksum()
    var longResult = Checksum()
    let shortCount = allocations { shortResult = run(short) }
    let longCount = allocations { longResult = run(long) }
    precondition(shortResult.count == expected(short) && longResult.count == expected(long),
                 "rivulet-bench: a run delivered a wrong number of elements")
    return (Double(longCount) - Double(shortCount)) / Double(long - short)
}

/// A TestScheduler run of `count` hot events through map into a TestableObserver.
private func rivuletTestScheduler(count: Int) -> Checksum {
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable((0..<count).map { Recorded.next(201 + $0, $0) })
    let observer = scheduler.start(created: 100, subscribed: 200, disposed: 202 + count) { source.map { triple($0) } }
    var result = Checksum()
    for event in observer.events {
        if case .next(let value) = event.value { result.add(value) }
    }
    return result
}

/// Allocations per event sent into a subject with 10 mapped subscribers (counted
/// around the sending loop only).
private func rivuletFanOutPerEvent(events: Int) -> Double {
    let subject = PublishSubject<Int>()
    let sinks = (0..<10).map { _ in Accumulator() }
    let subscriptions = (0..<10).map { offset in
        let sink = sinks[offset]
        return subject.map { add($0, offset) }.subscribe(onNext: { sink.add($0) })
    }
    subject.onNext(-1)
    let count = allocations {
        for value in 0..<events { subject.onNext(value) }
    }
    for subscription in subscriptions { subscription.dispose() }
    precondition(sinks.allSatisfy { $0.checksum.count == events + 1 }, "rivulet-bench: fan-out lost elements")
    return Double(count) / Double(events)
}

private func openCombineFanOutPerEvent(events: Int) -> Double {
    let subject = PassthroughSubject<Int, Never>()
    let sinks = (0..<10).map { _ in Accumulator() }
    let cancellables = (0..<10).map { offset in
        let sink = sinks[offset]
        return subject.map { add($0, offset) }.sink { sink.add($0) }
    }
    subject.send(-1)
    let count = allocations {
        for value in 0..<events { subject.send(value) }
    }
    for cancellable in cancellables { cancellable.cancel() }
    precondition(sinks.allSatisfy { $0.checksum.count == events + 1 }, "rivulet-bench: fan-out lost elements")
    return Double(count) / Double(events)
}

/// Allocations per subscribe + dispose of a prebuilt 3-operator chain.
private func rivuletSubscription(times: Int) -> Double {
    let sink = Accumulator()
    let chain = Observable.just(1).map { triple($0) }.filter { isEven($0) }.map { add($0, 1) }
    chain.subscribe(onNext: { sink.add($0) }).dispose()
    let count = allocations {
        for _ in 0..<times { chain.subscribe(onNext: { sink.add($0) }).dispose() }
    }
    precondition(sink.checksum.count == 0, "rivulet-bench: 1 * 3 is odd; nothing passes the filter")
    return Double(count) / Double(times)
}

/// Allocations per subscribe + dispose of an observer of a subject that keeps 100 others.
private func rivuletSubjectSubscription(times: Int) -> Double {
    let subject = PublishSubject<Int>()
    let sink = Accumulator()
    let others = (0..<100).map { _ in subject.subscribe(onNext: { sink.add($0) }) }
    subject.subscribe(onNext: { sink.add($0) }).dispose()
    let count = allocations {
        for _ in 0..<times { subject.subscribe(onNext: { sink.add($0) }).dispose() }
    }
    subject.onNext(1)
    for other in others { other.dispose() }
    precondition(sink.checksum.count == 100 && !subject.hasObservers, "rivulet-bench: the subject lost or kept observers")
    return Double(count) / Double(times)
}

private func openCombineSubjectSubscription(times: Int) -> Double {
    let subject = PassthroughSubject<Int, Never>()
    let sink = Accumulator()
    let others = (0..<100).map { _ in subject.sink { sink.add($0) } }
    subject.sink { sink.add($0) }.cancel()
    let count = allocations {
        for _ in 0..<times { subject.sink { sink.add($0) }.cancel() }
    }
    for other in others { other.cancel() }
    return Double(count) / Double(times)
}

/// Allocations per inner source of a running flatMap (each inner a `just`), counted
/// around the sending loop only.
private func rivuletFlatMapInner(times: Int) -> Double {
    let subject = PublishSubject<Int>()
    let sink = Accumulator()
    let subscription = subject.flatMap { Observable.just($0) }.subscribe(onNext: { sink.add($0) })
    subject.onNext(-1)
    let count = allocations {
        for value in 0..<times { subject.onNext(value) }
    }
    subscription.dispose()
    precondition(sink.checksum.count == times + 1, "rivulet-bench: flatMap lost inner elements")
    return Double(count) / Double(times)
}

private func openCombineFlatMapInner(times: Int) -> Double {
    let subject = PassthroughSubject<Int, Never>()
    let sink = Accumulator()
    let cancellable = subject.flatMap { Just($0) }.sink { sink.add($0) }
    subject.send(-1)
    let count = allocations {
        for value in 0..<times { subject.send(value) }
    }
    cancellable.cancel()
    return Double(count) / Double(times)
}

/// Allocations per build + subscribe + dispose of a 3-operator chain.
private func rivuletBuildAndSubscription(times: Int) -> Double {
    let sink = Accumulator()
    let count = allocations {
        for value in 0..<times {
            Observable.just(value).map { triple($0) }.filter { isEven($0) }.map { add($0, 1) }
                .subscribe(onNext: { sink.add($0) }).dispose()
        }
    }
    precondition(sink.checksum.count == times / 2 + times % 2, "rivulet-bench: churn delivered a wrong number of elements")
    return Double(count) / Double(times)
}

private func openCombineSubscription(times: Int) -> Double {
    let sink = Accumulator()
    let chain = Just(1).map { triple($0) }.filter { isEven($0) }.map { add($0, 1) }
    chain.sink { sink.add($0) }.cancel()
    let count = allocations {
        for _ in 0..<times { chain.sink { sink.add($0) }.cancel() }
    }
    return Double(count) / Double(times)
}

private func openCombineBuildAndSubscription(times: Int) -> Double {
    let sink = Accumulator()
    let count = allocations {
        for value in 0..<times {
            Just(value).map { triple($0) }.filter { isEven($0) }.map { add($0, 1) }
                .sink { sink.add($0) }.cancel()
        }
    }
    return Double(count) / Double(times)
}

private func formatCount(_ value: Double) -> String {
    let rounded = (value * 1000).rounded() / 1000
    return String(rounded)
}

/// Measures the allocation counts; when `enforce` is set, returns false if any
/// Rivulet count exceeds its budget. OpenCombine's counts are shown for comparison.
func runAllocationCheck(enforce: Bool) -> Bool {
    guard alloc_counter_available() != 0 else {
        print("allocation counting is not available on this platform (needs Linux with glibc)")
        return !enforce
    }
    struct Row {
        let name: String
        let unit: String
        let rivulet: Double
        let openCombine: Double?
        let budget: Double
        let slack: Double
    }
    let subscriptions = 10_000
    let rows = [
        Row(name: "sync chain (range/map/filter/scan)", unit: "element",
            rivulet: perElement(rivuletSyncChain), openCombine: perElement(openCombineSyncChain),
            budget: AllocationBudget.syncChainPerElement, slack: AllocationBudget.perEventSlack),
        Row(name: "fan-out (subject x10 map)", unit: "event",
            rivulet: rivuletFanOutPerEvent(events: 100_000), openCombine: openCombineFanOutPerEvent(events: 100_000),
            budget: AllocationBudget.fanOutPerEvent, slack: AllocationBudget.perEventSlack),
        Row(name: "subscribe+dispose just/map/filter/map", unit: "subscription",
            rivulet: rivuletSubscription(times: subscriptions), openCombine: openCombineSubscription(times: subscriptions),
            budget: AllocationBudget.threeOperatorSubscription, slack: 0),
        Row(name: "build+subscribe+dispose, same chain", unit: "subscription",
            rivulet: rivuletBuildAndSubscription(times: subscriptions), openCombine: openCombineBuildAndSubscription(times: subscriptions),
            budget: AllocationBudget.threeOperatorBuildAndSubscription, slack: 0),
        Row(name: "subscribe+dispose on a subject with 100", unit: "subscription",
            rivulet: rivuletSubjectSubscription(times: subscriptions), openCombine: openCombineSubjectSubscription(times: subscriptions),
            budget: AllocationBudget.subjectSubscription, slack: 0),
        Row(name: "flatMap inner source (just)", unit: "inner",
            rivulet: rivuletFlatMapInner(times: subscriptions), openCombine: openCombineFlatMapInner(times: subscriptions),
            budget: AllocationBudget.flatMapInnerSource, slack: 0),
        Row(name: "TestScheduler hot event, map, observer", unit: "event",
            rivulet: perElement(rivuletTestScheduler, delivers: { $0 }), openCombine: nil,
            budget: AllocationBudget.testSchedulerPerEvent, slack: AllocationBudget.perEventSlack),
    ]
    print("allocations (heap blocks, counted by the interposed malloc)")
    var passed = true
    for row in rows {
        let ok = row.rivulet <= row.budget + row.slack
        if !ok { passed = false }
        let verdict = enforce ? (ok ? "ok" : "OVER BUDGET") : ""
        print("  \(row.name): Rivulet \(formatCount(row.rivulet)) per \(row.unit) (budget \(formatCount(row.budget))), OpenCombine \(row.openCombine.map(formatCount) ?? "-")  \(verdict)")
    }
    return passed
}
