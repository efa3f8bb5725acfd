// What each source of a combining operator keeps: `LatestStore` (combineLatest: its
// latest element) or `ZipStore` (zip: its elements not zipped yet). A store is touched
// only inside the sink's `withLock`.

/// What one source of a combining operator keeps.
class CombiningStore<Element> {
    init() {}

    /// Keeps `element`, whose type the caller checked is `Element`.
    func store<T>(bitCasting element: T) {
        rxAbstractMethod()
    }

    /// Under the lock: the source's value for the set going out now (`queued` false),
    /// or for the oldest set queued behind a delivery (`queued` true).
    func take(queued: Bool) -> Element {
        rxAbstractMethod()
    }

    /// A set of values is queued behind the delivery in progress.
    func keepForQueuedDelivery() {}
}

/// A store for one source of `rule`'s operator: its latest element, or its queue.
func makeStore<Element>(for rule: CombiningRule, of type: Element.Type) -> CombiningStore<Element> {
    rule == .combineLatest ? LatestStore<Element>() : ZipStore<Element>()
}

/// The latest element of one combineLatest source, in storage of its own (an
/// `Optional<Element>` would cost a metadata lookup at each use in generic code), and
/// copies of it kept for sets of values queued behind a delivery in progress.
final class LatestStore<Element>: CombiningStore<Element> {
    private let latest = UnsafeMutablePointer<Element>.allocate(capacity: 1)
    private var hasLatest = false
    /// Created on the first queued delivery.
    private var kept: ElementQueue<Element>?

    override init() {}

    deinit {
        if hasLatest { latest.deinitialize(count: 1) }
        latest.deallocate()
    }

    override func store<T>(bitCasting element: T) {
        let target = UnsafeMutableRawPointer(latest).assumingMemoryBound(to: T.self)
        if hasLatest {
            target.pointee = element
        } else {
            target.initialize(to: element)
            hasLatest = true
        }
    }

    override func take(queued: Bool) -> Element {
        if queued, let kept {
            return kept.removeFirst()
        }
        return latest.pointee
    }

    override func keepForQueuedDelivery() {
        let kept: ElementQueue<Element>
        if let existing = self.kept {
            kept = existing
        } else {
            kept = ElementQueue()
            self.kept = kept
        }
        kept.append(bitCasting: latest.pointee)
    }
}

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
