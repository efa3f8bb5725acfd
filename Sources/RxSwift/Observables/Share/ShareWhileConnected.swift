/// `share(replay:scope: .whileConnected)` without a subject: the first observer
/// connects, the last one to leave (or a terminal event) disconnects and drops the
/// replay buffer, and the next observer connects anew.
///
/// The live connection (`ShareConnection`, the subscription to the source), its
/// observers and its replay buffer are one `LiveConnection`, changed under one lock
/// (`ShareState`). No observer, subscription or disposal runs under the lock; the
/// buffer is replayed to a new observer outside it, before any newer event
/// (`ReplayGate`).
///
/// `package` rather than internal: Swift 6.3 warns of an infinite recursion (a false
/// positive) for an internal class whose designated initializer calls `Observable`'s
/// `package init()`.
package final class ShareWhileConnected<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    /// How many recent elements a new observer receives.
    let replay: Int
    /// The live connection with its observers and buffer; taken for every element.
    let state = ShareState<Element>(LiveConnection(), ()) { live, _ in live.buffer.release() }

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override package convenience init() { rxUnusedInitializer() }

    init(source: Observable<Element>, replay: Int) {
        self.source = source
        self.replay = replay
        super.init()
    }

    override package func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        #if DEBUG
        let decided = decidedApart(at: SyncSite(#fileID, #line))
        #else
        let decided: Bool? = nil
        #endif
        let (connection, connects, joined) = state.withLock { live in
            let connects = decided ?? (live.connection == nil)
            if connects { live.connection = ShareConnection(parent: self) }
            return (live.connection.unsafelyUnwrapped, connects, live.join(observer))
        }
        withExtendedLifetime(joined.released) {}
        if let gate = joined.gate {
            state.afterUnlocking { gate.open(after: joined.replay) }
        }
        if connects {
            connection.upstream.setDisposable(source.subscribe(connection))
        }
        return ShareSubscription(connection: connection, key: joined.key)
    }

    #if DEBUG
    /// The concurrency mutant `split` at the connect decision (`Mutation`): whether to
    /// connect is decided under the lock, and the connection made under it again after
    /// a step, as RxSwift's issue 2718 did (two subscribers both connect). The state
    /// cannot be copied, so this one site splits by hand what a `LockedState` mutant
    /// splits by copying. `nil`, the decision made with the connection, without the mutant.
    private func decidedApart(at site: SyncSite) -> Bool? {
        guard Mutation.applies(.split, at: site) else { return nil }
        let connects = state.withLock { live in live.connection == nil }
        Interleaving.atomicStep("a mutant's connect decision, between its check and its connection", at: site)
        return connects
    }
    #endif
}

/// What a `ShareWhileConnected` has while connected: the connection, its observers and
/// the replay buffer. It changes as one under the lock, so an observer always joins a
/// live connection (or starts one): it can never be left on a connection that ended
/// while it subscribed.
///
/// The observers are a `FanOut`, so an element goes from the source to every observer
/// with no `Event` built and no generic metadata looked up; the buffer is an
/// `ElementRing`, raw storage sized by `MemoryLayout<Element>`, for the same reason.
struct LiveConnection<Element>: ~Copyable {
    /// The live connection, if any. An older connection finds it is not this one, and
    /// knows it has ended.
    var connection: ShareConnection<Element>?
    var observers = FanOut()
    /// The latest `replay` elements of the live connection; empty when none is live.
    var buffer = ElementRing<Element>()
    /// Observers that earlier deliveries kept alive and that a delivery started since
    /// no longer needs, for that delivery to take and release after its walk.
    private var releasable: [ObserverBase] = []

    /// Adds `observer`. When elements are buffered, the observer is added behind a
    /// closed gate and the caller replays `replay` through it after unlocking.
    /// `released`: observers kept for earlier deliveries, for the caller to release
    /// after unlocking.
    mutating func join<Observer: ObserverType>(_ observer: Observer) -> (key: BagKey, gate: ReplayGate<Observer>?, replay: [Element], released: [ObserverBase]) where Observer.Element == Element {
        if !buffer.isEmpty {
            let gate = ReplayGate(observer, replaying: true)
            let (key, released) = observers.insert(gate)
            return (key, gate, buffer.copiedElements(), released)
        }
        let (key, released) = observers.insert(directPath(of: observer) ?? ReplayGate(observer, replaying: false))
        return (key, nil, [], released)
    }

    /// When `connection` is the live one: buffers `element` (of type `Element`) when
    /// `replay` is more than 0 and starts its delivery. `releases`: observers that
    /// earlier deliveries kept wait in `releasable`, for the caller to take with
    /// `takeReleasable()` after its walk (as a `FanOutDelivery` would release them).
    /// A plain result, with nothing to release on the common path, because the
    /// per-element path of the Driver row paid for an optional `FanOutDelivery`.
    @inline(__always)
    mutating func beginDelivery<T>(
        of element: T, from connection: ShareConnection<Element>, keeping replay: Int
    ) -> (walk: DeliveryWalk, releases: Bool)? {
        guard self.connection === connection else { return nil }
        if replay > 0 { buffer.append(bitCasting: element, keepingAtMost: replay) }
        let delivery = observers.beginDelivery()
        guard let released = delivery.released else { return (delivery.walk, false) }
        keepReleasable(released)
        return (delivery.walk, true)
    }

    @inline(never)
    private mutating func keepReleasable(_ released: [ObserverBase]) {
        releasable.append(contentsOf: released)
    }

    /// The observers `beginDelivery` set aside, to release after unlocking.
    mutating func takeReleasable() -> [ObserverBase] {
        defer { releasable = [] }
        return releasable
    }

    /// Ends the live connection: the buffer is handed to the caller to release after
    /// unlocking.
    mutating func end() -> ElementRing<Element> {
        connection = nil
        return buffer.takeAll()
    }
}

/// A share's `LiveConnection`, behind the lock taken for every element.
typealias ShareState<Element> = LockedPair<LiveConnection<Element>, Void>

/// One connection of a `ShareWhileConnected`: subscribed to the source, it passes each
/// event to the observers of the live connection and keeps the replay buffer, while it
/// is the live one.
final class ShareConnection<Element>: ObserverBase, ObserverType, @unchecked Sendable {
    private let state: ShareState<Element>
    private let replay: Int
    /// The subscription to the source, assigned once connected.
    let upstream = SingleAssignmentDisposable()

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override package convenience init() { rxUnusedInitializer() }

    init(parent: ShareWhileConnected<Element>) {
        self.state = parent.state
        self.replay = parent.replay
        super.init()
    }

    /// Removes an observer; the last one to leave ends the connection.
    func leave(_ key: BagKey) {
        let (removed, dropped) = state.withLock { live -> ((ObserverBase, [ObserverBase])?, ElementRing<Element>?) in
            guard live.connection === self, let removed = live.observers.remove(key) else { return (nil, nil) }
            return (removed, live.observers.isEmpty ? live.end() : nil)
        }
        // The observer and those kept for earlier deliveries are released here, unlocked.
        withExtendedLifetime(removed) {}
        guard var dropped else { return }
        dropped.release()
        upstream.dispose()
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        isSameType(T.self, Element.self)
    }

    override func receiveNext<T>(_ element: T) {
        // A local function, so that it can be inlined here: as a closure, the locked
        // step was called out of line (callgrind, the Driver row).
        @inline(__always)
        func begin(_ live: inout LiveConnection<Element>) -> (walk: DeliveryWalk, releases: Bool)? {
            live.beginDelivery(of: element, from: self, keeping: replay)
        }
        guard let (walk, releases) = state.withLock(begin) else { return }
        state.afterUnlocking { walk.passNext(element) }
        walk.end()
        if releases {
            let released = state.withLock { $0.takeReleasable() }
            withExtendedLifetime(released) {}
        }
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
        let ended = state.withLock { live -> (observers: ContiguousArray<ObserverBase>, buffer: ElementRing<Element>)? in
            guard live.connection === self else { return nil }
            return (live.observers.removeAll(), live.end())
        }
        guard var ended else { return }
        ended.buffer.release()
        state.afterUnlocking { ended.observers.passTerminal(error) }
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
