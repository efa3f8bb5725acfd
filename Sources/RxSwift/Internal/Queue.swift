/// A FIFO ring buffer (no `removeFirst` shifting), used by observe(on:), zip,
/// concat, merge(maxConcurrent:) and the replay buffers.
package struct Queue<Element> {
    private var storage: ContiguousArray<Element?>
    private var head = 0
    package private(set) var count = 0

    package init(capacity: Int = 0) {
        storage = ContiguousArray(repeating: nil, count: Swift.max(capacity, 0))
    }

    package var isEmpty: Bool { count == 0 }

    package mutating func enqueue(_ element: Element) {
        if count == storage.count { grow() }
        storage[(head + count) % storage.count] = element
        count += 1
    }

    package mutating func dequeue() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        return element
    }

    package func peek() -> Element? {
        count > 0 ? storage[head] : nil
    }

    package mutating func removeAll() {
        self = Queue()
    }

    /// The elements from oldest to newest.
    package var elements: [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        for offset in 0..<count {
            result.append(storage[(head + offset) % storage.count]!)
        }
        return result
    }

    private mutating func grow() {
        let newCapacity = Swift.max(storage.count * 2, 4)
        var newStorage = ContiguousArray<Element?>(repeating: nil, count: newCapacity)
        for offset in 0..<count {
            newStorage[offset] = storage[(head + offset) % storage.count]
        }
        storage = newStorage
        head = 0
    }
}

/// A binary min-heap ordered by a comparison, stable for equal keys when the
/// comparison breaks ties (virtual time schedulers order by time, then by id).
package struct PriorityQueue<Element> {
    private var heap: [Element] = []
    private let isOrderedBefore: (Element, Element) -> Bool

    package init(isOrderedBefore: @escaping (Element, Element) -> Bool) {
        self.isOrderedBefore = isOrderedBefore
    }

    package var isEmpty: Bool { heap.isEmpty }
    package var count: Int { heap.count }
    package func peek() -> Element? { heap.first }
    package var elements: [Element] { heap }

    package mutating func enqueue(_ element: Element) {
        heap.append(element)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard isOrderedBefore(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    package mutating func dequeue() -> Element? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let result = heap.removeLast()
        siftDown(from: 0)
        return result
    }

    package mutating func remove(where predicate: (Element) -> Bool) {
        guard let index = heap.firstIndex(where: predicate) else { return }
        if index == heap.count - 1 {
            heap.removeLast()
            return
        }
        heap.swapAt(index, heap.count - 1)
        heap.removeLast()
        siftDown(from: index)
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard isOrderedBefore(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var candidate = parent
            if left < heap.count && isOrderedBefore(heap[left], heap[candidate]) { candidate = left }
            if right < heap.count && isOrderedBefore(heap[right], heap[candidate]) { candidate = right }
            if candidate == parent { return }
            heap.swapAt(parent, candidate)
            parent = candidate
        }
    }
}
