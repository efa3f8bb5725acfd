/// When an inner sequence is subscribed.
enum MergePolicy {
    /// As soon as it is projected (flatMap, merge).
    case unlimited
    /// Only when no inner sequence is running; others are dropped (flatMapFirst).
    case firstOnly
    /// At most this many at once; the rest wait in a queue (merge(maxConcurrent:), concatMap).
    case limited(Int)
}

/// The state of one merge subscription. Every transition runs under the sink's lock and
/// returns what to do after unlocking.
struct MergeState<Inner, Element> {
    /// Inner sequences subscribed (or being subscribed) and not completed yet.
    private(set) var active = 0
    /// The outer sequence completed.
    private var outerCompleted = false
    private(set) var isTerminated = false
    /// Inner sequences waiting for a free slot (limited policy only).
    private var waiting = Queue<Inner>()
    /// A thread is subscribing waiting sequences one after another. Completions on that
    /// thread (or any other) leave the next subscription to it: a chain of sequences that
    /// complete during their own subscription becomes a loop, not a recursion.
    private var pumping = false
    var delivery = SerialDelivery<Event<Element>>()
    /// Inner elements that arrived while a delivery was in progress, in order, as raw
    /// values: no `Event` is built and no generic metadata is looked up per element.
    /// They go before anything in `delivery`'s own queue, which holds terminal events
    /// only: once one is queued the merge is terminated and takes no more elements.
    /// They are counted in `delivery`'s waiting items too, so that a delivery's end
    /// (`delivery.release()`) sees them with no look at the generic ring, which cost a
    /// call and a lookup of the element type on every element. The storage is freed by
    /// `releaseQueuedElements()`.
    private var queuedElements = ElementRing<Element>()

    /// Queues an inner element (an `Element`) behind the delivery in progress.
    @inline(__always)
    mutating func queueElement<T>(_ element: T) {
        queuedElements.append(bitCasting: element)
        delivery.countWaiting(1)
    }

    /// After a delivery of elements: hands the elements queued meanwhile over in `batch`
    /// (whose storage, emptied by the caller, becomes the next queue's) and keeps the
    /// delivery busy; or, with none, goes on to a queued terminal event (`.terminal`,
    /// the delivery still busy) or ends the delivery (`.idle`).
    @inline(__always)
    mutating func afterDelivery(swappingWith batch: inout ElementRing<Element>) -> MergeQueueStep {
        let queued = queuedElements.count
        if queued > 0 {
            swap(&queuedElements, &batch)
            delivery.countWaiting(-queued)
            return .elements
        }
        return delivery.release() ? .terminal : .idle
    }

    /// Frees the queue's storage and the elements left in it (the sink's `deinit`).
    mutating func releaseQueuedElements() {
        queuedElements.release()
    }

    /// Unlimited: counts a new inner sequence; `false` once terminated.
    mutating func admit() -> Bool {
        if isTerminated { return false }
        active += 1
        return true
    }

    /// First-only: takes the one slot if it is free.
    mutating func admitIfIdle() -> Bool {
        if isTerminated || active > 0 { return false }
        active += 1
        return true
    }

    /// Limited: queues an inner sequence until a slot is free.
    mutating func enqueue(_ inner: Inner) {
        if isTerminated { return }
        waiting.enqueue(inner)
    }

    /// Limited: when nobody is pumping and a slot is free, takes the next waiting
    /// sequence and makes the caller the pumping thread.
    mutating func startPumping(limit: Int) -> Inner? {
        if pumping || isTerminated || active >= limit { return nil }
        guard let inner = waiting.dequeue() else { return nil }
        active += 1
        pumping = true
        return inner
    }

    /// Limited, on the pumping thread after a subscription: the next sequence to
    /// subscribe, or the end of pumping (with a completion to deliver, if that is now due).
    mutating func continuePumping(limit: Int) -> MergePumpStep<Inner, Element> {
        if !isTerminated && active < limit, let inner = waiting.dequeue() {
            active += 1
            return .subscribe(inner)
        }
        pumping = false
        return .stop(completeIfDone())
    }

    /// An inner sequence completed: `true` when that ends the merge, and the caller
    /// then delivers the completion (`offerCompletion`). No `Event` here, so that the
    /// common case costs no lookup of its metadata.
    mutating func innerCompletedEnds() -> Bool {
        active -= 1
        return endIfDone()
    }

    /// The completion, once `innerCompletedEnds` said the merge ended.
    mutating func offerCompletion() -> Event<Element>? {
        delivery.offer(.completed)
    }

    /// The outer sequence completed.
    mutating func outerDone() -> Event<Element>? {
        outerCompleted = true
        return completeIfDone()
    }

    /// An error from the outer sequence, an inner one or the selector.
    mutating func fail(_ error: Swift.Error) -> Event<Element>? {
        if isTerminated { return nil }
        isTerminated = true
        waiting.removeAll()
        return delivery.offer(.error(error))
    }

    private mutating func completeIfDone() -> Event<Element>? {
        endIfDone() ? offerCompletion() : nil
    }

    /// Ends the merge when the outer and every inner sequence have completed.
    private mutating func endIfDone() -> Bool {
        if isTerminated || !outerCompleted || active > 0 || pumping || !waiting.isEmpty { return false }
        isTerminated = true
        return true
    }
}

/// What follows a delivery of elements (`MergeState.afterDelivery`).
enum MergeQueueStep {
    /// The elements queued meanwhile, to deliver next.
    case elements
    /// A terminal event queued meanwhile, to deliver next.
    case terminal
    /// Nothing: the delivery has ended.
    case idle
}

enum MergePumpStep<Inner, Element> {
    case subscribe(Inner)
    case stop(Event<Element>?)
}
