import OpenCombine
import RxCocoa
import RxSwift

/// 10. A Driver chain: BehaviorRelay.asDriver() → map → filter → drive, values accepted
/// on the main thread. One unit is one accepted value.
func driverScenario(count: Int) -> Scenario {
    let expected = driverChainChecksum(count: count)
    return Scenario(
        name: "10 Driver map/filter/drive",
        unit: "element",
        units: count,
        expected: expected,
        rivulet: Variant {
            let sink = Accumulator()
            let relay = BehaviorRelay(value: 0)
            let subscription = relay.asDriver()
                .map { triple($0) }
                .filter { isEven($0) }
                .drive(onNext: { sink.add($0) })
            for value in 1...hiddenInt(count) { relay.accept(value) }
            subscription.dispose()
            return sink.checksum
        },
        openCombine: Variant(run: {
            let sink = Accumulator()
            let subject = CurrentValueSubject<Int, Never>(0)
            let cancellable = subject
                .map { triple($0) }
                .filter { isEven($0) }
                .sink { sink.add($0) }
            for value in 1...hiddenInt(count) { subject.send(value) }
            cancellable.cancel()
            return sink.checksum
        }, note: "CurrentValueSubject → map → filter → sink (no scheduler hop)"),
        floor: Variant {
            let sink = Accumulator()
            let stages = hidden(ChainStages(sink: sink))
            let (map, filter, consume) = (stages.map.apply, stages.filter.apply, stages.sink.apply)
            for value in 0...hiddenInt(count) {
                let mapped = map(value)
                if filter(mapped) { consume(mapped) }
            }
            return sink.checksum
        }
    )
}

/// What a Driver's `map { triple } → filter { isEven }` delivers for the relay's initial 0
/// and the values 1 to `count` accepted after it (rows 10 and 18).
func driverChainChecksum(count: Int) -> Checksum {
    Checksum(of: (0...count).lazy.map(triple).filter(isEven))
}
