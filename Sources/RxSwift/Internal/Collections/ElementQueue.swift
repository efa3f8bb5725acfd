/// An `ElementRing` in an object of its own, released with it: zip's queues,
/// combineLatest's kept values, and the storage of a `Queue`.
package final class ElementQueue<Element> {
    // Reached only through its owner, which serialises every use (zip's and
    // combineLatest's sink lock; a `Queue`'s owner, which copies it before a write when
    // it is shared): no dynamic exclusivity checks on every element.
    @exclusivity(unchecked)
    private var ring = ElementRing<Element>()

    package init() {}

    deinit {
        ring.release()
    }

    package var count: Int { ring.count }
    package var isEmpty: Bool { ring.isEmpty }

    /// The oldest element; there must be one.
    var first: Element { ring.first }

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

    /// The elements, oldest first.
    func copiedElements() -> [Element] {
        ring.copiedElements()
    }

    /// A new queue holding the same elements.
    func copy() -> ElementQueue<Element> {
        let copy = ElementQueue<Element>()
        for element in ring.copiedElements() {
            copy.ring.append(bitCasting: element)
        }
        return copy
    }
}
