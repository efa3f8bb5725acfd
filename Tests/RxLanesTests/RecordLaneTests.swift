import Dispatch
import RivuletTestSupport
import RxLanes
import RxSwift
import RxTest
import Testing

@Suite struct RecordLaneTests {
    /// The kinds of a lane's entries, spelled shortly: `^`, a value, `#text`, `|`, `!`.
    private func spelled(_ recording: LaneRecording, lane name: String) -> [String] {
        guard let lane = recording.lane(named: name) else { return [] }
        return recording.entries(ofLane: lane).map { entry in
            switch entry.kind {
            case .subscribed: return "^\(entry.subscription)"
            case .next(let value): return value
            case .error(let text): return "#" + text
            case .completed: return "|"
            case .disposed: return "!\(entry.subscription)"
            }
        }
    }

    @Test func inVirtualTimeAHotSourcePassesThroughUnchangedAtItsTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let recorder = LaneRecorder()
        let source = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(230), .next(240, 3)])
        let observer = scheduler.start { source.recordLane("hot", in: recorder) }
        #expect(observer.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(source.subscriptions == [Subscription(200, 230)])
        #expect(spelled(recorder.snapshot(), lane: "hot") == ["^1", "1", "2", "|"])
    }

    @Test func inVirtualTimeAColdSourcesFailureIsPassedOnAndEndsTheLane() {
        let scheduler = TestScheduler(initialClock: 0)
        let recorder = LaneRecorder()
        let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(code: 3)), .next(30, 2)])
        let observer = scheduler.start { source.recordLane("cold", in: recorder) }
        #expect(observer.events == [.next(210, 1), .error(220, TestError(code: 3))])
        #expect(source.subscriptions == [Subscription(200, 220)])
        #expect(spelled(recorder.snapshot(), lane: "cold") == ["^1", "1", "#TestError(code: 3)"])
    }

    @Test func inVirtualTimeAnEarlyDisposalEndsTheLaneAndTheSourcesSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let recorder = LaneRecorder()
        let source = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let observer = scheduler.start(disposed: 250) { source.recordLane("disposed", in: recorder) }
        #expect(observer.events == [.next(210, 1)])
        #expect(source.subscriptions == [Subscription(200, 250)])
        #expect(spelled(recorder.snapshot(), lane: "disposed") == ["^1", "1", "!1"])
    }

    @Test func passesEveryEventOnAndRecordsItWithItsSubscriptionAndEnd() {
        let recorder = LaneRecorder()
        var received: [Event<Int>] = []
        _ = Observable.of(1, 2, 3).recordLane("numbers", in: recorder).subscribe { received.append($0) }
        #expect(received == [.next(1), .next(2), .next(3), .completed])
        let recording = recorder.snapshot()
        // A completed subscription's disposal afterwards is not a second end.
        #expect(spelled(recording, lane: "numbers") == ["^1", "1", "2", "3", "|"])
        #expect(recording.lanes == [.init(name: "numbers", elementType: "Int", capacity: 10_000, dropped: 0)])
        #expect(recording.entries.map(\.time) == recording.entries.map(\.time).sorted())
    }

    @Test func aDisposalBeforeAnyEndIsTheEnd() {
        let recorder = LaneRecorder()
        let subject = PublishSubject<String>()
        let subscription = subject.recordLane("text", in: recorder).subscribe()
        subject.onNext("a")
        subscription.dispose()
        subject.onNext("b")
        #expect(spelled(recorder.snapshot(), lane: "text") == ["^1", "a", "!1"])
    }

    @Test func aFailureIsRecordedWithItsDescription() {
        let recorder = LaneRecorder()
        _ = Observable<Int>.error(TestError(code: 7)).recordLane("failing", in: recorder).subscribe()
        #expect(spelled(recorder.snapshot(), lane: "failing") == ["^1", "#TestError(code: 7)"])
    }

    @Test func describeWritesTheElements() {
        let recorder = LaneRecorder()
        _ = Observable.just(3).recordLane("tens", in: recorder) { "\($0 * 10)" }.subscribe()
        #expect(spelled(recorder.snapshot(), lane: "tens") == ["^1", "30", "|"])
    }

    private struct Point {
        let x: Int, y: Int
    }

    @Test func elementsWithoutADescriptionAreWrittenAsSwiftPrintsThem() {
        let recorder = LaneRecorder()
        _ = Observable.just(Point(x: 1, y: 2)).recordLane("points", in: recorder).subscribe()
        _ = Observable.just(()).recordLane("taps", in: recorder).subscribe()
        #expect(spelled(recorder.snapshot(), lane: "points") == ["^1", "Point(x: 1, y: 2)", "|"])
        #expect(spelled(recorder.snapshot(), lane: "taps") == ["^1", "()", "|"])
        #expect(recorder.snapshot().lanes.map(\.elementType) == ["Point", "()"])
    }

    @Test func subscriptionsOfOneNameShareTheLaneNumberedFromOne() {
        let recorder = LaneRecorder()
        let recorded = Observable.just("x").recordLane("lane", in: recorder)
        _ = recorded.subscribe()
        _ = Observable.just("y").recordLane("lane", in: recorder).subscribe()
        #expect(spelled(recorder.snapshot(), lane: "lane") == ["^1", "x", "|", "^2", "y", "|"])
        #expect(recorder.snapshot().lanes.count == 1)
    }

    @Test func lanesInterleaveInTheOrderEntriesWereRecorded() {
        let recorder = LaneRecorder()
        let subject = PublishSubject<Int>()
        _ = subject.recordLane("input", in: recorder).map { $0 * 2 }.recordLane("output", in: recorder).subscribe()
        subject.onNext(1)
        subject.onNext(2)
        let recording = recorder.snapshot()
        let order = recording.entries.map { "\(recording.lanes[$0.lane].name):\($0.kind)" }
        // The output subscribes first (the subscription goes upstream), then each
        // element passes the input's lane before the output's.
        #expect(order == [
            "output:subscribed", "input:subscribed",
            "input:next(\"1\")", "output:next(\"2\")",
            "input:next(\"2\")", "output:next(\"4\")",
        ])
    }

    @Test func aFullRingDropsTheOldestAndCountsThem() {
        let recorder = LaneRecorder(capacity: 3)
        _ = Observable.from([1, 2, 3, 4, 5]).recordLane("ring", in: recorder).subscribe()
        let recording = recorder.snapshot()
        // subscribed, 1, 2, 3, 4, 5, completed: the first four are gone.
        #expect(spelled(recording, lane: "ring") == ["4", "5", "|"])
        #expect(recording.lanes[0].dropped == 4)
        #expect(recording.lanes[0].capacity == 3)
        recorder.clear()
        #expect(recorder.snapshot().entries.isEmpty)
        #expect(recorder.snapshot().lanes[0].dropped == 0)
    }

    @Test func eachEntryNamesTheQueueItArrivedOn() {
        let recorder = LaneRecorder()
        let queue = DispatchQueue(label: "com.example.network")
        let subject = PublishSubject<Int>()
        _ = subject.recordLane("queued", in: recorder).subscribe()
        queue.sync { subject.onNext(1) }
        let recording = recorder.snapshot()
        let threads = recording.entries.map { recording.threads[$0.thread] }
        #expect(threads.last == "com.example.network")
        #expect(threads.first != "com.example.network")
    }

    @Test func concurrentEmissionLosesAndReordersNothingWithinALane() {
        let recorder = LaneRecorder(capacity: 100_000)
        let subject = PublishSubject<Int>()
        let received = LockedBox([Int]())
        _ = subject.recordLane("shared", in: recorder).subscribe(onNext: { received.append($0) })
        let perThread = 2_000
        #expect(runConcurrently(threads: 4) { thread in
            for index in 0..<perThread { subject.onNext(thread * perThread + index) }
        })
        let recording = recorder.snapshot()
        let values = recording.entries.compactMap { entry -> Int? in
            if case .next(let text) = entry.kind { return Int(text) }
            return nil
        }
        #expect(values.count == 4 * perThread)
        #expect(Set(values) == Set(received.value))
        for thread in 0..<4 {
            let own = values.filter { $0 / perThread == thread }
            #expect(own == Array(thread * perThread..<(thread + 1) * perThread), "thread \(thread)'s elements are out of order in the lane")
        }
        #expect(recording.entries.map(\.time) == recording.entries.map(\.time).sorted())
        #expect(recording.lanes[0].dropped == 0)
    }
}
