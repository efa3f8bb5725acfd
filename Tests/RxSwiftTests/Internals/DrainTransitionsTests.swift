@testable import RxSwift
import Testing

@Suite("DrainedQueue and MoveLoop: who drains, and when a loop goes round again")
struct DrainTransitionsTests {
    @Test("only the enqueue into an idle queue starts a drain")
    func enqueueStartsOneDrain() {
        var queue = DrainedQueue<Int>()
        #expect(!queue.isDraining)
        let starts = [queue.enqueue(1), queue.enqueue(2), queue.enqueue(3)]
        #expect(starts == [true, false, false])
        #expect(queue.isDraining)
    }

    @Test("the drainer takes every item in order, and the empty queue ends the drain")
    func nextDrainsInOrder() {
        var queue = DrainedQueue<Int>()
        _ = queue.enqueue(1)
        _ = queue.enqueue(2)
        var taken = [queue.next()]
        _ = queue.enqueue(3)
        taken += [queue.next(), queue.next()]
        #expect(taken == [1, 2, 3])
        #expect(queue.isDraining)
        let afterLast = queue.next()
        #expect(afterLast == nil)
        #expect(!queue.isDraining)
        let startsAgain = queue.enqueue(4)
        #expect(startsAgain, "a queue whose drain ended is idle: the next item starts a new drain")
    }

    @Test("drainGoesOn keeps the drain while items wait, and ends it on the empty queue")
    func drainGoesOn() {
        var queue = DrainedQueue<String>()
        _ = queue.enqueue("a")
        _ = queue.enqueue("b")
        _ = queue.next()
        let withOneWaiting = queue.drainGoesOn()
        #expect(withOneWaiting)
        #expect(queue.isDraining)
        _ = queue.next()
        let withNoneWaiting = queue.drainGoesOn()
        #expect(!withNoneWaiting)
        #expect(!queue.isDraining)
        let startsAgain = queue.enqueue("c")
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
