/// A FIFO queue with value semantics: an `ElementQueue`, shared between copies until
/// one of them changes it (copy on write), allocated at the first element.
package struct Queue<Element> {
    private var storage: ElementQueue<Element>?

    package init() {}

    package var count: Int { storage?.count ?? 0 }
    package var isEmpty: Bool { count == 0 }

    package mutating func enqueue(_ element: Element) {
        makeUnique().append(bitCasting: element)
    }

    package mutating func dequeue() -> Element? {
        if count == 0 { return nil }
        return makeUnique().removeFirst()
    }

    package func peek() -> Element? {
        guard let storage, !storage.isEmpty else { return nil }
        return storage.first
    }

    package mutating func removeAll() {
        storage = nil
    }

    /// The elements from oldest to newest.
    package var elements: [Element] {
        storage?.copiedElements() ?? []
    }

    /// The storage, made first or copied when another `Queue` shares it.
    @inline(__always)
    private mutating func makeUnique() -> ElementQueue<Element> {
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage?.copy() ?? ElementQueue()
        }
        return storage.unsafelyUnwrapped
    }
}
