/// The FIFO queues: `ElementRing`, the one ring buffer, and the two ways to hold it
/// (ElementQueue.swift, Queue.swift).
///
/// - `ElementRing`: raw storage inline in its owner (a sink, a subject, a share
///   connection), for owners that guard it and release it themselves.
/// - `ElementQueue`: a ring in an object of its own, released with it (zip's queues,
///   combineLatest's kept values, the storage of a `Queue`).
/// - `Queue`: a ring with value semantics (copy on write), for state kept in structs
///   and for code that copies a queue: the trampoline, merge's waiting sources, the
///   serialised deliveries, take(last:), delay, observe(on:) on other schedulers.

/// A FIFO ring of elements in raw storage, stored inline in the object that owns it:
/// share's and `ReplaySubject`'s replay buffers, observe(on:)'s waiting elements, and
/// through `ElementQueue` zip's queues, combineLatest's kept values and every `Queue`.
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

    /// How many elements fit before the ring grows.
    var room: Int { capacity }

    /// The oldest element; there must be one.
    var first: Element {
        precondition(count > 0, "Rivulet: first on an empty element queue")
        return elements.unsafelyUnwrapped[head]
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
