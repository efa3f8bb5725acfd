// What a zip source keeps: its elements not zipped yet, in order. The rest of zip is
// the machinery it shares with combineLatest (Combining/Combining.swift).

/// The elements of one zip source, oldest first. A set of values that goes out, now or
/// queued behind a delivery, is always the front of every queue, so a queued delivery
/// needs nothing kept for it.
final class ZipStore<Element>: CombiningStore<Element> {
    private let queue = ElementQueue<Element>()

    override init() {}

    override func store<T>(bitCasting element: T) {
        queue.append(bitCasting: element)
    }

    override func take(queued: Bool) -> Element {
        queue.removeFirst()
    }
}
