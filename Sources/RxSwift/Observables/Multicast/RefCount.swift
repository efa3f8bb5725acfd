extension ConnectableObservableType {
    /// An observable that connects to this connectable sequence when its first observer
    /// subscribes and disconnects when its last observer unsubscribes; a terminal event
    /// ends the connection, and the next observer connects again.
    ///
    /// ```
    /// source:    ---1---2---3---4---|
    /// observer1:   ^--1---2-!
    /// observer2:        ^-2---3---4---|
    /// ```
    public func refCount() -> Observable<Element> {
        if let connectable = self as? ConnectableObservable<Element> {
            return connectable.makeRefCount()
        }
        return SourcesProducer(RefCount(source: self))
    }
}

/// The state of `refCount()` over a connectable Rivulet did not make (Rivulet's own
/// count their refCount observers in their own state, see `MulticastState`): how many
/// observers are counted, which generation they belong to (a terminal event starts a
/// new one), and the connection.
///
/// As in RxSwift, an observer is counted after it subscribed to the connectable, and a
/// terminal event that reaches any counted observer ends the generation: with a
/// connectable that replaces its subject per connection, an observer racing with the
/// end of a connection can be counted against the wrong one, and an observer counted
/// after the terminal event reached another but before it reached itself connects
/// again (RxSwift does the same).
///
/// `connect()` runs outside the lock: the subscriber that takes the count from 0 to 1
/// becomes the connector and stays responsible until the connection is stored or
/// disposed; everyone else only records what must happen when it finishes.
struct RefCountState {
    enum Connection {
        /// Not connected.
        case idle
        /// A connector is inside `connect()`. `disconnectWhenDone`: the count dropped to
        /// 0 meanwhile. `stale`: a terminal event ended that connection meanwhile.
        case connecting(disconnectWhenDone: Bool, stale: Bool)
        /// Connected; the disposable ends the connection.
        case connected(Disposable)
    }

    /// What the connector does with the connection `connect()` returned.
    enum ConnectOutcome {
        /// Keep it.
        case keep
        /// Dispose it; nobody needs it.
        case dispose(Disposable)
        /// Dispose it (it is stale) and connect again for the observers counted since.
        case disposeAndReconnect(Disposable)
    }

    private(set) var count = 0
    private(set) var generation: UInt64 = 0
    private(set) var connection: Connection = .idle

    /// Counts one observer; returns its generation and whether it must connect.
    mutating func register() -> (generation: UInt64, mustConnect: Bool) {
        count += 1
        switch connection {
        case .idle:
            connection = .connecting(disconnectWhenDone: false, stale: false)
            return (generation, true)
        case .connecting(_, let stale):
            connection = .connecting(disconnectWhenDone: false, stale: stale)
            return (generation, false)
        case .connected:
            return (generation, false)
        }
    }

    /// The connector's `connect()` returned `disposable`.
    mutating func connectFinished(_ disposable: Disposable) -> ConnectOutcome {
        guard case .connecting(let disconnectWhenDone, let stale) = connection else {
            rxFatalError("refCount finished connecting while not connecting; its state is corrupt.")
        }
        if stale {
            if count > 0 {
                connection = .connecting(disconnectWhenDone: false, stale: false)
                return .disposeAndReconnect(disposable)
            }
            connection = .idle
            return .dispose(disposable)
        }
        if disconnectWhenDone {
            connection = .idle
            return .dispose(disposable)
        }
        connection = .connected(disposable)
        return .keep
    }

    /// An observer of `generation` unsubscribed; returns the connection to dispose
    /// when it was the last one.
    mutating func unregister(generation: UInt64) -> Disposable? {
        guard generation == self.generation else { return nil }
        guard count > 0 else {
            rxFatalError("refCount counted more unsubscriptions than subscriptions; its state is corrupt.")
        }
        count -= 1
        guard count == 0 else { return nil }
        switch connection {
        case .idle:
            return nil
        case .connecting(_, let stale):
            connection = .connecting(disconnectWhenDone: true, stale: stale)
            return nil
        case .connected(let disposable):
            connection = .idle
            return disposable
        }
    }

    /// An observer of `generation` received a terminal event: the connection is over,
    /// every counted observer is forgotten and a new generation starts. Returns the
    /// connection to dispose.
    mutating func terminate(generation: UInt64) -> Disposable? {
        guard generation == self.generation else { return nil }
        count = 0
        self.generation &+= 1
        switch connection {
        case .idle:
            return nil
        case .connecting:
            connection = .connecting(disconnectWhenDone: false, stale: true)
            return nil
        case .connected(let disposable):
            connection = .idle
            return disposable
        }
    }
}

/// `refCount()`'s connectable, with the count of its observers that every subscription
/// shares.
struct RefCount<Source: ConnectableObservableType>: SourcesOperator {
    typealias Element = Source.Element

    let counter: RefCountCounter<Source>

    init(source: Source) {
        counter = RefCountCounter(source: source)
    }

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        counter.subscribe(RefCountSink(self, observer: observer))
    }
}

/// The connectable of a `refCount()` and the count of its observers (`RefCountState`),
/// under one lock.
final class RefCountCounter<Source: ConnectableObservableType>: ObserverCounting, @unchecked Sendable {
    private let source: Source
    private let state = LockedState(RefCountState())

    init(source: Source) {
        self.source = source
    }

    /// Subscribes `sink` to the connectable, counts it, and connects when it is the
    /// first; returns the sink.
    func subscribe<Observer>(_ sink: RefCountSink<Source, Observer>) -> Disposable {
        let subscription = source.subscribe(sink)
        // A sink that a terminal event reached before it was counted (its subject had
        // terminated, or terminated since) is not counted and does not connect. This is
        // decided under the lock the terminal event took, so a terminal event delivered
        // on another thread is either seen here or ends the generation the sink joined;
        // RxSwift checks it under its refCount lock too.
        let registration = state.withLock { state -> (generation: UInt64, mustConnect: Bool)? in
            sink.withTicket(holding: &state) { ticket, state in
                if ticket.endedUncounted { return nil }
                let registration = state.register()
                ticket.generation = registration.generation
                return registration
            }
        }
        guard let registration else {
            subscription.dispose()
            return sink
        }
        if registration.mustConnect {
            connect()
        }
        sink.setUpstream(CountedSubscription(counter: self, generation: registration.generation, subscription: subscription))
        return sink
    }

    /// Runs `connect()` outside the lock until the connection is kept or given up.
    private func connect() {
        while true {
            let connection = source.connect()
            let outcome = state.withLock { $0.connectFinished(connection) }
            switch outcome {
            case .keep:
                return
            case .dispose(let unneeded):
                unneeded.dispose()
                return
            case .disposeAndReconnect(let stale):
                stale.dispose()
            }
        }
    }

    /// An observer left: disconnects when it was the last of its connection.
    func release(generation: UInt64) {
        let connection = state.withLock { $0.unregister(generation: generation) }
        connection?.dispose()
    }

    fileprivate func terminate<Observer>(_ sink: RefCountSink<Source, Observer>) {
        let connection = state.withLock { state -> Disposable? in
            sink.withTicket(holding: &state) { ticket, state in
                guard let generation = ticket.generation else {
                    ticket.endedUncounted = true
                    return nil
                }
                return state.terminate(generation: generation)
            }
        }
        connection?.dispose()
    }
}

final class RefCountSink<Source: ConnectableObservableType, Observer: ObserverType>: PlainSink<RefCount<Source>, Observer>, ObserverType, @unchecked Sendable
where Source.Element == Observer.Element {
    /// How the sink stands with the counter: counted in a generation, or ended before
    /// it was counted.
    struct Ticket {
        /// The generation the sink was counted in; `nil` until counted.
        var generation: UInt64?
        /// Whether a terminal event reached the sink before it was counted.
        var endedUncounted = false
    }

    /// Reached only through `withTicket(holding:_:)`.
    private var ticket = Ticket()

    /// Runs `body` on the sink's ticket and the counter's state, which it takes from
    /// the caller: the state is reachable only inside the counter's `withLock`, so
    /// every change of the ticket is made under the counter's lock.
    fileprivate func withTicket<Result>(holding state: inout RefCountState, _ body: (inout Ticket, inout RefCountState) -> Result) -> Result {
        body(&ticket, &state)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardEvent(event)
        case .error, .completed:
            // The connection ends before observers react, so one that resubscribes
            // from its handler connects anew.
            parameters.counter.terminate(self)
            forwardEvent(event)
        }
    }
}

/// What counts the observers of a shared connection, each under the generation of the
/// connection it joined: `refCount()`, and `multicast`'s connectable observable.
protocol ObserverCounting: AnyObject {
    /// An observer of `generation` left: disconnects when it was the last.
    func release(generation: UInt64)
}

/// The disposable of one counted observer: unsubscribes, then uncounts.
struct CountedSubscription<Counter: ObserverCounting>: Disposable {
    let counter: Counter
    let generation: UInt64
    let subscription: Disposable

    func dispose() {
        subscription.dispose()
        counter.release(generation: generation)
    }
}
