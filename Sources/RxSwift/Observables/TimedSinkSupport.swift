import Foundation

// Shared machinery of the time-based and error-handling operators: their sinks
// receive events from more than one party (the source, timers, a sampler, a
// trigger), change their state under one lock, and deliver what the change produced
// after unlocking, one delivery at a time.

/// A first-in first-out queue of work produced under a lock and performed after
/// unlocking, by one party at a time.
///
/// The party that finds nobody delivering becomes the deliverer (`claim()`): it takes
/// the queued items one by one (`next()`), releasing the lock around performing each,
/// until the queue is empty. The queue itself is only touched with the lock held.
/// Items queued meanwhile (by other threads, or re-entrantly by the receiver itself)
/// are performed by that deliverer, in order; nobody else calls out concurrently.
struct SerialOutbox<Item> {
    private var items = Queue<Item>()
    private var delivering = false

    /// Queues an item. Call with the owner's lock held.
    @inline(__always)
    mutating func push(_ item: Item) {
        items.enqueue(item)
    }

    /// Makes the caller the deliverer if nobody is delivering and there is work.
    /// Call with the owner's lock held.
    @inline(__always)
    mutating func claim() -> Bool {
        if delivering || items.isEmpty { return false }
        delivering = true
        return true
    }

    /// The next item for the deliverer, or `nil` (and the deliverer steps down).
    /// Call with the owner's lock held.
    @inline(__always)
    mutating func next() -> Item? {
        if let item = items.dequeue() { return item }
        delivering = false
        return nil
    }

    /// Drops every queued item. Call with the owner's lock held.
    mutating func removeAll() {
        items.removeAll()
    }
}

/// A sink fed by several parties: the subclass changes its state under `lock` and
/// queues the events to send with `enqueueLocked`; `unlockAndDeliver()` sends them
/// downstream in order, never two at once and never while holding the lock.
///
/// Once a terminal event is queued nothing else is queued, so the grammar holds
/// whatever the interleaving of the parties.
class OutboxSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    /// Guards the subclass's state and the outbox.
    final let lock = Lock.make()
    private final var outbox = SerialOutbox<Event<Observer.Element>>()
    private final var terminated = false

    /// Whether a terminal event was queued. Read with `lock` held.
    final var isTerminatedLocked: Bool { terminated }

    /// Queues an event for delivery. Call with `lock` held.
    @inline(__always)
    final func enqueueLocked(_ event: Event<Observer.Element>) {
        if terminated { return }
        if event.isStopEvent { terminated = true }
        outbox.push(event)
    }

    /// Releases `lock` and delivers the queued events unless another party is
    /// delivering (it then delivers them). Call with `lock` held.
    ///
    /// The outbox is only touched for short moments with the lock held, never across
    /// a delivery, so a receiver that re-enters the sink only queues more work.
    final func unlockAndDeliver() {
        guard outbox.claim() else {
            lock.unlock()
            return
        }
        while let event = outbox.next() {
            lock.unlock()
            if event.isStopEvent {
                forwardTerminal(event)
            } else {
                forwardOn(event)
            }
            lock.lock()
        }
        lock.unlock()
    }

    /// Queues `event` and delivers it (with anything queued before it).
    final func enqueueAndDeliver(_ event: Event<Observer.Element>) {
        lock.lock()
        enqueueLocked(event)
        unlockAndDeliver()
    }
}

/// Holds the one pending timer of a sink. Each timer carries a generation number:
/// a newer timer replaces (and disposes) an older one, and an older timer stored
/// late, after a newer one, is disposed at once. So timers can be scheduled outside
/// the sink's lock, on any thread, without an older one ever displacing a newer one.
final class TimerSlot: Disposable, @unchecked Sendable {
    private let lock = Lock.make()
    private var current: Disposable?
    private var generation: UInt64 = 0
    private var disposed = false

    init() {}

    /// Whether `dispose()` was called.
    var isDisposed: Bool {
        lock.withLock { disposed }
    }

    /// Stores the timer of `generation`, disposing whichever of the two is older.
    func set(_ timer: Disposable, generation: UInt64) {
        lock.lock()
        if disposed || generation < self.generation {
            lock.unlock()
            timer.dispose()
            return
        }
        let previous = current
        current = timer
        self.generation = generation
        lock.unlock()
        previous?.dispose()
    }

    func dispose() {
        lock.lock()
        if disposed {
            lock.unlock()
            return
        }
        disposed = true
        let previous = current
        current = nil
        lock.unlock()
        previous?.dispose()
    }
}

extension DispatchTimeInterval {
    /// Whether the interval is zero or negative (a timer for it is due at once).
    var isNowOrEarlier: Bool {
        convertToSecondsInterval <= 0
    }
}

extension Date {
    /// The date `interval` later.
    func adding(_ interval: RxTimeInterval) -> Date {
        addingTimeInterval(interval.convertToSecondsInterval)
    }
}
