// What each source of a combining operator keeps: `LatestStore` (combineLatest: its
// latest element) or `ZipStore` (zip: its elements not zipped yet). A store is touched
// only inside the sink's `withLock`, except for the prepared value, which only the
// deliverer touches, between its `prepare` under the lock and its `takePrepared` after
// unlocking (the delivery is serialised, so no one else is in between).

/// What one source of a combining operator keeps.
class CombiningStore<Element> {
    /// The value prepared for the set going out, until the deliverer takes it.
    private final let prepared = UnsafeMutablePointer<Element>.allocate(capacity: 1)

    init() {}

    deinit {
        prepared.deallocate()
    }

    /// Keeps `element`, whose type the caller checked is `Element`.
    func store<T>(bitCasting element: T) {
        rxAbstractMethod()
    }

    /// Under the lock: prepares the source's value for the set going out now (`queued`
    /// false), or for the oldest set queued behind a delivery (`queued` true).
    func prepare(queued: Bool) {
        rxAbstractMethod()
    }

    /// A set of values is queued behind the delivery in progress.
    func keepForQueuedDelivery() {}

    /// After unlocking, by the deliverer: the value `prepare` made ready.
    @inline(__always)
    final func takePrepared() -> Element {
        prepared.move()
    }

    /// For `prepare`: makes `value` the prepared value.
    @inline(__always)
    final func setPrepared(_ value: consuming Element) {
        prepared.initialize(to: value)
    }
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

    override func prepare(queued: Bool) {
        if queued, let kept {
            setPrepared(kept.removeFirst())
        } else {
            setPrepared(latest.pointee)
        }
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

    override func prepare(queued: Bool) {
        setPrepared(queue.removeFirst())
    }
}
