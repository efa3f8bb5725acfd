/// The state of `share(replay:scope: .whileConnected)`: either no connection, or one
/// connection with its observers and its replay buffer.
///
/// Every transition runs under the owner's lock and returns what to do after unlocking:
/// which observers to deliver to, which element to replay, what to connect or dispose.
struct ShareWhileConnectedState<Element> {
    typealias Deliver = (Event<Element>) -> Void

    struct Connection {
        /// Tells this connection's events from a previous one's.
        let id: UInt64
        var observers: Bag<Deliver>
        /// The most recent elements, at most `replay` of them.
        var buffer: Queue<Element>
        /// The subscription to the source, assigned once connected.
        let upstream: SingleAssignmentDisposable
    }

    enum Phase {
        case idle
        case connected(Connection)
    }

    /// What a subscriber does after unlocking.
    struct Subscribed {
        let connectionID: UInt64
        let key: BagKey
        /// Set for the first observer of a connection: it subscribes to the source.
        let connect: SingleAssignmentDisposable?
        /// Set when elements must be replayed first: deliver them through `entry`.
        let replay: (entry: ReplayingObserver<Element>, elements: [Element])?
    }

    /// How many recent elements a new observer receives.
    let replay: Int
    private(set) var phase: Phase = .idle
    private var nextID: UInt64 = 0

    init(replay: Int) {
        self.replay = replay
    }

    /// Adds an observer, starting a connection when there is none.
    mutating func subscribe(_ deliver: @escaping Deliver) -> Subscribed {
        switch phase {
        case .idle:
            let id = nextID
            nextID &+= 1
            var observers = Bag<Deliver>()
            let key = observers.insert(deliver)
            let upstream = SingleAssignmentDisposable()
            phase = .connected(Connection(id: id, observers: observers, buffer: Queue(), upstream: upstream))
            return Subscribed(connectionID: id, key: key, connect: upstream, replay: nil)
        case .connected(var connection):
            // Drop the enum's copy so the bag below is uniquely referenced.
            phase = .idle
            defer { phase = .connected(connection) }
            if !connection.buffer.isEmpty {
                // Events that arrive while the buffer is replayed outside the lock wait
                // in the entry, so the observer sees them after it.
                let entry = ReplayingObserver(deliver)
                let key = connection.observers.insert(entry.on)
                return Subscribed(connectionID: connection.id, key: key, connect: nil, replay: (entry, connection.buffer.elements))
            }
            let key = connection.observers.insert(deliver)
            return Subscribed(connectionID: connection.id, key: key, connect: nil, replay: nil)
        }
    }

    /// An event from connection `id`'s source: returns the observers to deliver it to
    /// and, for a terminal event, the source subscription to dispose afterwards.
    mutating func on(_ event: Event<Element>, connectionID id: UInt64) -> (observers: ContiguousArray<Deliver>, finished: Disposable?) {
        guard case .connected(var connection) = phase, connection.id == id else {
            return ([], nil)
        }
        switch event {
        case .next(let element):
            if replay > 0 {
                // Drop the enum's copy so the buffer is mutated in place.
                phase = .idle
                connection.buffer.enqueue(element)
                if connection.buffer.count > replay { _ = connection.buffer.dequeue() }
                phase = .connected(connection)
            }
            return (connection.observers.elements, nil)
        case .error, .completed:
            phase = .idle
            return (connection.observers.elements, connection.upstream)
        }
    }

    /// Removes an observer; returns the source subscription to dispose when it was the
    /// connection's last observer.
    mutating func unsubscribe(connectionID id: UInt64, key: BagKey) -> Disposable? {
        guard case .connected(var connection) = phase, connection.id == id else {
            return nil
        }
        phase = .idle
        guard connection.observers.remove(key) != nil else {
            phase = .connected(connection)
            return nil
        }
        if connection.observers.isEmpty {
            return connection.upstream
        }
        phase = .connected(connection)
        return nil
    }
}

/// `share(replay:scope: .whileConnected)` without a subject: the first observer
/// connects, the last one to leave (or a terminal event) disconnects and drops the
/// replay buffer, and the next observer connects anew.
///
/// Observers, the connection and the buffer are one state under one lock, so an
/// observer always joins a live connection (or starts one): it can never be left on a
/// connection that ended while it subscribed. No observer, subscription or disposal
/// runs under the lock; the buffer is replayed to a new observer outside it, before
/// any newer event.
///
/// `package` rather than internal: Swift 6.3 warns of an infinite recursion (a false
/// positive) for an internal class whose designated initializer calls `Observable`'s
/// `package init()`.
package final class ShareWhileConnected<Element>: Observable<Element>, @unchecked Sendable {
    typealias State = ShareWhileConnectedState<Element>

    private let source: Observable<Element>
    private let lock = Lock.make()
    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per event).
    @exclusivity(unchecked)
    private var state: State

    init(source: Observable<Element>, replay: Int) {
        self.source = source
        self.state = State(replay: replay)
        super.init()
    }

    override package func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let subscribed = lock.withLock { state.subscribe(observer.on) }
        if let replay = subscribed.replay {
            replay.entry.replay(replay.elements.map { .next($0) })
        }
        if let upstream = subscribed.connect {
            upstream.setDisposable(source.subscribe(ShareConnectionObserver(parent: self, connectionID: subscribed.connectionID)))
        }
        return ShareSubscription(parent: self, connectionID: subscribed.connectionID, key: subscribed.key)
    }

    fileprivate func on(_ event: Event<Element>, connectionID: UInt64) {
        let (observers, finished) = lock.withLock { state.on(event, connectionID: connectionID) }
        observers.forEachElement { deliver in deliver(event) }
        finished?.dispose()
    }

    fileprivate func unsubscribe(connectionID: UInt64, key: BagKey) {
        let upstream = lock.withLock { state.unsubscribe(connectionID: connectionID, key: key) }
        upstream?.dispose()
    }
}

/// Subscribed to the source for one connection; tags its events with the connection.
private final class ShareConnectionObserver<Element>: ObserverType, @unchecked Sendable {
    private let parent: ShareWhileConnected<Element>
    private let connectionID: UInt64

    init(parent: ShareWhileConnected<Element>, connectionID: UInt64) {
        self.parent = parent
        self.connectionID = connectionID
    }

    func on(_ event: Event<Element>) {
        parent.on(event, connectionID: connectionID)
    }
}

/// The disposable of one observer of a shared sequence; a value, so subscribing
/// allocates nothing for it.
private struct ShareSubscription<Element>: Disposable {
    let parent: ShareWhileConnected<Element>
    let connectionID: UInt64
    let key: BagKey

    func dispose() {
        parent.unsubscribe(connectionID: connectionID, key: key)
    }
}
