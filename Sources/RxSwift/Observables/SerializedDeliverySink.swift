/// A sink fed by more than one upstream (a source and a trigger): its deliveries never
/// overlap, without holding a lock while calling the observer.
///
/// The first caller becomes the deliverer; an event arriving meanwhile, from another
/// thread or re-entrantly from the observer itself, is queued and delivered by that
/// deliverer once the current delivery returns. A terminal event is delivered once and
/// disposes the sink; anything queued after it is dropped.
class SerializedDeliverySink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    typealias Element = Observer.Element

    private let deliveryLock = Lock.make()
    private var pending = Queue<Event<Element>>()
    private var delivering = false

    /// Delivers `event` downstream, after any delivery in progress.
    final func deliverSerialized(_ event: Event<Element>) {
        let deliverNow = deliveryLock.withLock { () -> Bool in
            if delivering {
                pending.enqueue(event)
                return false
            }
            delivering = true
            return true
        }
        guard deliverNow else { return }
        var current = event
        while true {
            if current.isStopEvent {
                forwardTerminal(current)
            } else {
                forwardOn(current)
            }
            let next = deliveryLock.withLock { () -> Event<Element>? in
                if let next = pending.dequeue() { return next }
                delivering = false
                return nil
            }
            guard let next else { return }
            current = next
        }
    }
}
