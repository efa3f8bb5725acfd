/// A FIFO ring buffer (no `removeFirst` shifting), used by observe(on:), zip,
/// concat, merge(maxConcurrent:) and the replay buffers.
package struct Queue<Element> {
    /// The ring buffer; `nil` until the first element. Shared between copies until one
    /// of them mutates (copy on write).
    private var storage: QueueStorage<Element>?

    package init(capacity: Int = 0) {
        if capacity > 0 {
            storage = QueueStorage.make(capacity: capacity)
        }
    }

    package var count: Int { storage?.count ?? 0 }
    package var isEmpty: Bool { count == 0 }

    package mutating func enqueue(_ element: Element) {
        if isKnownUniquelyReferenced(&storage) {
            let current = storage!
            if current.count < current.slotCount {
                current.append(element)
                return
            }
        }
        let old = storage
        let grown = QueueStorage<Element>.make(capacity: Swift.max((old?.count ?? 0) * 2, 4))
        old?.copyElements(into: grown)
        grown.append(element)
        storage = grown
    }

    package mutating func dequeue() -> Element? {
        if count == 0 { return nil }
        if !isKnownUniquelyReferenced(&storage) {
            let current = storage!
            let copy = QueueStorage<Element>.make(capacity: current.slotCount)
            current.copyElements(into: copy)
            storage = copy
        }
        return storage!.removeFirst()
    }

    package func peek() -> Element? {
        guard let storage, storage.count > 0 else { return nil }
        return storage.element(at: 0)
    }

    package mutating func removeAll() {
        storage = nil
    }

    /// The elements from oldest to newest.
    package var elements: [Element] {
        guard let storage else { return [] }
        var result: [Element] = []
        result.reserveCapacity(storage.count)
        for offset in 0..<storage.count {
            result.append(storage.element(at: offset))
        }
        return result
    }
}

/// The ring buffer of a `Queue`: elements live in the object's tail allocation and are
/// reached through pointers, so the generic code that uses it makes no metadata
/// lookups for `Optional<Element>` or the array types (an array of optionals did).
package final class QueueStorage<Element>: ManagedBuffer<QueueHeader, Element> {
    static func make(capacity: Int) -> QueueStorage<Element> {
        let buffer = create(minimumCapacity: capacity) { buffer in
            QueueHeader(head: 0, count: 0, capacity: buffer.capacity)
        }
        return unsafeDowncast(buffer, to: QueueStorage<Element>.self)
    }

    deinit {
        withUnsafeMutablePointers { header, elements in
            let (head, count, capacity) = (header.pointee.head, header.pointee.count, header.pointee.capacity)
            let firstRun = Swift.min(count, capacity - head)
            (elements + head).deinitialize(count: firstRun)
            elements.deinitialize(count: count - firstRun)
        }
    }

    /// How many elements there are. Read through the header's pointer: the `header`
    /// property is a class's stored property, whose every read costs a dynamic
    /// exclusivity check.
    @inline(__always)
    var count: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }

    /// How many elements fit (the ring's size, fixed at `make`).
    @inline(__always)
    var slotCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.capacity } }

    /// Appends; the caller made sure there is room.
    @inline(__always)
    func append(_ element: Element) {
        withUnsafeMutablePointers { header, elements in
            var slot = header.pointee.head + header.pointee.count
            if slot >= header.pointee.capacity { slot -= header.pointee.capacity }
            (elements + slot).initialize(to: element)
            header.pointee.count += 1
        }
    }

    /// Removes and returns the oldest element; the caller made sure there is one.
    @inline(__always)
    func removeFirst() -> Element {
        withUnsafeMutablePointers { header, elements in
            let head = header.pointee.head
            let element = (elements + head).move()
            header.pointee.head = head + 1 == header.pointee.capacity ? 0 : head + 1
            header.pointee.count -= 1
            return element
        }
    }

    /// The element `offset` places after the oldest.
    func element(at offset: Int) -> Element {
        withUnsafeMutablePointers { header, elements in
            var slot = header.pointee.head + offset
            if slot >= header.pointee.capacity { slot -= header.pointee.capacity }
            return elements[slot]
        }
    }

    /// Copies every element, oldest first, into the empty `other` (which has room).
    func copyElements(into other: QueueStorage<Element>) {
        for offset in 0..<count {
            other.append(element(at: offset))
        }
    }
}

/// Where a `QueueStorage`'s elements start, how many there are and how many fit.
package struct QueueHeader {
    var head: Int
    var count: Int
    let capacity: Int
}

/// A FIFO ring of elements in raw storage, stored inline in the object that owns it:
/// zip's queues and combineLatest's kept values (through `ElementQueue`), share's
/// replay buffer.
///
/// Every operation needs only `Element`'s value witnesses, which come with the owner's
/// own metadata: no generic metadata lookup (a `Queue<Element>` looks up
/// `QueueStorage<Element>` and returns `Optional<Element>`, each a lookup in
/// unspecialised code). Not thread-safe; its owner guards it. A value type, so it is
/// never copied while it holds elements except to hand them over (`takeAll`), and its
/// owner calls `release()` when done.
struct ElementRing<Element> {
    private var elements: UnsafeMutablePointer<Element>?
    private var head = 0
    private(set) var count = 0
    private var capacity = 0

    init() {}

    var isEmpty: Bool { count == 0 }

    /// Appends a copy of `element`, whose type the caller checked is `Element`.
    @inline(__always)
    mutating func append<T>(bitCasting element: T) {
        if count == capacity { grow(atMost: Int.max) }
        appendWithRoom(element)
    }

    /// Appends a copy of `element`, whose type the caller checked is `Element`; when
    /// `limit` (1 or more) elements are held, the newest replaces the oldest. A ring
    /// filled only this way never holds room for more than `limit`.
    @inline(__always)
    mutating func append<T>(bitCasting element: T, keepingAtMost limit: Int) {
        if count == limit {
            // Full, and the room is `limit`: the oldest slot is the one after the newest.
            UnsafeMutableRawPointer(elements.unsafelyUnwrapped + head).assumingMemoryBound(to: T.self).pointee = element
            head += 1
            if head == capacity { head = 0 }
            return
        }
        if count == capacity { grow(atMost: limit) }
        appendWithRoom(element)
    }

    @inline(__always)
    private mutating func appendWithRoom<T>(_ element: T) {
        var slot = head + count
        if slot >= capacity { slot -= capacity }
        UnsafeMutableRawPointer(elements.unsafelyUnwrapped + slot).assumingMemoryBound(to: T.self).initialize(to: element)
        count += 1
    }

    /// Removes and returns the oldest element; there must be one.
    @inline(__always)
    mutating func removeFirst() -> Element {
        precondition(count > 0, "Rivulet: removeFirst on an empty element queue")
        let element = (elements.unsafelyUnwrapped + head).move()
        head += 1
        if head == capacity { head = 0 }
        count -= 1
        return element
    }

    /// The elements, oldest first.
    func copiedElements() -> [Element] {
        var copies: [Element] = []
        copies.reserveCapacity(count)
        var slot = head
        for _ in 0..<count {
            copies.append(elements.unsafelyUnwrapped[slot])
            slot += 1
            if slot == capacity { slot = 0 }
        }
        return copies
    }

    /// Removes every element (and keeps the room).
    mutating func removeAll() {
        while count > 0 {
            (elements.unsafelyUnwrapped + head).deinitialize(count: 1)
            head += 1
            if head == capacity { head = 0 }
            count -= 1
        }
        head = 0
    }

    /// Hands the elements and their room over to the ring returned, leaving this one
    /// empty with no room.
    mutating func takeAll() -> ElementRing<Element> {
        defer { self = ElementRing() }
        return self
    }

    /// Removes every element and frees the room.
    mutating func release() {
        removeAll()
        elements?.deallocate()
        elements = nil
        capacity = 0
    }

    /// Doubles the room (4 at first), to no more than `limit`.
    @inline(never)
    private mutating func grow(atMost limit: Int) {
        let newCapacity = Swift.min(Swift.max(capacity * 2, 4), limit)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let elements {
            let firstRun = Swift.min(count, capacity - head)
            grown.moveInitialize(from: elements + head, count: firstRun)
            (grown + firstRun).moveInitialize(from: elements, count: count - firstRun)
            elements.deallocate()
        }
        elements = grown
        head = 0
        capacity = newCapacity
    }
}

/// An `ElementRing` in an object of its own, for owners that keep it apart from their
/// other state (zip's queues, combineLatest's kept values).
final class ElementQueue<Element> {
    @exclusivity(unchecked)
    private var ring = ElementRing<Element>()

    init() {}

    deinit {
        ring.release()
    }

    var count: Int { ring.count }
    var isEmpty: Bool { ring.isEmpty }

    /// Appends a copy of `element`, whose type the caller checked is `Element`.
    @inline(__always)
    func append<T>(bitCasting element: T) {
        ring.append(bitCasting: element)
    }

    /// Removes and returns the oldest element; there must be one.
    @inline(__always)
    func removeFirst() -> Element {
        ring.removeFirst()
    }

    /// Removes every element (and keeps the room).
    func removeAll() {
        ring.removeAll()
    }
}
