@testable import RxSwift
import Testing

@Suite("Heap and Queue: the virtual time scheduler's heap and the value-semantics FIFO")
struct HeapTests {
    /// Orders pairs by their first member only, so ties show whether the heap keeps
    /// the order the ordering gives and nothing more.
    struct ByKey: HeapOrdering {
        func isOrderedBefore(_ lhs: (key: Int, id: Int), _ rhs: (key: Int, id: Int)) -> Bool {
            lhs.key < rhs.key || (lhs.key == rhs.key && lhs.id < rhs.id)
        }
    }

    @Test("removeFirst returns the elements in the ordering's order, whatever the insertion order")
    func ordersElements() {
        var heap = Heap(ordering: ByKey())
        var generator = SystemRandomNumberGenerator()
        var inserted: [(key: Int, id: Int)] = []
        for id in 0..<200 {
            let element = (key: Int.random(in: 0..<20, using: &generator), id: id)
            inserted.append(element)
            heap.insert(element)
            if id % 7 == 0, let first = heap.first {
                let removed = heap.removeFirst()
                #expect(removed?.id == first.id)
                inserted.removeAll { $0.id == first.id }
            }
        }
        #expect(heap.count == inserted.count)
        var drained: [Int] = []
        while let element = heap.removeFirst() { drained.append(element.id) }
        let expected = inserted.sorted { ByKey().isOrderedBefore($0, $1) }.map(\.id)
        #expect(drained == expected)
        #expect(heap.isEmpty && heap.first == nil)
    }

    @Test("a copied Queue keeps its elements while the original changes (copy on write)")
    func queueCopyOnWrite() {
        var original = Queue<Int>()
        for value in 0..<10 { original.enqueue(value) }
        _ = original.dequeue()
        let copy = original
        original.enqueue(10)
        #expect(original.dequeue() == 1)
        #expect(copy.elements == Array(1..<10))
        #expect(original.elements == Array(2...10))
        #expect(copy.peek() == 1 && original.peek() == 2)
        original.removeAll()
        #expect(original.isEmpty && original.dequeue() == nil && copy.count == 9)
    }
}
