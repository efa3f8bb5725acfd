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

/// The observers of a `FanOut` (every subject's, every `share` connection's) as its
/// deliveries read them: an array of unretained references, so that an element
/// reaches every observer with no snapshot retained and released around it.
///
/// The owner's `Bag` owns the observers; this list mirrors it, changed under the
/// owner's lock. A delivery (`beginDelivery`) reads the array under the lock and walks
/// it after unlocking, so it must stay valid until the walk ends: while one may run, a
/// change writes a new array and keeps the old one, and keeps each removed observer
/// alive, until a later change or delivery finds none running. With none running, a
/// change rewrites the array in place.
///
/// The owner counts the running deliveries in an `InlineAtomicInt`: raised under the
/// lock by `beginDelivery`, lowered after each walk (`DeliveryWalk.end()`), both
/// atomically, so a change under the lock that reads 0 knows none runs, even when a
/// source sends from several threads at once. The walk lowers it through a reference
/// it was handed under the lock, so the end of a delivery, which runs unlocked, touches
/// the count and nothing else of the owner's locked state.
struct DeliveryList {
    /// `count` references to the observers, in subscription order.
    private var entries: UnsafeMutablePointer<Unmanaged<ObserverBase>>?
    private var count = 0
    private var capacity = 0
    /// Whether arrays or observers are kept for deliveries that may still run.
    private var hasRetired = false
    private var retiredEntries: [UnsafeMutablePointer<Unmanaged<ObserverBase>>] = []
    private var retiredObservers: [ObserverBase] = []

    /// Mirrors `observers` after an insertion or removal (`removed`) that changed them as
    /// `change` says. `delivering`: a delivery may be walking the current array. Returns
    /// the observers kept for earlier deliveries that can go now, to release after
    /// unlocking.
    ///
    /// With no delivery running, the change is followed in place: an append writes one
    /// entry (the array grows by doubling), a vacated slot gets the vacancy, a shortened
    /// list only its count, so each costs O(1) (amortised). A walk in progress reads
    /// `count` entries of the array it started with, so an append beyond them that
    /// fits the array is written in place too; any other change while one runs writes a
    /// new array and keeps the old one.
    mutating func update(to observers: ContiguousArray<ObserverBase>, change: BagChange, removed: ObserverBase?, delivering: Bool) -> [ObserverBase] {
        var released: [ObserverBase] = []
        if delivering {
            if change == .appended, observers.count <= capacity, observers.count == count + 1 {
                write(observers, from: count)
                return released
            }
            if let entries { retiredEntries.append(entries) }
            if let removed { retiredObservers.append(removed) }
            hasRetired = true
            entries = nil
            capacity = 0
        } else {
            if hasRetired { released = releaseRetired() }
            switch change {
            case .appended where observers.count == count + 1:
                if capacity < observers.count { grow(toHold: observers.count) }
                write(observers, from: count)
                return released
            case .vacated(let slot) where observers.count == count:
                (entries.unsafelyUnwrapped + slot).initialize(to: Unmanaged.passUnretained(observers[slot]))
                return released
            case .shortened where observers.count <= count:
                count = observers.count
                return released
            default:
                break
            }
        }
        if capacity < observers.count { grow(toHold: observers.count) }
        write(observers, from: 0)
        return released
    }

    /// Replaces the array by a larger one, at least twice as large, with the current
    /// entries (only with no delivery running, or with the array retired).
    private mutating func grow(toHold needed: Int) {
        let grownCapacity = Swift.max(needed, capacity * 2, 2)
        let grown = UnsafeMutablePointer<Unmanaged<ObserverBase>>.allocate(capacity: grownCapacity)
        if let entries {
            grown.initialize(from: entries, count: count)
            entries.deallocate()
        }
        entries = grown
        capacity = grownCapacity
    }

    /// Writes references to `observers[start...]` into the array and makes them all the
    /// entries.
    private mutating func write(_ observers: ContiguousArray<ObserverBase>, from start: Int) {
        observers.withUnsafeBufferPointer { source in
            var index = start
            while index < source.count {
                // Plain words, so the old values need no deinitialization.
                (entries.unsafelyUnwrapped + index).initialize(to: Unmanaged.passUnretained(source[index]))
                index += 1
            }
        }
        count = observers.count
    }

    /// Starts a delivery (under the owner's lock): counts it in `deliveries` and, when no
    /// other runs, hands what earlier ones kept over to `released`, for the caller to
    /// release after unlocking. The caller walks the result after unlocking, then ends
    /// it (`DeliveryWalk.end()`), which lowers `deliveries`.
    @inline(__always)
    mutating func beginDelivery(counting deliveries: borrowing InlineAtomicInt, released: inout [ObserverBase]?) -> DeliveryWalk {
        // With no observer and nothing kept, the walk reads no entry, so a change
        // meanwhile cannot pull anything from under it: it goes uncounted, which spares
        // an observerless subject (a relay read for its value) two atomic operations on a
        // word that every sending thread writes.
        if count == 0, !hasRetired { return DeliveryWalk(entries: nil, count: 0, deliveries: nil) }
        // An atomic increment, not a load and a store: a delivery on another thread
        // (a source sending from several threads) may lower the count meanwhile, and a
        // lost decrement would keep every later removal alive for good.
        let running = deliveries.add(1) - 1
        if running == 0, hasRetired { released = takeRetired() }
        return DeliveryWalk(entries: entries, count: count, deliveries: deliveries.reference)
    }

    @inline(never)
    private mutating func takeRetired() -> [ObserverBase] {
        releaseRetired()
    }

    /// Keeps `observers`, no longer owned by the source, alive for the deliveries
    /// that may still walk the array.
    mutating func keepAlive(_ observers: ContiguousArray<ObserverBase>) {
        retiredObservers.append(contentsOf: observers)
        hasRetired = true
    }

    /// Frees the arrays kept for earlier deliveries and hands back the observers kept
    /// alive for them, to release after unlocking. Only when no delivery runs.
    mutating func releaseRetired() -> [ObserverBase] {
        for retired in retiredEntries { retired.deallocate() }
        retiredEntries = []
        hasRetired = false
        defer { retiredObservers = [] }
        return retiredObservers
    }

    /// Frees the arrays, once no delivery can run (`FanOut`'s `deinit`, when the
    /// subject or the shared sequence that owns it goes).
    func deallocate() {
        entries?.deallocate()
        for retired in retiredEntries { retired.deallocate() }
    }
}

/// The observers one delivery walks, read from a `DeliveryList` under the owner's lock,
/// and the count of running deliveries it lowers when it ends.
struct DeliveryWalk {
    let entries: UnsafeMutablePointer<Unmanaged<ObserverBase>>?
    let count: Int
    /// The owner's count of running deliveries (in its locked state, which the owner
    /// keeps alive while it delivers); `nil` for an uncounted walk of no observer.
    let deliveries: InlineAtomicInt.Reference?

    /// Ends the delivery once the walk is over; takes no lock. `fileID` and `line` name
    /// the call (`SyncSite`).
    @inline(__always)
    func end(fileID: StaticString = #fileID, line: UInt = #line) {
        _ = deliveries?.add(-1, fileID: fileID, line: line)
    }

    /// Passes `element` to every observer, in order, with no retain.
    @inline(__always)
    func passNext<T>(_ element: T) {
        var index = 0
        while index < count {
            entries.unsafelyUnwrapped[index]._withUnsafeGuaranteedRef { observer in observer.receiveNext(element) }
            index += 1
        }
    }

    /// `passNext`, by address to the observers that take it so (their operator's
    /// specialised step runs) and through `receiveNext` to the others: for sources
    /// whose observers are mostly operators (a `PublishSubject`). Costs a copy of the
    /// element and a test per observer, which sources whose observers sit behind a
    /// `ReplayGate` would pay for nothing.
    @inline(__always)
    func passNextByAddress<T>(_ element: T) {
        // The closure takes the two fields it reads, not the walk: a larger context
        // costs the fan-out row instructions on every element.
        let (entries, count) = (entries, count)
        withUnsafePointer(to: element) { address in
            var index = 0
            while index < count {
                entries.unsafelyUnwrapped[index]._withUnsafeGuaranteedRef { observer in
                    if observer.takesElementAddresses {
                        observer.receive(at: address)
                    } else {
                        observer.receiveNext(element)
                    }
                }
                index += 1
            }
        }
    }
}
