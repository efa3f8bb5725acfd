import AllocCounter
import RxLanes
import RxSwift

/// 12. A lane's cost per event: a `PublishSubject` → `recordLane` → `subscribe`, into a
/// recorder whose ring (10,000 entries) fills after the first tenth and then drops the
/// oldest entry for every new one, as a long-running program's does. 12b is the same
/// path without the lane: the difference is what recording costs.
func laneScenario(events: Int, recorded: Bool) -> Scenario {
    let expected = Checksum(of: 0..<events)
    return Scenario(
        name: recorded ? "12 recordLane: subject → lane → subscribe" : "12b the same without the lane",
        unit: "element",
        units: events,
        expected: expected,
        rivulet: Variant {
            let recorder = LaneRecorder(capacity: 10_000)
            let sink = Accumulator()
            let subject = PublishSubject<Int>()
            let source = recorded ? subject.recordLane("lane", in: recorder) : subject.asObservable()
            let subscription = source.subscribe(onNext: { sink.add($0) })
            for value in 0..<hiddenInt(events) { subject.onNext(value) }
            subscription.dispose()
            if recorded {
                precondition(recorder.snapshot().lanes[0].dropped == max(0, events + 2 - 10_000), "rivulet-bench: the lane did not drop what its ring could not hold")
            }
            return sink.checksum
        },
        openCombine: nil,
        floor: Variant {
            let sink = Accumulator()
            let consume = hidden(Consumer { sink.add($0) }).apply
            for value in 0..<hiddenInt(events) { consume(value) }
            return sink.checksum
        },
        openCombineMissing: "OpenCombine records no lanes"
    )
}

/// The heap a full lane holds, per entry, at capacities 1k, 10k and 100k: bytes in use
/// (glibc's `mallinfo2`) after filling a recorder's one lane with elements whose
/// descriptions fit in a string without an allocation of their own (up to 15 bytes),
/// less the bytes in use before.
func laneRingMemory() -> String {
    #if os(Linux)
    var rows: [String] = []
    for capacity in [1_000, 10_000, 100_000] {
        let before = bench_heap_in_use()
        let recorder = LaneRecorder(capacity: capacity)
        let subject = PublishSubject<Int>()
        let subscription = subject.recordLane("lane", in: recorder).subscribe()
        for value in 0..<capacity * 2 { subject.onNext(value) }
        let after = bench_heap_in_use()
        subscription.dispose()
        withExtendedLifetime(recorder) {}
        let tenths = Int((Double(after - before) / Double(capacity) * 10).rounded())
        rows.append("\(capacity): \(tenths / 10).\(tenths % 10) bytes an entry")
    }
    return "a full lane's ring: " + rows.joined(separator: ", ")
    #else
    return "a full lane's ring: measured on Linux only (glibc's mallinfo2)"
    #endif
}
