import OpenCombine
import RxSwift

/// 4. flatMap: each element of a subject opens an inner source of 10 elements
/// (`range(start: 10·i, count: 10)`), which runs to completion at once. One unit is
/// one inner element; the time includes each inner subscription.
func flatMapScenario(outer: Int) -> Scenario {
    let inner = 10
    let expected = Checksum(of: 0..<outer * inner)
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

/// 4b. flatMap with a synchronous outer source: `range(start: 0, count: outer)` →
/// `flatMap { range(start: $0, count: 10) }`. One unit is one inner element. Rx runs the
/// inner ranges in turn on the trampoline (RxSwift's order), OpenCombine one after the
/// other, so the check is order-blind: the count and sum of what arrived.
func synchronousFlatMapScenario(outer: Int) -> Scenario {
    let inner = 10
    var total = 0
    for start in 0..<outer { for value in start..<(start + inner) { total &+= value } }
    func checksum(sum: Int, count: Int) -> Checksum {
        var checksum = Checksum()
        checksum.add(sum)
        checksum.add(count)
        return checksum
    }
    return Scenario(
        name: "4b flatMap: synchronous outer",
        unit: "inner element",
        units: outer * inner,
        expected: checksum(sum: total, count: outer * inner),
        rivulet: Variant {
            let sink = OrderBlindSum()
            Observable.range(start: 0, count: hiddenInt(outer))
                .flatMap { Observable.range(start: $0, count: inner) }
                .subscribe(onNext: { sink.add($0) })
                .dispose()
            return checksum(sum: sink.sum, count: sink.count)
        },
        openCombine: Variant {
            let sink = OrderBlindSum()
            Publishers.Sequence<Range<Int>, Never>(sequence: 0..<hiddenInt(outer))
                .flatMap { Publishers.Sequence<Range<Int>, Never>(sequence: $0..<($0 &+ inner)) }
                .sink { sink.add($0) }
                .cancel()
            return checksum(sum: sink.sum, count: sink.count)
        },
        floor: Variant {
            let sink = OrderBlindSum()
            let consume = hidden(Consumer { sink.add($0) }).apply
            for start in 0..<hiddenInt(outer) {
                for element in start..<(start &+ inner) { consume(element) }
            }
            return checksum(sum: sink.sum, count: sink.count)
        }
    )
}

/// A running sum and count, for scenarios whose implementations may order elements
/// differently.
final class OrderBlindSum: @unchecked Sendable {
    private(set) var sum = 0
    private(set) var count = 0

    @inline(__always)
    func add(_ element: Int) {
        sum &+= element
        count += 1
    }
}

/// 8. merge of `sources` subjects, fed round-robin: one unit is one element.
func mergeScenario(events: Int, sources: Int) -> Scenario {
    let expected = Checksum(of: 0..<events)
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
