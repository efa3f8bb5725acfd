import RivuletTestSupport
import RxLanes
import RxSwift
import RxTest

/// `recordLane`: what a lane records while its events race a disposal, a second lane's
/// events, or a snapshot being taken. The recorder's lock is Rivulet's, so the explorer
/// interleaves its critical sections with the operators'.
enum LaneScenarios {
    /// The values of a lane's `next` entries and how many ends it holds.
    private static func nexts(_ recording: LaneRecording, lane name: String) -> (values: [String], ends: Int, shape: [String]) {
        guard let lane = recording.lane(named: name) else { return ([], 0, []) }
        let entries = recording.entries(ofLane: lane)
        let values = entries.compactMap { entry -> String? in
            if case .next(let value) = entry.kind { return value }
            return nil
        }
        let shape = entries.map { entry -> String in
            switch entry.kind {
            case .subscribed: return "^"
            case .next(let value): return value
            case .error: return "#"
            case .completed: return "|"
            case .disposed: return "!"
            }
        }
        return (values, entries.filter(\.kind.endsSubscription).count, shape)
    }

    static let all: [ExplorationScenario] = [
        ExplorationScenario("recordLane", "elements against the subscription's disposal", seed: 1501) { run in
            let recorder = LaneRecorder()
            let subject = PublishSubject<Int>()
            let observer = run.observe(subject.recordLane("lane", in: recorder), as: "observer", disposedBy: "disposer")
            run.thread("producer", sends: "1 2", to: subject)
            run.expect({
                let lane = nexts(recorder.snapshot(), lane: "lane")
                let received = observer.elements.map(String.init)
                // Subscribed, the elements that reached the operator, then the
                // disposal, once and last. The observer got a prefix of them: an
                // element that arrives while the disposal is under way is recorded
                // and not delivered (the disposal is recorded as it finishes).
                return lane.shape == ["^"] + lane.values + ["!"]
                    && ["1", "2"].starts(with: lane.values)
                    && lane.values.starts(with: received)
            }) { "lane \(nexts(recorder.snapshot(), lane: "lane").shape), observer \(observer.elements)" }
        },
        ExplorationScenario("recordLane", "two lanes recording on two threads against a snapshot", seed: 1502) { run in
            let recorder = LaneRecorder(capacity: 3)
            let left = PublishSubject<Int>()
            let right = PublishSubject<Int>()
            _ = run.observe(left.recordLane("left", in: recorder), as: "left")
            _ = run.observe(right.recordLane("right", in: recorder), as: "right")
            run.thread("left producer", sends: "1 2 3", to: left)
            run.thread("right producer", sends: "4 5", to: right)
            let taken = LockedBox<LaneRecording?>(nil)
            run.thread("reader") { taken.value = recorder.snapshot() }
            run.expect({
                // The snapshot taken midway holds, per lane, the latest entries recorded
                // by then, in order: a suffix of the subscription and a prefix of the
                // elements. At the end, each ring holds its last three entries.
                guard let midway = taken.value else { return false }
                let left = nexts(midway, lane: "left").shape, right = nexts(midway, lane: "right").shape
                let final = recorder.snapshot()
                return (["^", "1", "2", "3"].prefixes.contains { $0.suffix(3) == left[...] })
                    && (["^", "4", "5"].prefixes.contains { $0.suffix(3) == right[...] })
                    && nexts(final, lane: "left").shape == ["1", "2", "3"]
                    && nexts(final, lane: "right").shape == ["^", "4", "5"]
                    && final.lanes.map(\.dropped) == [1, 0]
            }) { "midway \(taken.value.map { [nexts($0, lane: "left").shape, nexts($0, lane: "right").shape] } ?? []), final \(recorder.snapshot().entries.map(\.kind))" }
        },
    ]
}

private extension Array {
    /// Every prefix, the empty one first.
    var prefixes: [ArraySlice<Element>] {
        (0...count).map { self[..<$0] }
    }
}
