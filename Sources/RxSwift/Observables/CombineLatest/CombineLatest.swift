// What a combineLatest source keeps: its latest element. The rest of combineLatest is
// the machinery it shares with zip (Combining/Combining.swift).

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
