import OpenCombine
import RxSwift

/// The floor's closures for a two-source operator: the selector and the sink.
final class PairStages: @unchecked Sendable {
    let select: Combine
    let sink: Consumer

    init(select: @escaping (Int, Int) -> Int = { add($0, $1) }, sink: Accumulator) {
        self.select = Combine(select)
        self.sink = Consumer { sink.add($0) }
    }
}

/// Where the two inputs of a combining scenario come from.
enum PairInputs {
    /// Two `PublishSubject`s, fed alternately by a loop (rows 5 and 6).
    case subjects
    /// Two `Observable.range`s (rows 5b and 6b). They take turns on the trampoline, as
    /// in RxSwift, so the operator sees the same alternation as with the subjects: the
    /// order-sensitive check holds Rivulet to it.
    case ranges

    var description: String { self == .subjects ? "subjects" : "ranges" }
}

/// Rivulet's side of a combining scenario: `combine` applied to two inputs that each
/// emit 0, 1, ..., pairs - 1, alternately, into a checksum.
private func runPair(
    _ inputs: PairInputs,
    pairs: Int,
    _ combine: (Observable<Int>, Observable<Int>) -> Observable<Int>
) -> Checksum {
    let sink = Accumulator()
    switch inputs {
    case .subjects:
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let subscription = combine(first.asObservable(), second.asObservable())
            .subscribe(onNext: { sink.add($0) })
        for value in 0..<hiddenInt(pairs) {
            first.onNext(value)
            second.onNext(value)
        }
        subscription.dispose()
    case .ranges:
        let count = hiddenInt(pairs)
        combine(Observable.range(start: 0, count: count), Observable.range(start: 0, count: count))
            .subscribe(onNext: { sink.add($0) })
            .dispose()
    }
    return sink.checksum
}

/// 5. combineLatest of two inputs emitting alternately (a0, b0, a1, b1, ...): every
/// input event after the first produces one sum. One unit is one input event.
func combineLatestScenario(events: Int, inputs: PairInputs = .subjects) -> Scenario {
    let pairs = events / 2
    var expected = Checksum()
    for value in 0..<pairs {
        if value > 0 { expected.add(add(value, value - 1)) }
        expected.add(add(value, value))
    }
    return Scenario(
        name: "\(inputs == .subjects ? "5" : "5b") combineLatest of 2 \(inputs.description)",
        unit: "input event",
        units: pairs * 2,
        expected: expected,
        rivulet: Variant {
            runPair(inputs, pairs: pairs) { first, second in
                Observable.combineLatest(first, second) { add($0, $1) }
            }
        },
        openCombine: nil,
        floor: Variant {
            let sink = Accumulator()
            let stages = hidden(PairStages(sink: sink))
            let (select, consume) = (stages.select.apply, stages.sink.apply)
            var latestSecond: Int? = nil
            for value in 0..<hiddenInt(pairs) {
                if let latestSecond { consume(select(value, latestSecond)) }
                latestSecond = value
                consume(select(value, value))
            }
            return sink.checksum
        },
        openCombineMissing: "0.14 has no CombineLatest"
    )
}

/// 6. zip of two inputs emitting alternately: every second input event completes a
/// pair. One unit is one input event.
func zipScenario(events: Int, inputs: PairInputs = .subjects) -> Scenario {
    let pairs = events / 2
    var expected = Checksum()
    for value in 0..<pairs { expected.add(add(value, value)) }
    return Scenario(
        name: "\(inputs == .subjects ? "6" : "6b") zip of 2 \(inputs.description)",
        unit: "input event",
        units: pairs * 2,
        expected: expected,
        rivulet: Variant {
            runPair(inputs, pairs: pairs) { first, second in
                Observable.zip(first, second) { add($0, $1) }
            }
        },
        // Over two `Publishers.Sequence`s OpenCombine's zip grows faster than the
        // input: 9.2 µs per input event at 50,000 events, 37.6 µs at 500,000 (18 s a
        // run), too slow for the table; its subject version stays.
        openCombine: inputs == .ranges ? nil : Variant(run: {
            let sink = Accumulator()
            let first = PassthroughSubject<Int, Never>()
            let second = PassthroughSubject<Int, Never>()
            let cancellable = first.zip(second).map { add($0, $1) }.sink { sink.add($0) }
            for value in 0..<hiddenInt(pairs) {
                first.send(value)
                second.send(value)
            }
            cancellable.cancel()
            return sink.checksum
        }, note: "zip then map (its zip takes no selector)"),
        floor: Variant {
            let sink = Accumulator()
            let stages = hidden(PairStages(sink: sink))
            let (select, consume) = (stages.select.apply, stages.sink.apply)
            for value in 0..<hiddenInt(pairs) {
                consume(select(value, value))
            }
            return sink.checksum
        },
        openCombineMissing: "its zip of two Publishers.Sequence is superlinear: 37.6 µs per event here"
    )
}

/// 9. share(replay: 1) fan-out: one mapped subject shared by `subscribers` subscribers.
/// One unit is one delivery.
func shareReplayScenario(events: Int, subscribers: Int) -> Scenario {
    var expected = Checksum()
    for _ in 0..<subscribers {
        var one = Checksum()
        for value in 0..<events { one.add(triple(value)) }
        expected.combine(one)
    }
    func combined(_ sinks: [Accumulator]) -> Checksum {
        var result = Checksum()
        for sink in sinks { result.combine(sink.checksum) }
        return result
    }
    return Scenario(
        name: "9 share(replay: 1) x\(subscribers)",
        unit: "delivery",
        units: events * subscribers,
        expected: expected,
        rivulet: Variant {
            let subject = PublishSubject<Int>()
            let shared = subject.map { triple($0) }.share(replay: 1)
            let sinks = (0..<subscribers).map { _ in Accumulator() }
            let subscriptions = sinks.map { sink in shared.subscribe(onNext: { sink.add($0) }) }
            for value in 0..<hiddenInt(events) { subject.onNext(value) }
            for subscription in subscriptions { subscription.dispose() }
            return combined(sinks)
        },
        openCombine: Variant(run: {
            let subject = PassthroughSubject<Int, Never>()
            let shared = subject.map { triple($0) }.share()
            let sinks = (0..<subscribers).map { _ in Accumulator() }
            let cancellables = sinks.map { sink in shared.sink { sink.add($0) } }
            for value in 0..<hiddenInt(events) { subject.send(value) }
            for cancellable in cancellables { cancellable.cancel() }
            return combined(sinks)
        }, note: "share() (it has no replay)"),
        floor: Variant {
            let sinks = (0..<subscribers).map { _ in Accumulator() }
            let map = hidden(Transform { triple($0) }).apply
            let consumers = Unretained(sinks.map { sink in Consumer { sink.add($0) } })
            withExtendedLifetime(consumers) {
                for value in 0..<hiddenInt(events) {
                    let mapped = map(value)
                    consumers.forEach { $0.apply(mapped) }
                }
            }
            return combined(sinks)
        }
    )
}
