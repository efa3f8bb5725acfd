@testable import RxSwift
import Testing

@Suite("ElementRing: the ring of zip's queues and share's replay buffer")
struct ElementRingTests {
    /// How many `Tracked` of one test are alive.
    final class Census {
        var live = 0
    }

    /// Counts itself in its census while alive, so a test sees every element released
    /// exactly once.
    final class Tracked {
        let value: Int
        let census: Census
        init(_ value: Int, _ census: Census) {
            self.value = value
            self.census = census
            census.live += 1
        }
        deinit { census.live -= 1 }
    }

    @Test("append and removeFirst keep the order across growth and wrap-around")
    func fifo() {
        var ring = ElementRing<Int>()
        var expected: [Int] = []
        for round in 0..<40 {
            ring.append(bitCasting: round)
            expected.append(round)
            if round % 3 == 0 {
                #expect(ring.removeFirst() == expected.removeFirst())
            }
            #expect(ring.copiedElements() == expected)
        }
        #expect(ring.count == expected.count)
        ring.release()
        #expect(ring.isEmpty)
    }

    @Test("keepingAtMost holds the latest `limit` elements, oldest first", arguments: 1...6)
    func keepingAtMost(limit: Int) {
        var ring = ElementRing<Int>()
        for value in 0..<25 {
            ring.append(bitCasting: value, keepingAtMost: limit)
            let first = Swift.max(0, value + 1 - limit)
            #expect(ring.copiedElements() == Array(first...value))
        }
        ring.release()
    }

    @Test("replaced, removed, handed over and released elements are each released once", arguments: [1, 3])
    func releasesElements(limit: Int) {
        let census = Census()
        var ring = ElementRing<Tracked>()
        for value in 0..<10 {
            ring.append(bitCasting: Tracked(value, census), keepingAtMost: limit)
        }
        #expect(census.live == limit)
        var taken = ring.takeAll()
        #expect(ring.isEmpty)
        #expect(taken.copiedElements().map(\.value) == Array((10 - limit)..<10))
        taken.release()
        #expect(census.live == 0)
        let queue = ElementQueue<Tracked>()
        for value in 0..<9 { queue.append(bitCasting: Tracked(value, census)) }
        #expect(queue.removeFirst().value == 0)
        #expect(census.live == 8)
        queue.removeAll()
        #expect(census.live == 0 && queue.isEmpty)
    }
}
