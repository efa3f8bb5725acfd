/// Serialises the deliveries of an operator with several upstreams (merge, flatMap,
/// combineLatest, zip, switchLatest, withLatestFrom) without holding its lock while
/// the observer runs.
///
/// It lives inside the operator's state, under the operator's lock. Whoever finds it
/// idle becomes the deliverer: it takes the item, unlocks, delivers, and then keeps
/// taking what other threads (or a re-entrant call from the observer itself) queued
/// meanwhile, until the queue is empty. Everyone else only queues and returns. So
/// deliveries never overlap, keep the order in which their state transitions happened,
/// and a re-entrant event on the delivering thread queues instead of deadlocking on a
/// non-recursive lock.
///
/// In the common case (one thread, no re-entrancy) nothing is queued: an item costs two
/// lock round trips and no allocation.
struct FanInDelivery<Item> {
    private var busy = false
    private var pending = Queue<Item>()

    init() {}

    /// Under the lock: returns `item` when the caller must deliver it now, or `nil`
    /// when a delivery is in progress and `item` was queued behind it.
    @inline(__always)
    mutating func offer(_ item: Item) -> Item? {
        if busy {
            pending.enqueue(item)
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
    }

    /// Under the lock, after a delivery: `true` when items were queued meanwhile (take
    /// them with `next`); otherwise the delivery is idle again.
    @inline(__always)
    mutating func release() -> Bool {
        if pending.isEmpty {
            busy = false
            return false
        }
        return true
    }

    /// Under the lock, after a delivery: the next queued item to deliver, or `nil`
    /// (the deliverer then stops and the delivery is idle again).
    @inline(__always)
    mutating func next() -> Item? {
        if let item = pending.dequeue() { return item }
        busy = false
        return nil
    }

    /// Under the lock, once a terminal event was delivered: stays busy for good, so
    /// nothing is ever delivered again, and drops whatever was queued.
    mutating func close() {
        busy = true
        pending.removeAll()
    }
}
