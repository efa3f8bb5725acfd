import OpenCombine
import RxSwift

// The per-element work shared by the chains: the same three functions everywhere.
@inline(__always) func triple(_ value: Int) -> Int { value &* 3 }
@inline(__always) func isEven(_ value: Int) -> Bool { value & 1 == 0 }
@inline(__always) func add(_ lhs: Int, _ rhs: Int) -> Int { lhs &+ rhs }

/// The floor's closures for `map → filter → scan → subscribe`. Every closure comes in
/// through `init`, so nothing about them is a compile-time constant.
final class ChainStages: @unchecked Sendable {
    let map: Transform
    let filter: Predicate
    let scan: Combine
    let sink: Consumer

    init(
        map: @escaping (Int) -> Int = { triple($0) },
        filter: @escaping (Int) -> Bool = { isEven($0) },
        scan: @escaping (Int, Int) -> Int = { add($0, $1) },
        sink: Accumulator
    ) {
        self.map = Transform(map)
        self.filter = Predicate(filter)
        self.scan = Combine(scan)
        self.sink = Consumer { sink.add($0) }
    }
}

/// 1. A synchronous chain over `count` elements: range → map → filter → scan → subscribe.
/// One unit is one source element.
func syncChainScenario(count: Int) -> Scenario {
    var expected = Checksum()
    var total = 0
    for value in 0..<count {
        let mapped = triple(value)
        if isEven(mapped) {
            total = add(total, mapped)
            expected.add(total)
        }
    }
    return Scenario(
        name: "1 sync chain map/filter/scan",
        unit: "element",
        units: count,
        expected: expected,
        rivulet: Variant {
            let sink = Accumulator()
            let subscription = Observable.range(start: 0, count: hiddenInt(count))
                .map { triple($0) }
                .filter { isEven($0) }
                .scan(0) { add($0, $1) }
                .subscribe(onNext: { sink.add($0) })
            subscription.dispose()
            return sink.checksum
        },
        openCombine: Variant {
            let sink = Accumulator()
            let cancellable = Publishers.Sequence<Range<Int>, Never>(sequence: 0..<hiddenInt(count))
                .map { triple($0) }
                .filter { isEven($0) }
                .scan(0) { add($0, $1) }
                .sink { sink.add($0) }
            cancellable.cancel()
            return sink.checksum
        },
        floor: Variant {
            let sink = Accumulator()
            let stages = hidden(ChainStages(sink: sink))
            let (map, filter, scan, consume) = (stages.map.apply, stages.filter.apply, stages.scan.apply, stages.sink.apply)
            var total = 0
            for value in 0..<hiddenInt(count) {
                let mapped = map(value)
                if filter(mapped) {
                    total = scan(total, mapped)
                    consume(total)
                }
            }
            return sink.checksum
        }
    )
}

/// The floor's closures for one subscriber of the fan-out.
final class FanOutStage: @unchecked Sendable {
    let map: (Int) -> Int
    let sink: (Int) -> Void

    init(offset: Int, sink: Accumulator) {
        map = { add($0, offset) }
        self.sink = { sink.add($0) }
    }
}

/// 2. A subject with `subscribers` subscribers, each mapping: one unit is one delivery
/// (one element reaching one subscriber).
func fanOutScenario(events: Int, subscribers: Int) -> Scenario {
    var expected = Checksum()
    for offset in 0..<subscribers {
        var one = Checksum()
        for value in 0..<events { one.add(add(value, offset)) }
        expected.combine(one)
    }
    func combined(_ sinks: [Accumulator]) -> Checksum {
        var result = Checksum()
        for sink in sinks { result.combine(sink.checksum) }
        return result
    }
    return Scenario(
        name: "2 fan-out: subject x\(subscribers) map",
        unit: "delivery",
        units: events * subscribers,
        expected: expected,
        rivulet: Variant {
            let subject = PublishSubject<Int>()
            let sinks = (0..<subscribers).map { _ in Accumulator() }
            let subscriptions = (0..<subscribers).map { offset in
                let sink = sinks[offset]
                return subject.map { add($0, offset) }.subscribe(onNext: { sink.add($0) })
            }
            for value in 0..<hiddenInt(events) { subject.onNext(value) }
            for subscription in subscriptions { subscription.dispose() }
            return combined(sinks)
        },
        openCombine: Variant {
            let subject = PassthroughSubject<Int, Never>()
            let sinks = (0..<subscribers).map { _ in Accumulator() }
            let cancellables = (0..<subscribers).map { offset in
                let sink = sinks[offset]
                return subject.map { add($0, offset) }.sink { sink.add($0) }
            }
            for value in 0..<hiddenInt(events) { subject.send(value) }
            for cancellable in cancellables { cancellable.cancel() }
            return combined(sinks)
        },
        floor: Variant {
            let sinks = (0..<subscribers).map { _ in Accumulator() }
            let stages = Unretained((0..<subscribers).map { FanOutStage(offset: $0, sink: sinks[$0]) })
            withExtendedLifetime(stages) {
                for value in 0..<hiddenInt(events) {
                    stages.forEach { $0.sink($0.map(value)) }
                }
            }
            return combined(sinks)
        }
    )
}

/// 3. Subscription churn: build just → map → filter, subscribe, dispose; one unit is
/// one whole subscription.
func churnScenario(count: Int) -> Scenario {
    var expected = Checksum()
    for value in 0..<count {
        let mapped = triple(value)
        if isEven(mapped) { expected.add(mapped) }
    }
    return Scenario(
        name: "3 churn: just/map/filter/subscribe",
        unit: "subscription",
        units: count,
        expected: expected,
        rivulet: Variant {
            let sink = Accumulator()
            for value in 0..<hiddenInt(count) {
                let subscription = Observable.just(value)
                    .map { triple($0) }
                    .filter { isEven($0) }
                    .subscribe(onNext: { sink.add($0) })
                subscription.dispose()
            }
            return sink.checksum
        },
        openCombine: Variant {
            let sink = Accumulator()
            for value in 0..<hiddenInt(count) {
                let cancellable = Just(value)
                    .map { triple($0) }
                    .filter { isEven($0) }
                    .sink { sink.add($0) }
                cancellable.cancel()
            }
            return sink.checksum
        },
        floor: Variant {
            let sink = Accumulator()
            let stages = hidden(ChainStages(sink: sink))
            let (map, filter, consume) = (stages.map.apply, stages.filter.apply, stages.sink.apply)
            for value in 0..<hiddenInt(count) {
                let mapped = map(value)
                if filter(mapped) { consume(mapped) }
            }
            return sink.checksum
        },
        note: "the floor is only the per-element work; the ratio is the cost of a whole subscription"
    )
}
