/// A sink fed by more than one upstream (a source and a trigger): its deliveries never
/// overlap, without holding a lock while calling the observer.
///
/// The first caller becomes the deliverer; an event arriving meanwhile, from another
/// thread or re-entrantly from the observer itself, is queued and delivered by that
/// deliverer once the current delivery returns (the `FanInDelivery` mechanism). A
/// terminal event is delivered once and disposes the sink; anything queued after it is
/// dropped.
class SerializedDeliverySink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    typealias Element = Observer.Element

    private let deliveryLock = Lock.make()
    // Guarded by `deliveryLock`.
    @exclusivity(unchecked)
    private var delivery = FanInDelivery<Event<Element>>()

    /// Delivers `event` downstream, after any delivery in progress.
    final func deliverSerialized(_ event: Event<Element>) {
        deliveryLock.lock()
        let first = delivery.offer(event)
        deliveryLock.unlock()
        guard let first else { return }
        // Events queued behind a terminal one are taken too (and dropped, the sink being
        // stopped), so the delivery ends idle.
        deliverInOrder(first, lock: deliveryLock, next: { delivery.next() }) { event in
            if event.isStopEvent {
                forwardTerminal(event)
            } else {
                forwardOn(event)
            }
            return true
        }
    }
}
