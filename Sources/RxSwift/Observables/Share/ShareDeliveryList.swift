/// The observers of a `ShareConnection` as its deliveries read them: an array of
/// unretained references, so that an element reaches every observer with no snapshot
/// retained and released around it.
///
/// The connection's `Bag` owns the observers; this list mirrors it, changed under the
/// same lock. A delivery reads `entries` and `count` under the lock and walks them
/// after unlocking, so they must stay valid until it ends: while one may run, a change
/// writes a new array and keeps the old one, and keeps each removed observer alive,
/// until a later change or element finds no delivery running. With none running, a
/// change rewrites the array in place.
struct ShareDeliveryList {
    /// `count` references to the observers, in subscription order.
    private(set) var entries: UnsafeMutablePointer<Unmanaged<DirectObserver>>?
    private(set) var count = 0
    private var capacity = 0
    /// Whether arrays or observers are kept for deliveries that may still run.
    private(set) var hasRetired = false
    private var retiredEntries: [UnsafeMutablePointer<Unmanaged<DirectObserver>>] = []
    private var retiredObservers: [DirectObserver] = []

    /// Mirrors `observers` after an insertion or removal (`removed`). `delivering`: a
    /// delivery may be walking the current array. Returns the observers kept for earlier
    /// deliveries that can go now, to release after unlocking.
    mutating func update(to observers: ContiguousArray<DirectObserver>, removed: DirectObserver?, delivering: Bool) -> [DirectObserver] {
        var released: [DirectObserver] = []
        if delivering {
            if let entries { retiredEntries.append(entries) }
            if let removed { retiredObservers.append(removed) }
            hasRetired = true
            entries = nil
            capacity = 0
        } else if hasRetired {
            released = releaseRetired()
        }
        if capacity < observers.count {
            entries?.deallocate()
            capacity = Swift.max(observers.count, 2)
            entries = .allocate(capacity: capacity)
        }
        count = observers.count
        observers.withUnsafeBufferPointer { source in
            var index = 0
            while index < source.count {
                // Plain words, so the old values need no deinitialization.
                (entries.unsafelyUnwrapped + index).initialize(to: Unmanaged.passUnretained(source[index]))
                index += 1
            }
        }
        return released
    }

    /// Keeps `observers`, no longer owned by the connection, alive for the deliveries
    /// that may still walk the array.
    mutating func keepAlive(_ observers: ContiguousArray<DirectObserver>) {
        retiredObservers.append(contentsOf: observers)
        hasRetired = true
    }

    /// Frees the arrays kept for earlier deliveries and hands back the observers kept
    /// alive for them, to release after unlocking. Only when no delivery runs.
    mutating func releaseRetired() -> [DirectObserver] {
        for retired in retiredEntries { retired.deallocate() }
        retiredEntries = []
        hasRetired = false
        defer { retiredObservers = [] }
        return retiredObservers
    }

    /// Frees the arrays, once no delivery can run (the connection's `deinit`).
    func deallocate() {
        entries?.deallocate()
        for retired in retiredEntries { retired.deallocate() }
    }
}
