/// A key returned when inserting into a `Bag`, used to remove the element again.
package struct BagKey: Hashable, Sendable {
    package let rawValue: UInt64
}

/// How an insertion or removal changed a `Bag`'s `elements`, for whoever mirrors them
/// (`DeliveryList`) and wants to follow with the same small step.
package enum BagChange: Equatable {
    /// One element was appended at the end.
    case appended
    /// The element at this slot was replaced by the bag's vacancy; no other slot moved.
    case vacated(Int)
    /// Elements were dropped from the end; the others kept their slots.
    case shortened
    /// The elements moved: read them anew.
    case rearranged
}

/// An insertion-ordered collection with O(1) insertion and key-based removal (amortised;
/// finding a key whose slot moved takes a binary search, O(log n)), cheap to snapshot
/// (copy-on-write): the observers of subjects, shared sources and composite disposables
/// live in one.
///
/// `elements` is the storage itself, in insertion order: a removal from the middle does
/// not shift the elements after it but leaves the bag's `vacancy` (an element that does
/// nothing when delivered to or disposed) in its slot, so that a walk over `elements`
/// needs no test per slot. Vacated slots are squeezed out when they outnumber the live
/// elements, which keeps both the walk and the amortised cost of a removal in
/// proportion to the live count. A removal at the end (newest first) drops the slot,
/// and any vacated ones before it, at once.
package struct Bag<Element> {
    /// Set in a slot's key when the slot is vacated; keys stay sorted without it.
    private static var vacatedMark: UInt64 { 1 << 63 }
    /// Bags at most this long close a gap at once: moving so few costs less than
    /// walking the vacancy on each delivery.
    private static var shiftLimit: Int { 16 }

    private var nextKey: UInt64 = 0
    /// The key of each slot of `elements`, ascending (ignoring `vacatedMark`).
    private var slotKeys: ContiguousArray<UInt64> = []
    /// The slots in insertion order: live elements and `vacancy` in vacated slots.
    package private(set) var elements: ContiguousArray<Element> = []
    private var vacantCount = 0
    /// What a vacated slot holds.
    private let vacancy: Element

    /// An empty bag whose vacated slots hold `vacancy`.
    package init(vacancy: Element) {
        self.vacancy = vacancy
    }

    /// The number of live elements.
    package var count: Int { elements.count - vacantCount }
    package var isEmpty: Bool { elements.count == vacantCount }

    @discardableResult
    package mutating func insert(_ element: Element) -> BagKey {
        let key = nextKey
        nextKey &+= 1
        slotKeys.append(key)
        elements.append(element)
        return BagKey(rawValue: key)
    }

    @discardableResult
    package mutating func remove(_ key: BagKey) -> Element? {
        var change = BagChange.rearranged
        return remove(key, change: &change)
    }

    /// Removes the element with `key`, if it is still in the bag, and tells how
    /// `elements` changed.
    @discardableResult
    package mutating func remove(_ key: BagKey, change: inout BagChange) -> Element? {
        guard let slot = slot(of: key.rawValue) else { return nil }
        if slot == elements.count - 1 {
            slotKeys.removeLast()
            let removed = elements.removeLast()
            while let last = slotKeys.last, last & Self.vacatedMark != 0 {
                slotKeys.removeLast()
                elements.removeLast()
                vacantCount -= 1
            }
            change = .shortened
            return removed
        }
        if elements.count <= Self.shiftLimit {
            slotKeys.remove(at: slot)
            change = .rearranged
            return elements.remove(at: slot)
        }
        var removed = vacancy
        swap(&removed, &elements[slot])
        slotKeys[slot] |= Self.vacatedMark
        vacantCount += 1
        if vacantCount * 2 > elements.count {
            squeeze()
            change = .rearranged
        } else {
            change = .vacated(slot)
        }
        return removed
    }

    /// Drops every element (and the room they took).
    package mutating func removeAll() {
        slotKeys = []
        elements = []
        vacantCount = 0
    }

    /// The live elements, in insertion order, without the vacancies.
    package var liveElements: [Element] {
        var live: [Element] = []
        live.reserveCapacity(count)
        for slot in elements.indices where slotKeys[slot] & Self.vacatedMark == 0 {
            live.append(elements[slot])
        }
        return live
    }

    /// The slot holding the live element with key `rawKey`. Slots only ever move towards
    /// the front, so it is at most the key's distance from the first slot's key: that
    /// slot, where nothing before it was squeezed out or shifted since its insertion
    /// (O(1)); otherwise a binary search below it, as keys ascend with the slots.
    private func slot(of rawKey: UInt64) -> Int? {
        slotKeys.withUnsafeBufferPointer { keys in
            guard let first = keys.first else { return nil }
            let firstKey = first & ~Self.vacatedMark
            guard rawKey >= firstKey else { return nil }
            var high = Swift.min(Int(clamping: rawKey - firstKey), keys.count - 1)
            if keys[high] & ~Self.vacatedMark == rawKey {
                return keys[high] == rawKey ? high : nil
            }
            var low = 0
            while low <= high {
                let middle = (low + high) / 2
                let candidate = keys[middle]
                let unmarked = candidate & ~Self.vacatedMark
                if unmarked == rawKey {
                    return candidate == unmarked ? middle : nil
                } else if unmarked < rawKey {
                    low = middle + 1
                } else {
                    high = middle - 1
                }
            }
            return nil
        }
    }

    /// Moves the live elements together, keeping their order, and drops the vacancies.
    /// Works on the buffers: a buffer's `swapAt` moves the two elements, where the
    /// array's copies them (a retain and a release each, and for an existential element
    /// a call through its value witnesses).
    private mutating func squeeze() {
        let kept = elements.withUnsafeMutableBufferPointer { slots in
            slotKeys.withUnsafeMutableBufferPointer { keys in
                var kept = 0
                for slot in keys.indices where keys[slot] & Self.vacatedMark == 0 {
                    if kept != slot {
                        keys[kept] = keys[slot]
                        slots.swapAt(kept, slot)
                    }
                    kept += 1
                }
                return kept
            }
        }
        slotKeys.removeLast(slotKeys.count - kept)
        elements.removeLast(elements.count - kept)
        vacantCount = 0
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
