/// `share(replay:scope: .whileConnected)` without a subject: the first observer
/// connects, the last one to leave (or a terminal event) disconnects and drops the
/// replay buffer, and the next observer connects anew.
///
/// The live connection (`ShareConnection`) holds the observers, the replay buffer and
/// the subscription to the source; it and the owner's pointer to it change under one
/// lock, so an observer always joins a live connection (or starts one): it can never
/// be left on a connection that ended while it subscribed. No observer, subscription
/// or disposal runs under the lock; the buffer is replayed to a new observer outside
/// it, before any newer event (`ReplayGate`).
///
/// `package` rather than internal: Swift 6.3 warns of an infinite recursion (a false
/// positive) for an internal class whose designated initializer calls `Observable`'s
/// `package init()`.
package final class ShareWhileConnected<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    /// How many recent elements a new observer receives.
    let replay: Int
    /// Guards `connection` and the state of every connection of this sequence; taken
    /// for every element, so it is the inline kind.
    let lock = InlineLock()
    /// The live connection, if any. Guarded by `lock`.
    @exclusivity(unchecked)
    var connection: ShareConnection<Element>?

    init(source: Observable<Element>, replay: Int) {
        self.source = source
        self.replay = replay
        super.init()
    }

    override package func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.lock()
        let connection: ShareConnection<Element>
        let connects: Bool
        if let current = self.connection {
            connection = current
            connects = false
        } else {
            connection = ShareConnection(parent: self)
            self.connection = connection
            connects = true
        }
        let joined = connection.join(observer)
        lock.unlock()
        withExtendedLifetime(joined.released) {}
        if let gate = joined.gate {
            gate.open(after: joined.replay)
        }
        if connects {
            connection.upstream.setDisposable(source.subscribe(connection))
        }
        return ShareSubscription(connection: connection, key: joined.key)
    }
}

/// One connection of a `ShareWhileConnected`: subscribed to the source, it passes each
/// event to the connection's observers and keeps the replay buffer.
///
/// Its state is guarded by the owner's lock. The observers are `DirectObserver`s (the
/// observer's own direct path, or a `ReplayGate` around it), so an element goes from
/// the source to every observer with no `Event` built and no generic metadata looked
/// up; the buffer is raw storage sized by `MemoryLayout<Element>`, for the same reason.
final class ShareConnection<Element>: DirectObserver, ObserverType, @unchecked Sendable {
    private let parent: ShareWhileConnected<Element>
    private let replay: Int
    /// The subscription to the source, assigned once connected.
    let upstream = SingleAssignmentDisposable()

    // Guarded by `parent.lock`.
    @exclusivity(unchecked)
    private var observers = Bag<DirectObserver>()
    /// `observers` as the deliveries read them, with no retain.
    @exclusivity(unchecked)
    private var deliveryList = ShareDeliveryList()
    /// Set when the connection ended (terminal event, or the last observer left).
    @exclusivity(unchecked)
    private var ended = false
    /// The replay buffer: a ring of `bufferCount` elements from `bufferHead`, at most
    /// `replay` of them; allocated at the first element.
    @exclusivity(unchecked)
    private var buffer: UnsafeMutablePointer<Element>?
    @exclusivity(unchecked)
    private var bufferCapacity = 0
    @exclusivity(unchecked)
    private var bufferHead = 0
    @exclusivity(unchecked)
    private var bufferCount = 0
    /// How many deliveries walk `deliveryList` now. Raised under the lock (a plain
    /// store: only the thread delivering the source's events raises it), lowered after
    /// each delivery, so a change under the lock that reads 0 knows none runs.
    private let deliveries = InlineAtomicInt(0)

    init(parent: ShareWhileConnected<Element>) {
        self.parent = parent
        self.replay = parent.replay
        super.init()
    }

    deinit {
        deliveryList.deallocate()
        releaseBuffer(buffer, capacity: bufferCapacity, head: bufferHead, count: bufferCount)
    }

    /// Adds `observer` (under `lock`). When elements are buffered, the observer is
    /// added behind a closed gate and the caller replays `replay` through it after
    /// unlocking. `released`: observers kept for earlier deliveries, for the caller to
    /// release after unlocking.
    func join<Observer: ObserverType>(_ observer: Observer) -> (key: BagKey, gate: ReplayGate<Observer>?, replay: [Element], released: [DirectObserver]) where Observer.Element == Element {
        if bufferCount > 0 {
            let gate = ReplayGate(observer, replaying: true)
            let key = observers.insert(gate)
            return (key, gate, bufferedElements(), updateDeliveryList(removed: nil))
        }
        let entry = directPath(of: observer) ?? ReplayGate(observer, replaying: false)
        let key = observers.insert(entry)
        return (key, nil, [], updateDeliveryList(removed: nil))
    }

    /// Mirrors `observers` in `deliveryList` after a change (under `lock`).
    private func updateDeliveryList(removed: DirectObserver?) -> [DirectObserver] {
        deliveryList.update(to: observers.elements, removed: removed, delivering: deliveries.load() != 0)
    }

    /// Removes an observer; the last one to leave ends the connection.
    func leave(_ key: BagKey) {
        parent.lock.lock()
        guard !ended, let removed = observers.remove(key) else {
            parent.lock.unlock()
            return
        }
        let released = updateDeliveryList(removed: removed)
        guard observers.isEmpty else {
            parent.lock.unlock()
            withExtendedLifetime((removed, released)) {}
            return
        }
        let dropped = end()
        parent.lock.unlock()
        withExtendedLifetime((removed, released)) {}
        releaseBuffer(dropped.buffer, capacity: dropped.capacity, head: dropped.head, count: dropped.count)
        upstream.dispose()
    }

    /// Ends the connection (under `lock`): the owner forgets it, and the buffer is handed
    /// to the caller to release after unlocking.
    private func end() -> (buffer: UnsafeMutablePointer<Element>?, capacity: Int, head: Int, count: Int) {
        ended = true
        parent.connection = nil
        defer {
            buffer = nil
            bufferCapacity = 0
            bufferHead = 0
            bufferCount = 0
        }
        return (buffer, bufferCapacity, bufferHead, bufferCount)
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        T.self == Element.self
    }

    override func receiveNext<T>(_ element: T) {
        parent.lock.lock()
        if ended {
            parent.lock.unlock()
            return
        }
        if replay > 0 { remember(element) }
        let running = deliveries.loadRelaxed()
        var released: [DirectObserver]?
        if running == 0, deliveryList.hasRetired { released = takeRetired() }
        deliveries.storeRelaxed(running + 1)
        let entries = deliveryList.entries
        let count = deliveryList.count
        parent.lock.unlock()
        withExtendedLifetime(released) {}
        var index = 0
        while index < count {
            entries.unsafelyUnwrapped[index]._withUnsafeGuaranteedRef { observer in observer.receiveNext(element) }
            index += 1
        }
        _ = deliveries.add(-1)
    }

    /// What `deliveryList` kept for earlier deliveries, none of which runs now (under
    /// `lock`); released by the caller after unlocking.
    @inline(never)
    private func takeRetired() -> [DirectObserver] {
        deliveryList.releaseRetired()
    }

    override func receiveCompleted() {
        finish(nil)
    }

    override func receiveError(_ error: Swift.Error) {
        finish(error)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): receiveNext(element)
        case .error(let error): finish(error)
        case .completed: finish(nil)
        }
    }

    /// A terminal event: ends the connection, passes the event on, then disposes the
    /// subscription to the source.
    private func finish(_ error: Swift.Error?) {
        parent.lock.lock()
        if ended {
            parent.lock.unlock()
            return
        }
        let snapshot = observers.elements
        observers.removeAll()
        // An observer's reaction to an element can end the source: the delivery of
        // that element still walks `deliveryList`.
        if deliveries.load() != 0 { deliveryList.keepAlive(snapshot) }
        let dropped = end()
        parent.lock.unlock()
        releaseBuffer(dropped.buffer, capacity: dropped.capacity, head: dropped.head, count: dropped.count)
        if let error {
            snapshot.forEachElement { observer in observer.receiveError(error) }
        } else {
            snapshot.forEachElement { observer in observer.receiveCompleted() }
        }
        upstream.dispose()
    }

    /// Appends `element` (an `Element`: `T` is the type `acceptsElements` accepted) to
    /// the buffer, dropping the oldest when `replay` are held. Under `lock`.
    @inline(__always)
    private func remember<T>(_ element: T) {
        if bufferCount == replay, let buffer {
            // Full: the newest replaces the oldest.
            UnsafeMutableRawPointer(buffer + bufferHead).assumingMemoryBound(to: T.self).pointee = element
            bufferHead = bufferHead + 1 == bufferCapacity ? 0 : bufferHead + 1
            return
        }
        if bufferCount == bufferCapacity { growBuffer() }
        var slot = bufferHead + bufferCount
        if slot >= bufferCapacity { slot -= bufferCapacity }
        UnsafeMutableRawPointer(buffer.unsafelyUnwrapped + slot).assumingMemoryBound(to: T.self).initialize(to: element)
        bufferCount += 1
    }

    @inline(never)
    private func growBuffer() {
        let capacity = Swift.min(replay, Swift.max(bufferCapacity * 2, 1))
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        if let buffer {
            let firstRun = Swift.min(bufferCount, bufferCapacity - bufferHead)
            grown.moveInitialize(from: buffer + bufferHead, count: firstRun)
            (grown + firstRun).moveInitialize(from: buffer, count: bufferCount - firstRun)
            buffer.deallocate()
        }
        buffer = grown
        bufferCapacity = capacity
        bufferHead = 0
    }

    /// The buffered elements, oldest first. Under `lock`.
    private func bufferedElements() -> [Element] {
        guard let buffer else { return [] }
        var elements: [Element] = []
        elements.reserveCapacity(bufferCount)
        for offset in 0..<bufferCount {
            var slot = bufferHead + offset
            if slot >= bufferCapacity { slot -= bufferCapacity }
            elements.append(buffer[slot])
        }
        return elements
    }

    private func releaseBuffer(_ buffer: UnsafeMutablePointer<Element>?, capacity: Int, head: Int, count: Int) {
        guard let buffer else { return }
        let firstRun = Swift.min(count, capacity - head)
        (buffer + head).deinitialize(count: firstRun)
        buffer.deinitialize(count: count - firstRun)
        buffer.deallocate()
    }
}

/// The disposable of one observer of a shared sequence; a value, so subscribing
/// allocates nothing for it.
private struct ShareSubscription<Element>: Disposable {
    let connection: ShareConnection<Element>
    let key: BagKey

    func dispose() {
        connection.leave(key)
    }
}
