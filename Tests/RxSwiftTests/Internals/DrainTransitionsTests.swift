@testable import RxSwift
import Testing

/// `SerialDelivery` used for a drain run elsewhere (`observe(on:)`, the test kit's task
/// executor), and concat's `MoveLoop`.
@Suite("Drains and MoveLoop: who drains, and when a loop goes round again")
struct DrainTransitionsTests {
    @Test("only the item queued into an idle delivery starts a drain")
    func enqueueStartsOneDrain() {
        var delivery = SerialDelivery<Int>()
        #expect(!delivery.isBusy)
        let starts = [delivery.enqueueStartingDrain(1), delivery.enqueueStartingDrain(2), delivery.enqueueStartingDrain(3)]
        #expect(starts == [true, false, false])
        #expect(delivery.isBusy)
    }

    @Test("the drainer takes every item in order, and the empty queue ends the drain")
    func nextDrainsInOrder() {
        var delivery = SerialDelivery<Int>()
        _ = delivery.enqueueStartingDrain(1)
        _ = delivery.enqueueStartingDrain(2)
        var taken = [delivery.next()]
        _ = delivery.enqueueStartingDrain(3)
        taken += [delivery.next(), delivery.next()]
        #expect(taken == [1, 2, 3])
        #expect(delivery.isBusy)
        let afterLast = delivery.next()
        #expect(afterLast == nil)
        #expect(!delivery.isBusy)
        let startsAgain = delivery.enqueueStartingDrain(4)
        #expect(startsAgain, "a delivery whose drain ended is idle: the next item starts a new drain")
    }

    @Test("release keeps the drain while items wait, and ends it when none does")
    func releaseEndsTheDrain() {
        var delivery = SerialDelivery<String>()
        _ = delivery.enqueueStartingDrain("a")
        _ = delivery.enqueueStartingDrain("b")
        _ = delivery.next()
        let withOneWaiting = delivery.release()
        #expect(withOneWaiting)
        #expect(delivery.isBusy)
        _ = delivery.next()
        let withNoneWaiting = delivery.release()
        #expect(!withNoneWaiting)
        #expect(!delivery.isBusy)
        let startsAgain = delivery.enqueueStartingDrain("c")
        #expect(startsAgain)
    }

    @Test("a move asked for while the loop runs makes it go round once more")
    func moveLoop() {
        var loop = MoveLoop()
        let firstEntry = loop.enter()
        let roundWithNoRequest = loop.goesRoundAgain()
        #expect(firstEntry)
        #expect(!roundWithNoRequest, "no move was asked for: the loop ends")

        let entries = [loop.enter(), loop.enter(), loop.enter()]
        #expect(entries == [true, false, false], "while the loop runs, a caller leaves the move to it")
        let rounds = [loop.goesRoundAgain(), loop.goesRoundAgain()]
        #expect(rounds == [true, false], "the moves asked for meanwhile make one more round, then the loop ends")
        let entryAfterEnd = loop.enter()
        #expect(entryAfterEnd)
    }
}
