/// Serialises the deliveries of a sink fed by more than one party (several upstreams,
/// a source and its timers, a source and a trigger) without holding a lock while the
/// observer runs. It is Rivulet's one mechanism for that job.
///
/// It lives inside the operator's state, under the operator's lock (a `LockedState`,
/// or the lock of a hot operator's own state), so that a delivery's place in the queue
/// is the place of the state transition that produced it. Whoever finds it idle becomes
/// the deliverer: it takes the item, unlocks, delivers, and then keeps taking what
/// other threads (or a re-entrant call from the observer itself) queued meanwhile,
/// until the queue is empty (`deliverInOrder` is that loop). Everyone else only queues
/// and returns. So deliveries never overlap, keep the order of their transitions, and a
/// re-entrant event on the delivering thread queues instead of deadlocking on a
/// non-recursive lock.
///
/// Two ways in: `offer` (or `claim`, then `enqueue` when it fails) for a party that has
/// one item and delivers it itself when idle, with nothing queued in the common case
/// (two lock round trips, no allocation); `enqueue` several items, then `claimQueued`,
/// for a transition that produces a batch. Every method runs under the owner's lock,
/// and touches only plain fields on the fast path, so the generic code around them
/// looks up no metadata for `Item`. A drain run elsewhere (a scheduled action, a
/// dispatch queue) uses the second way one item at a time: `observe(on:)` and the test
/// kit's task executor queue each item with `enqueueStartingDrain`, and the one it
/// tells to starts the drain, which takes items with `next` until it returns `nil`.
package struct SerialDelivery<Item> {
    private var busy = false
    /// How many items wait in `pending`; read instead of the queue on the fast path.
    private var waiting = 0
    private var pending = Queue<Item>()

    package init() {}

    /// Whether a deliverer is at work (or the delivery was closed).
    package var isBusy: Bool { busy }

    /// Returns `item` when the caller must deliver it now, or `nil` when a delivery is
    /// in progress and `item` was queued behind it.
    @inline(__always)
    package mutating func offer(_ item: Item) -> Item? {
        if busy {
            enqueue(item)
            return nil
        }
        busy = true
        return item
    }

    /// Makes the caller the deliverer when the delivery is idle (it then delivers its
    /// item itself, with no `Item` built); `false` when a delivery is in progress, and
    /// the caller queues its item with `enqueue`.
    @inline(__always)
    package mutating func claim() -> Bool {
        if busy { return false }
        busy = true
        return true
    }

    /// Queues `item` behind the delivery in progress, or for the deliverer that
    /// `claimQueued` makes.
    package mutating func enqueue(_ item: Item) {
        pending.enqueue(item)
        waiting += 1
    }

    /// Counts `change` more (or, negative, fewer) items waiting in a queue of the
    /// owner's own (`MergeState`'s raw elements), so that `release()` keeps the delivery
    /// busy for them; the owner delivers them before calling `next()`.
    @inline(__always)
    package mutating func countWaiting(_ change: Int) {
        waiting += change
    }

    /// Makes the caller the deliverer of the queued items when the delivery is idle
    /// and something is queued; it then takes them with `next`.
    @inline(__always)
    package mutating func claimQueued() -> Bool {
        if busy || waiting == 0 { return false }
        busy = true
        return true
    }

    /// For a drain run elsewhere: queues `item` and returns whether the caller must
    /// start the drain (the delivery was idle), which then takes items with `next`.
    @inline(__always)
    package mutating func enqueueStartingDrain(_ item: Item) -> Bool {
        enqueue(item)
        return claimQueued()
    }

    /// After a delivery: `true` when items were queued meanwhile (take them with
    /// `next`); otherwise the delivery is idle again.
    @inline(__always)
    package mutating func release() -> Bool {
        if waiting == 0 {
            busy = false
            return false
        }
        return true
    }

    /// After a delivery: the next queued item to deliver, or `nil` (the deliverer then
    /// stops and the delivery is idle again).
    package mutating func next() -> Item? {
        if waiting == 0 {
            busy = false
            return nil
        }
        waiting -= 1
        return pending.dequeue()
    }

    /// Once a terminal event was delivered: stays busy for good, so nothing is ever
    /// delivered again, and drops whatever was queued.
    package mutating func close() {
        busy = true
        waiting = 0
        pending.removeAll()
    }
}

/// A state that holds the `SerialDelivery` of what its transitions produce.
protocol SerialDeliveryState {
    associatedtype Item
    var delivery: SerialDelivery<Item> { get set }
}

extension LockedState where State: SerialDeliveryState {
    /// Runs `transition` with the lock held (it queues its items on `delivery`); then,
    /// unlocked, performs them, and any queued before them, unless another party is
    /// delivering: that party performs them. Returns what `transition` returned, for
    /// work the caller does unlocked.
    @discardableResult
    func update<Result>(_ transition: (inout State) -> Result, perform: (State.Item) -> Void) -> Result {
        let (result, delivers) = withLock { state in
            let result = transition(&state)
            return (result, state.delivery.claimQueued())
        }
        if delivers {
            while let item = withLock({ $0.delivery.next() }) {
                perform(item)
            }
        }
        return result
    }
}

/// The deliverer's loop of a `SerialDelivery`: delivers `first` with `step`, then each
/// item `next` returns (it takes the owner's lock and calls `SerialDelivery.next()`),
/// until none is left or `step` returns `false` (it delivered a terminal event, and
/// the delivery stays busy for good).
///
/// Neither closure runs with the lock held on entry; `next` takes and releases it.
@inline(__always)
func deliverInOrder<Item>(_ first: Item, next: () -> Item?, step: (Item) -> Bool) {
    var item = first
    while step(item) {
        guard let following = next() else { return }
        item = following
    }
}

extension Sink {
    /// The `deliverInOrder` step of the operators whose items are the events to pass on:
    /// forwards `event`, and returns `false` once it was terminal.
    @inline(__always)
    final func forwardInOrder(_ event: Event<Observer.Element>) -> Bool {
        forwardEvent(event)
        return !event.isStopEvent
    }
}
