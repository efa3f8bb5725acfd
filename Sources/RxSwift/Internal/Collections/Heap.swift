/// How a `Heap` orders its elements: `isOrderedBefore(a, b)` when `a` must come out
/// first. A value type, so a heap specialised for a concrete ordering compares with no
/// closure call.
package protocol HeapOrdering {
    associatedtype Element
    func isOrderedBefore(_ lhs: Element, _ rhs: Element) -> Bool
}

/// A binary min-heap: `first` is the element the ordering puts before all others.
/// Equal elements come out in no particular order, so an ordering that needs them
/// stable breaks ties itself (the virtual time scheduler's compares times, then the
/// order of scheduling). Not thread-safe; its owner guards it.
package struct Heap<Ordering: HeapOrdering> {
    package typealias Element = Ordering.Element

    /// The elements in heap order (not sorted): the earliest is the first.
    package private(set) var elements: [Element] = []
    package let ordering: Ordering

    package init(ordering: Ordering) {
        self.ordering = ordering
    }

    package var isEmpty: Bool { elements.isEmpty }
    package var count: Int { elements.count }

    /// The element that comes out next.
    package var first: Element? { elements.first }

    /// Empties the heap and returns what it held, in heap order.
    package mutating func removeAll() -> [Element] {
        defer { elements = [] }
        return elements
    }

    package mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard ordering.isOrderedBefore(elements[child], elements[parent]) else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the element that comes out next.
    @discardableResult
    package mutating func removeFirst() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let first = elements.removeLast()
        var parent = 0
        let count = elements.count
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var candidate = parent
            if left < count && ordering.isOrderedBefore(elements[left], elements[candidate]) { candidate = left }
            if right < count && ordering.isOrderedBefore(elements[right], elements[candidate]) { candidate = right }
            if candidate == parent { break }
            elements.swapAt(parent, candidate)
            parent = candidate
        }
        return first
    }
}
