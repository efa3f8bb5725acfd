/// The observers of a source that sends each event to all of them: every subject and
/// every `share` connection keeps its observers in one.
///
/// Each observer is an `ObserverBase` (the observer's own direct path, or a
/// `ReplayGate` around it), so the list is one concrete class and an element goes to
/// every observer with no `Event` built and no generic metadata looked up. The `Bag`
/// owns the observers (O(1) insertion and removal, in subscription order); the
/// `DeliveryList` mirrors it as unretained references that a delivery walks outside
/// the owner's lock, and `deliveries` counts the walks running, so that a change made
/// meanwhile keeps what they read alive (see `DeliveryList`).
///
/// It lives in its owner's locked state (`LockedPair`) and is reached only under the
/// lock: a delivery ends after unlocking through the count's reference its walk holds
/// (`DeliveryWalk.end()`). What the mutating methods hand back (observers removed or
/// kept for earlier deliveries) is released by the caller after unlocking, so no
/// observer's `deinit` runs under the lock.
struct FanOut: ~Copyable {
    private var observers = Bag<ObserverBase>(vacancy: VacantObserver.shared)
    private var deliveryList = DeliveryList()
    /// How many deliveries walk `deliveryList` now.
    private let deliveries = InlineAtomicInt(0)

    init() {}

    deinit {
        deliveryList.deallocate()
    }

    var isEmpty: Bool { observers.isEmpty }

    /// Adds `observer`; returns its key and the observers that earlier deliveries no
    /// longer need, to release after unlocking.
    mutating func insert(_ observer: ObserverBase) -> (key: BagKey, released: [ObserverBase]) {
        let key = observers.insert(observer)
        let released = deliveryList.update(to: observers.elements, change: .appended, removed: nil, delivering: deliveries.load() != 0)
        return (key, released)
    }

    /// Removes the observer with `key`, if it is still here; returns it with the
    /// observers earlier deliveries no longer need, to release after unlocking.
    mutating func remove(_ key: BagKey) -> (removed: ObserverBase, released: [ObserverBase])? {
        var change = BagChange.rearranged
        guard let removed = observers.remove(key, change: &change) else { return nil }
        let released = deliveryList.update(to: observers.elements, change: change, removed: removed, delivering: deliveries.load() != 0)
        return (removed, released)
    }

    /// Removes every observer and returns them, in subscription order, for a terminal
    /// event or a disposal. A delivery running now (an observer's reaction to an element
    /// can stop the source) still walks the list: the observers stay alive for it.
    mutating func removeAll() -> ContiguousArray<ObserverBase> {
        let all = observers.elements
        observers.removeAll()
        if deliveries.load() != 0 { deliveryList.keepAlive(all) }
        return all
    }

    /// Starts a delivery (under the owner's lock): the observers to walk after
    /// unlocking. The caller calls `walk.end()` once the walk is over.
    @inline(__always)
    mutating func beginDelivery() -> FanOutDelivery {
        var released: [ObserverBase]?
        let walk = deliveryList.beginDelivery(counting: deliveries, released: &released)
        return FanOutDelivery(walk: walk, released: released)
    }
}

/// One delivery of a `FanOut`: the observers it walks, read under the owner's lock,
/// and the observers earlier deliveries kept alive, released with it.
struct FanOutDelivery {
    let walk: DeliveryWalk
    let released: [ObserverBase]?

    /// Passes `element` to every observer, in order, with no retain.
    @inline(__always)
    func passNext<T>(_ element: T) {
        walk.passNext(element)
    }

    /// Passes `element` to every observer, in order, by address to those that take it
    /// so (see `DeliveryWalk.passNextByAddress`).
    @inline(__always)
    func passNextByAddress<T>(_ element: T) {
        walk.passNextByAddress(element)
    }
}

extension ContiguousArray where Element == ObserverBase {
    /// Passes a terminal event to every observer, in order: an error when `error` is
    /// set, otherwise completion.
    func passTerminal(_ error: Swift.Error?) {
        if let error {
            forEachElement { observer in observer.receiveError(error) }
        } else {
            forEachElement { observer in observer.receiveCompleted() }
        }
    }
}
