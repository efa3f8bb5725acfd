import RivuletTestSupport
import RxSwift
import RxTest
import Testing

/// A hot testable observable's events are walked by one scheduler entry (a timeline);
/// these check that it keeps the order scheduling each event on its own gave.
@Suite("Hot observables: one timeline entry in the scheduler's queue")
struct HotTimelineTests {
    @Test("events recorded out of time order arrive in time order; equal times in the order given")
    func timeOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([.next(230, 3), .next(210, 1), .next(230, 4), .next(210, 2), .completed(240)])
        let observer = scheduler.start { hot.asObservable() }
        #expect(observer.events == [.next(210, 1), .next(210, 2), .next(230, 3), .next(230, 4), .completed(240)])
    }

    @Test("among other work due at the same time, each event keeps the place of its scheduling")
    func sameTimeOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = LockedBox<[String]>([])
        let first = scheduler.createHotObservable([.next(210, "a1"), .next(220, "a2")])
        scheduler.scheduleAt(210) { log.append("work scheduled between") }
        let second = scheduler.createHotObservable([.next(210, "b1"), .next(220, "b2")])
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(first.subscribe(onNext: { value in
                log.append(value)
                if value == "a1" {
                    scheduler.scheduleAt(210) { log.append("work scheduled by a1") }
                }
            }))
            subscriptions.append(second.subscribe(onNext: { log.append($0) }))
        }
        scheduler.start()
        #expect(log.value == ["a1", "work scheduled between", "b1", "work scheduled by a1", "a2", "b2"])
        for subscription in subscriptions { subscription.dispose() }
    }

    @Test("pendingCount counts every event still to come")
    func pendingCount() {
        let scheduler = TestScheduler(initialClock: 0)
        _ = scheduler.createHotObservable([.next(10, 1), .next(20, 2), .next(30, 3)])
        #expect(scheduler.pendingCount == 3)
        scheduler.advanceTo(15)
        #expect(scheduler.pendingCount == 2)
        #expect(scheduler.nextActionTime == 20)
        scheduler.advanceTo(30)
        #expect(scheduler.pendingCount == 0)
        #expect(!scheduler.hasPendingWork)
    }

    @Test("many events of several observables interleave as their times and creation order say")
    func manyEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = LockedBox<[String]>([])
        // Times repeat and are shuffled in a fixed way; the expected order sorts by time,
        // then by observable, then by position in the recorded list.
        var expected: [(time: Int, label: String)] = []
        var observables: [TestableObservable<Int>] = []
        for source in 0..<3 {
            let times = (0..<200).map { 300 + ($0 * 37 + source * 11) % 97 }
            observables.append(scheduler.createHotObservable(times.enumerated().map { .next($0.element, $0.offset) }))
            expected += times.enumerated().map { (time: $0.element, label: "\(source):\($0.offset)") }
        }
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            for (source, observable) in observables.enumerated() {
                subscriptions.append(observable.subscribe(onNext: { log.append("\(source):\($0)") }))
            }
        }
        scheduler.start()
        let order = expected.enumerated().sorted { lhs, rhs in
            lhs.element.time != rhs.element.time ? lhs.element.time < rhs.element.time : lhs.offset < rhs.offset
        }
        #expect(log.value == order.map(\.element.label))
        for subscription in subscriptions { subscription.dispose() }
    }
}
