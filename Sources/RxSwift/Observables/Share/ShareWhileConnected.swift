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
/// Its state is guarded by the owner's lock. The observers are a `FanOut`, so an
/// element goes from the source to every observer with no `Event` built and no
/// generic metadata looked up; the buffer is an `ElementRing`, raw storage sized by
/// `MemoryLayout<Element>`, for the same reason.
final class ShareConnection<Element>: ObserverBase, ObserverType, @unchecked Sendable {
    private let parent: ShareWhileConnected<Element>
    private let replay: Int
    /// The subscription to the source, assigned once connected.
    let upstream = SingleAssignmentDisposable()

    // Guarded by `parent.lock`.
    @exclusivity(unchecked)
    private var observers = FanOut()
    /// Set when the connection ended (terminal event, or the last observer left).
    @exclusivity(unchecked)
    private var ended = false
    /// The replay buffer: the latest `replay` elements; emptied when the connection
    /// ends.
    @exclusivity(unchecked)
    private var buffer = ElementRing<Element>()

    init(parent: ShareWhileConnected<Element>) {
        self.parent = parent
        self.replay = parent.replay
        super.init()
    }

    deinit {
        buffer.release()
    }

    /// Adds `observer` (under `lock`). When elements are buffered, the observer is
    /// added behind a closed gate and the caller replays `replay` through it after
    /// unlocking. `released`: observers kept for earlier deliveries, for the caller to
    /// release after unlocking.
    func join<Observer: ObserverType>(_ observer: Observer) -> (key: BagKey, gate: ReplayGate<Observer>?, replay: [Element], released: [ObserverBase]) where Observer.Element == Element {
        if !buffer.isEmpty {
            let gate = ReplayGate(observer, replaying: true)
            let (key, released) = observers.insert(gate)
            return (key, gate, buffer.copiedElements(), released)
        }
        let (key, released) = observers.insert(directPath(of: observer) ?? ReplayGate(observer, replaying: false))
        return (key, nil, [], released)
    }

    /// Removes an observer; the last one to leave ends the connection.
    func leave(_ key: BagKey) {
        parent.lock.lock()
        guard !ended, let removed = observers.remove(key) else {
            parent.lock.unlock()
            return
        }
        guard observers.isEmpty else {
            parent.lock.unlock()
            withExtendedLifetime(removed) {}
            return
        }
        var dropped = end()
        parent.lock.unlock()
        withExtendedLifetime(removed) {}
        dropped.release()
        upstream.dispose()
    }

    /// Ends the connection (under `lock`): the owner forgets it, and the buffer is handed
    /// to the caller to release after unlocking.
    private func end() -> ElementRing<Element> {
        ended = true
        parent.connection = nil
        return buffer.takeAll()
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
        if replay > 0 { buffer.append(bitCasting: element, keepingAtMost: replay) }
        let delivery = observers.beginDelivery()
        parent.lock.unlock()
        delivery.passNext(element)
        observers.endDelivery()
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
        let snapshot = observers.removeAll()
        var dropped = end()
        parent.lock.unlock()
        dropped.release()
        snapshot.passTerminal(error)
        upstream.dispose()
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
