import RxSwift
import RxTest
import Testing

/// Work left in a virtual-time scheduler's queue when a run is over.
@Suite("Pending work: a finished run lets go of its scheduler")
struct PendingWorkTests {
    /// `subscribe(on:)` unsubscribes through the scheduler, one tick after the disposal;
    /// when the run stops at the disposal, that action stays queued, and it holds the
    /// scheduler while the scheduler holds it.
    @Test("discardPendingWork drops the unrun actions, and with them the cycle through the scheduler")
    func discardingReleasesTheScheduler() {
        weak var released: TestScheduler?
        do {
            let scheduler = TestScheduler(initialClock: 0)
            released = scheduler
            let source = scheduler.createColdObservable([.next(5, 1), .next(50, 2)])
            let observer = scheduler.createObserver(Int.self)
            let subscription = source.subscribe(on: scheduler).subscribe(observer)
            scheduler.scheduleAt(20) { subscription.dispose() }
            scheduler.advanceTo(20)
            #expect(observer.events == [.next(6, 1)])
            #expect(scheduler.nextActionTime == 21, "the unsubscription waits for the next tick")
            scheduler.discardPendingWork()
            #expect(!scheduler.hasPendingWork)
            #expect(scheduler.pendingCount == 0)
        }
        #expect(released == nil, "the scheduler outlived its run")
    }

    @Test("a scheduler with its pending work discarded runs new work as usual")
    func schedulingAfterDiscarding() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran: [String] = []
        scheduler.scheduleAt(10) { ran.append("dropped") }
        scheduler.discardPendingWork()
        scheduler.scheduleAt(30) { ran.append("kept") }
        scheduler.advanceTo(40)
        #expect(ran == ["kept"])
        #expect(scheduler.clock == 40)
    }
}
