/// A key returned when inserting into a `Bag`, used to remove the element again.
package struct BagKey: Hashable, Sendable {
    package let rawValue: UInt64
}

/// An insertion-ordered collection with O(1) insertion and key-based removal,
/// cheap to snapshot (copy-on-write): observers of subjects live in one.
package struct Bag<Element> {
    private var nextKey: UInt64 = 0
    package private(set) var keys: ContiguousArray<UInt64> = []
    package private(set) var elements: ContiguousArray<Element> = []

    package init() {}

    package var count: Int { elements.count }
    package var isEmpty: Bool { elements.isEmpty }

    @discardableResult
    package mutating func insert(_ element: Element) -> BagKey {
        let key = nextKey
        nextKey &+= 1
        keys.append(key)
        elements.append(element)
        return BagKey(rawValue: key)
    }

    @discardableResult
    package mutating func remove(_ key: BagKey) -> Element? {
        // Keys increase monotonically, so a binary search finds the slot.
        var low = 0
        var high = keys.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let candidate = keys[mid]
            if candidate == key.rawValue {
                keys.remove(at: mid)
                return elements.remove(at: mid)
            } else if candidate < key.rawValue {
                low = mid + 1
            } else {
                high = mid - 1
            }
        }
        return nil
    }

    package mutating func removeAll() {
        keys.removeAll()
        elements.removeAll()
    }
}

extension ContiguousArray {
    /// Calls `body` with each element in order. Walks a buffer pointer by index: a
    /// `for` loop over an array of a generic element type looks up the metadata of
    /// `Optional<Element>` at every step, which hot delivery loops cannot afford.
    @inline(__always)
    package func forEachElement(_ body: (Element) throws -> Void) rethrows {
        try withUnsafeBufferPointer { elements in
            var index = 0
            while index < elements.count {
                try body(elements[index])
                index += 1
            }
        }
    }
}
