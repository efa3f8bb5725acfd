/// Serialises the deliveries of an operator with several upstreams (merge, flatMap,
/// combineLatest, zip, switchLatest, withLatestFrom, take(until:), skip(until:)) without
/// holding its lock while the observer runs.
///
/// It lives inside the operator's state, under the operator's lock. Whoever finds it
/// idle becomes the deliverer: it takes the item, unlocks, delivers, and then keeps
/// taking what other threads (or a re-entrant call from the observer itself) queued
/// meanwhile, until the queue is empty (`deliverInOrder` is that loop). Everyone else
/// only queues and returns. So deliveries never overlap, keep the order in which their
/// state transitions happened, and a re-entrant event on the delivering thread queues
/// instead of deadlocking on a non-recursive lock.
///
/// In the common case (one thread, no re-entrancy) nothing is queued: an item costs two
/// lock round trips and no allocation, and `claim` and `release` touch only plain
/// fields, so the generic code around them looks up no metadata for `Item`.
struct FanInDelivery<Item> {
    private var busy = false
    /// How many items wait in `pending`; read instead of the queue on the fast path.
    private var waiting = 0
    private var pending = Queue<Item>()

    init() {}

    /// Under the lock: returns `item` when the caller must deliver it now, or `nil`
    /// when a delivery is in progress and `item` was queued behind it.
    @inline(__always)
    mutating func offer(_ item: Item) -> Item? {
        if busy {
            enqueue(item)
            return nil
        }
        busy = true
        return item
    }

    /// Under the lock: makes the caller the deliverer when the delivery is idle (it then
    /// delivers its item itself, with no `Item` built); `false` when a delivery is in
    /// progress, and the caller queues its item with `enqueue`.
    @inline(__always)
    mutating func claim() -> Bool {
        if busy { return false }
        busy = true
        return true
    }

    /// Under the lock, when `claim` returned `false`: queues `item` behind the delivery
    /// in progress.
    mutating func enqueue(_ item: Item) {
        pending.enqueue(item)
        waiting += 1
    }

    /// Under the lock, after a delivery: `true` when items were queued meanwhile (take
    /// them with `next`); otherwise the delivery is idle again.
    @inline(__always)
    mutating func release() -> Bool {
        if waiting == 0 {
            busy = false
            return false
        }
        return true
    }

    /// Under the lock, after a delivery: the next queued item to deliver, or `nil`
    /// (the deliverer then stops and the delivery is idle again).
    mutating func next() -> Item? {
        if waiting == 0 {
            busy = false
            return nil
        }
        waiting -= 1
        return pending.dequeue()
    }

    /// Under the lock, once a terminal event was delivered: stays busy for good, so
    /// nothing is ever delivered again, and drops whatever was queued.
    mutating func close() {
        busy = true
        waiting = 0
        pending.removeAll()
    }
}

/// The deliverer's loop of a `FanInDelivery`: delivers `first` with `step`, then each
/// item queued behind it, taken with `next` (a `FanInDelivery.next()`) under `lock`,
/// until none is left or `step` returns `false` (it delivered a terminal event, and
/// the delivery stays busy for good).
///
/// `step` runs without the lock held; it may take the lock itself.
@inline(__always)
func deliverInOrder<Item>(_ first: Item, lock: Lock, next: () -> Item?, step: (Item) -> Bool) {
    var item = first
    while step(item) {
        lock.lock()
        let following = next()
        lock.unlock()
        guard let following else { return }
        item = following
    }
}

extension Sink {
    /// The `deliverInOrder` step of the operators whose items are the events to pass on:
    /// forwards `event`, and returns `false` once it was terminal.
    @inline(__always)
    final func forwardInOrder(_ event: Event<Observer.Element>) -> Bool {
        if event.isStopEvent {
            forwardTerminal(event)
            return false
        }
        forwardOn(event)
        return true
    }
}
