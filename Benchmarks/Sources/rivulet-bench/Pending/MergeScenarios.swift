import OpenCombine
import RxSwift

/// 4. flatMap: each element of a subject opens an inner source of 10 elements
/// (`range(start: 10·i, count: 10)`), which runs to completion at once. One unit is
/// one inner element; the time includes each inner subscription.
func flatMapScenario(outer: Int) -> Scenario {
    let inner = 10
    var expected = Checksum()
    for value in 0..<outer * inner { expected.add(value) }
    return Scenario(
        name: "4 flatMap: 10-element inners",
        unit: "inner element",
        units: outer * inner,
        expected: expected,
        rivulet: Variant {
            let sink = Accumulator()
            let subject = PublishSubject<Int>()
            let subscription = subject
                .flatMap { Observable.range(start: $0 &* inner, count: inner) }
                .subscribe(onNext: { sink.add($0) })
            for value in 0..<hiddenInt(outer) { subject.onNext(value) }
            subscription.dispose()
            return sink.checksum
        },
        openCombine: Variant {
            let sink = Accumulator()
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject
                .flatMap { Publishers.Sequence<Range<Int>, Never>(sequence: ($0 &* inner)..<($0 &* inner &+ inner)) }
                .sink { sink.add($0) }
            for value in 0..<hiddenInt(outer) { subject.send(value) }
            cancellable.cancel()
            return sink.checksum
        },
        floor: Variant {
            let sink = Accumulator()
            let select = hidden(Transform { $0 &* inner }).apply
            let consume = hidden(Consumer { sink.add($0) }).apply
            for value in 0..<hiddenInt(outer) {
                let start = select(value)
                for element in start..<(start &+ inner) { consume(element) }
            }
            return sink.checksum
        }
    )
}

/// 8. merge of `sources` subjects, fed round-robin: one unit is one element.
func mergeScenario(events: Int, sources: Int) -> Scenario {
    var expected = Checksum()
    for value in 0..<events { expected.add(value) }
    return Scenario(
        name: "8 merge of \(sources) subjects",
        unit: "element",
        units: events,
        expected: expected,
        rivulet: Variant {
            let sink = Accumulator()
            let subjects = (0..<sources).map { _ in PublishSubject<Int>() }
            let subscription = Observable.merge(subjects.map { $0.asObservable() })
                .subscribe(onNext: { sink.add($0) })
            var index = 0
            for value in 0..<hiddenInt(events) {
                subjects[index].onNext(value)
                index = index == sources - 1 ? 0 : index + 1
            }
            subscription.dispose()
            return sink.checksum
        },
        openCombine: Variant(run: {
            let sink = Accumulator()
            let subjects = (0..<sources).map { _ in PassthroughSubject<Int, Never>() }
            let cancellable = Publishers.Sequence<[PassthroughSubject<Int, Never>], Never>(sequence: subjects)
                .flatMap { $0 }
                .sink { sink.add($0) }
            var index = 0
            for value in 0..<hiddenInt(events) {
                subjects[index].send(value)
                index = index == sources - 1 ? 0 : index + 1
            }
            cancellable.cancel()
            return sink.checksum
        }, note: "flatMap over the subjects (0.14 has no MergeMany)"),
        floor: Variant {
            let sink = Accumulator()
            let consumers = Unretained((0..<sources).map { _ in Consumer { sink.add($0) } })
            withExtendedLifetime(consumers) {
                var index = 0
                for value in 0..<hiddenInt(events) {
                    consumers.with(index) { $0.apply(value) }
                    index = index == sources - 1 ? 0 : index + 1
                }
            }
            return sink.checksum
        }
    )
}
