@testable import RxSwift
import Testing

/// The one serialised-delivery mechanism on its own: transitions in, deliveries out.
@Suite("SerialDelivery and SerializedState: one deliverer at a time, in order")
struct SerialDeliveryTests {
    @Test("the first offer delivers at once; offers during its delivery queue behind it")
    func offerQueuesBehindDeliverer() {
        var delivery = SerialDelivery<Int>()
        var handed: [Int?] = []
        handed.append(delivery.offer(1))
        handed.append(delivery.offer(2))
        handed.append(delivery.offer(3))
        handed.append(delivery.next())
        handed.append(delivery.next())
        handed.append(delivery.next())
        #expect(handed == [1, nil, nil, 2, 3, nil])
        #expect(!delivery.isBusy)
        let again = delivery.offer(4)
        #expect(again == 4)
    }

    @Test("claim and release: the fast path queues nothing")
    func claimAndRelease() {
        var delivery = SerialDelivery<Int>()
        var answers: [Bool] = []
        answers.append(delivery.claim())
        answers.append(delivery.claim())
        delivery.enqueue(7)
        answers.append(delivery.release())
        let queued = delivery.next()
        answers.append(delivery.release())
        answers.append(delivery.claim())
        #expect(answers == [true, false, true, false, true])
        #expect(queued == 7)
    }

    @Test("a batch is claimed only when idle and not empty")
    func claimQueued() {
        var delivery = SerialDelivery<Int>()
        var claims: [Bool] = []
        claims.append(delivery.claimQueued())
        delivery.enqueue(1)
        delivery.enqueue(2)
        claims.append(delivery.claimQueued())
        claims.append(delivery.claimQueued())
        var delivered: [Int?] = []
        delivered.append(delivery.next())
        delivery.enqueue(3)
        delivered.append(delivery.next())
        delivered.append(delivery.next())
        delivered.append(delivery.next())
        claims.append(delivery.claimQueued())
        #expect(claims == [false, true, false, false])
        #expect(delivered == [1, 2, 3, nil])
    }

    @Test("a closed delivery delivers nothing again")
    func closeStaysBusy() {
        var delivery = SerialDelivery<Int>()
        _ = delivery.offer(1)
        _ = delivery.offer(2)
        delivery.close()
        let offered = delivery.offer(3)
        let claimed = delivery.claim()
        let claimedQueued = delivery.claimQueued()
        #expect(offered == nil)
        #expect(!claimed)
        #expect(!claimedQueued)
    }

    @Test("deliverInOrder delivers the first item, then the queued ones, and stops on false")
    func deliverInOrderStops() {
        var delivery = SerialDelivery<Int>()
        _ = delivery.offer(1)
        for item in 2...5 { _ = delivery.offer(item) }
        var delivered: [Int] = []
        deliverInOrder(1, next: { delivery.next() }) { item in
            delivered.append(item)
            return item < 3
        }
        #expect(delivered == [1, 2, 3])
    }

    @Test("SerializedState sends nothing after a terminal event")
    func serializedStateStopsAtTerminal() {
        var state = SerializedState<Int, String>(0)
        state.value = 5
        state.send(.next("a"))
        state.send(.completed)
        state.send(.next("late"))
        state.send(.error(RxError.unknown))
        #expect(state.isTerminated)
        let claimed = state.delivery.claimQueued()
        #expect(claimed)
        var events: [String] = []
        while let event = state.delivery.next() {
            switch event {
            case .next(let element): events.append(element)
            case .error: events.append("error")
            case .completed: events.append("completed")
            }
        }
        #expect(events == ["a", "completed"])
        #expect(state.value == 5)
    }

    @Test("LockedState.update runs the transition, then performs what it queued, unlocked")
    func updatePerformsUnlocked() {
        struct Recorder: SerialDeliveryState {
            var delivery = SerialDelivery<Int>()
        }
        let state = LockedState(Recorder())
        var performed: [Int] = []
        var locksHeldWhilePerforming = 0
        let result = state.update({ recorder -> String in
            recorder.delivery.enqueue(1)
            recorder.delivery.enqueue(2)
            return "done"
        }, perform: { item in
            performed.append(item)
            #if DEBUG
            locksHeldWhilePerforming += LockDiagnostics.heldByCurrentThread
            #endif
        })
        #expect(result == "done")
        #expect(performed == [1, 2])
        #expect(locksHeldWhilePerforming == 0)
        #expect(state.withLock { !$0.delivery.isBusy })
    }
}
