/// An observable sequence that shares one subscription to its source among all its
/// observers, once `connect()` establishes that subscription.
public protocol ConnectableObservableType: ObservableType {
    /// Subscribes to the source; observers receive its events while the connection lasts.
    ///
    /// - returns: The connection: disposing it unsubscribes from the source.
    func connect() -> Disposable
}

/// An observable sequence that can be connected to and disconnected from its source
/// (see `publish()`, `replay(_:)`, `multicast(_:)`).
public class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType, @unchecked Sendable {
    override init() {
        super.init()
    }

    /// Subscribes to the source; observers receive its events while the connection lasts.
    ///
    /// - returns: The connection: disposing it unsubscribes from the source.
    public func connect() -> Disposable {
        rxAbstractMethod()
    }

    /// The implementation of `refCount()` for this connectable.
    func makeRefCount() -> Observable<Element> {
        SourcesProducer(RefCount(source: self))
    }
}

/// The state of a multicast connectable: its subject, its connection, and the observers
/// counted by its `refCount()`.
///
/// A connection that ends (disposed, the source terminated, or its last refCount
/// observer gone) drops the subject and starts a new generation in the same transition,
/// so a refCount observer is always counted in the generation of the subject it
/// subscribed to. Transitions run under the adapter's lock and call nothing.
///
/// A connection ends before its subject passes the terminal event on (so observers that
/// react to it find a fresh subject), and a connectable over one fixed subject installs
/// that same subject again for the next generation. A refCount observer that subscribes
/// to it in between is still reached by the terminal event, so it must not connect: the
/// state remembers the subject a terminal event went into and never connects a refCount
/// observer of it. (In RxSwift such an observer is counted with the others, as its
/// refCount forgets them only when one of them receives the terminal event.)
struct MulticastState<Pair, Connection: AnyObject> {
    enum Phase {
        /// No connection; observers may already have subscribed to the subject.
        case idle(Pair?)
        /// Connected: the connection feeds the subject.
        case connected(Pair, Connection)
    }

    private(set) var phase: Phase = .idle(nil)
    /// Bumped whenever the subject is dropped.
    private(set) var generation: UInt64 = 0
    /// The refCount observers counted in this generation.
    private(set) var refCount = 0
    /// The connection the refCount observers hold, disposed when the last one leaves.
    private(set) var refCountConnection: Connection?
    /// The subject a connection passed (or is passing) a terminal event into, while it
    /// may still be installed: it is kept until a different subject is installed.
    private(set) var terminatedSubject: AnyObject?
    /// The identity of a pair's subject; `nil` when it has none (not a class).
    private let subjectIdentity: (Pair) -> AnyObject?

    /// - parameter subjectIdentity: The identity of a pair's subject, by which the
    ///   state recognises a subject that terminated when it is installed again.
    init(subjectIdentity: @escaping (Pair) -> AnyObject? = { _ in nil }) {
        self.subjectIdentity = subjectIdentity
    }

    /// The current subject and generation, or `nil` when a subject must be made.
    var subject: (pair: Pair, generation: UInt64)? {
        switch phase {
        case .idle(let pair?): return (pair, generation)
        case .idle(.none): return nil
        case .connected(let pair, _): return (pair, generation)
        }
    }

    /// Stores a freshly made subject unless there is one already.
    mutating func install(_ pair: Pair) {
        if case .idle(.none) = phase {
            phase = .idle(pair)
            if let terminated = terminatedSubject, subjectIdentity(pair) !== terminated {
                terminatedSubject = nil
            }
        }
    }

    /// Whether `pair`'s subject is one a terminal event went into.
    private func hasTerminated(_ pair: Pair) -> Bool {
        guard let terminated = terminatedSubject else { return false }
        return subjectIdentity(pair) === terminated
    }

    /// The current connection, or a new one made with `make` (the caller subscribes it
    /// to the source); `nil` when a subject must be made first.
    mutating func connect(_ make: (Pair) -> Connection) -> (connection: Connection, isNew: Bool)? {
        switch phase {
        case .connected(_, let connection):
            return (connection, false)
        case .idle(let pair?):
            let connection = make(pair)
            phase = .connected(pair, connection)
            return (connection, true)
        case .idle(.none):
            return nil
        }
    }

    /// `connection` ended: when it is the current one, the subject is dropped and the
    /// refCount observers of this generation no longer count. `byTerminalEvent`: the
    /// connection is about to pass a terminal event into its subject.
    mutating func connectionEnded(_ connection: Connection, byTerminalEvent: Bool = false) {
        guard case .connected(let pair, let current) = phase, current === connection else { return }
        if byTerminalEvent {
            terminatedSubject = subjectIdentity(pair)
        }
        dropSubject()
    }

    /// Counts a refCount observer before it subscribes, so the subject it subscribes to
    /// cannot be disconnected meanwhile; `nil` when a subject must be made first.
    mutating func reserve() -> (pair: Pair, generation: UInt64)? {
        guard let current = subject else { return nil }
        refCount += 1
        return current
    }

    /// What a refCount observer does once subscribed.
    enum Confirmation {
        case none
        /// Subscribe this new connection to the source.
        case connect(Connection)
        /// The last observer ended during its subscription: dispose the connection.
        case disconnect(Connection)
    }

    /// A refCount observer of `generation` subscribed; `ended` when it already received
    /// a terminal event (its subject had terminated).
    mutating func confirm(generation: UInt64, ended: Bool, make: (Pair) -> Connection) -> Confirmation {
        guard generation == self.generation else { return .none }
        if ended {
            return release(generation: generation).map(Confirmation.disconnect) ?? .none
        }
        if refCountConnection != nil { return .none }
        switch phase {
        case .connected(_, let connection):
            refCountConnection = connection
            return .none
        case .idle(let pair?):
            // The terminal event reaches this observer (if it has not already): a new
            // connection would only subscribe the source again for nobody.
            if hasTerminated(pair) { return .none }
            let connection = make(pair)
            phase = .connected(pair, connection)
            refCountConnection = connection
            return .connect(connection)
        case .idle(.none):
            rxFatalError("A multicast connectable lost its subject while a refCount observer held it; its state is corrupt.")
        }
    }

    /// A refCount observer of `generation` left; returns the connection to dispose when
    /// it was the last one (its subject is dropped at once).
    mutating func release(generation: UInt64) -> Connection? {
        guard generation == self.generation else { return nil }
        guard refCount > 0 else {
            rxFatalError("refCount counted more unsubscriptions than subscriptions; its state is corrupt.")
        }
        refCount -= 1
        guard refCount == 0, let connection = refCountConnection else { return nil }
        if case .connected(_, let current) = phase, current === connection {
            dropSubject()
        } else {
            refCountConnection = nil
        }
        return connection
    }

    private mutating func dropSubject() {
        phase = .idle(nil)
        generation &+= 1
        refCount = 0
        refCountConnection = nil
    }
}

/// The connectable observable behind `multicast`, `publish` and `replay`: observers
/// subscribe to the current subject; `connect()` subscribes the subject to the source.
///
/// A connection that ends (disposed, or its source terminated) drops the subject, so the
/// next subscriber or connection gets a fresh one from `makeSubject` (with
/// `multicast(_ subject:)` that is the same subject again).
///
/// Nothing is called under the lock: the subject is made, subscribed to, the source
/// subscribed to and a connection's subscription disposed after unlocking.
final class ConnectableObservableAdapter<Subject: SubjectType>: ConnectableObservable<Subject.Element>, ObserverCounting, @unchecked Sendable {
    typealias Connection = MulticastConnection<Subject>

    /// A subject with its observer side, obtained once when the subject is made.
    struct SubjectPair {
        let subject: Subject
        let observer: Subject.Observer

        /// The subject as an object, `nil` when `Subject` is not a class.
        var identity: AnyObject? {
            Subject.self is AnyClass ? subject as AnyObject : nil
        }
    }

    private let source: Observable<Subject.Observer.Element>
    private let makeSubject: () -> Subject
    private let state = LockedState(MulticastState<SubjectPair, Connection>(subjectIdentity: { $0.identity }))

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(source: Observable<Subject.Observer.Element>, makeSubject: @escaping () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
        super.init()
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Subject.Element {
        while true {
            if let current = state.withLock({ $0.subject }) {
                return current.pair.subject.subscribe(observer)
            }
            install(makePair())
        }
    }

    override func connect() -> Disposable {
        while true {
            let made = state.withLock { $0.connect(newConnection) }
            guard let made else {
                install(makePair())
                continue
            }
            if made.isNew {
                made.connection.run(source)
            }
            return made.connection
        }
    }

    override func makeRefCount() -> Observable<Subject.Element> {
        MulticastRefCount(parent: self)
    }

    private func newConnection(_ pair: SubjectPair) -> Connection {
        Connection(parent: self, subjectObserver: pair.observer)
    }

    private func makePair() -> SubjectPair {
        let subject = makeSubject()
        return SubjectPair(subject: subject, observer: subject.asObserver())
    }

    /// Stores a freshly made subject unless another thread stored one meanwhile.
    private func install(_ pair: SubjectPair) {
        state.withLock { $0.install(pair) }
    }

    /// Called by a connection as it ends; `byTerminalEvent`: the source terminated.
    /// Forgets `connection`, then runs `disposal` (the connection's subscription to the
    /// source) after unlocking.
    func connectionEnded(_ connection: Connection, byTerminalEvent: Bool, then disposal: () -> Void) {
        state.withLock { $0.connectionEnded(connection, byTerminalEvent: byTerminalEvent) }
        state.afterUnlocking(disposal)
    }

    // MARK: refCount

    /// Counts a refCount observer and returns the subject it subscribes to.
    fileprivate func reserve() -> (pair: SubjectPair, generation: UInt64) {
        while true {
            if let reserved = state.withLock({ $0.reserve() }) {
                return reserved
            }
            install(makePair())
        }
    }

    /// A refCount observer subscribed: connects when it is the first.
    fileprivate func confirm(generation: UInt64, ended: Bool) {
        switch state.withLock({ $0.confirm(generation: generation, ended: ended, make: newConnection) }) {
        case .none:
            break
        case .connect(let connection):
            connection.run(source)
        case .disconnect(let connection):
            connection.dispose()
        }
    }

    /// A refCount observer left: disconnects when it was the last.
    func release(generation: UInt64) {
        state.withLock { $0.release(generation: generation) }?.dispose()
    }
}

/// One connection of a connectable observable: the observer subscribed to the source,
/// forwarding into the subject; disposing it (or the source terminating) ends it.
final class MulticastConnection<Subject: SubjectType>: EventObserver<Subject.Observer.Element>, Cancelable, @unchecked Sendable {
    private let subjectObserver: Subject.Observer
    private let subscription = SingleAssignmentDisposable()
    private let disposed = AtomicFlag()
    // Read and cleared only by the thread that wins `disposed`.
    private var parent: ConnectableObservableAdapter<Subject>?

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(parent: ConnectableObservableAdapter<Subject>, subjectObserver: Subject.Observer) {
        self.parent = parent
        self.subjectObserver = subjectObserver
    }

    deinit {
        Interleaving.forget(self)
    }

    func run(_ source: Observable<Element>) {
        subscription.setDisposable(source.subscribe(self))
    }

    var isDisposed: Bool {
        disposed.isSet()
    }

    override func on(_ event: Event<Element>) {
        if disposed.isSet() { return }
        // A terminal event ends the connection first, so that observers reacting to it
        // (resubscribing, connecting again) find a fresh subject and no connection.
        if event.isStopEvent { end(byTerminalEvent: true) }
        subjectObserver.on(event)
    }

    func dispose() {
        end(byTerminalEvent: false)
    }

    private func end(byTerminalEvent: Bool) {
        if disposed.testAndSet() { return }
        Interleaving.access(self, at: SyncSite(#fileID, #line))
        let parent = self.parent
        self.parent = nil
        guard let parent else { return subscription.dispose() }
        parent.connectionEnded(self, byTerminalEvent: byTerminalEvent) { subscription.dispose() }
    }
}

/// `refCount()` of a multicast connectable, counted in the connectable's own state: an
/// observer is counted before it subscribes to the subject, and a connection that ends
/// forgets the observers of its generation in the same transition that drops the subject.
final class MulticastRefCount<Subject: SubjectType>: Producer<Subject.Element>, @unchecked Sendable {
    private let parent: ConnectableObservableAdapter<Subject>

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(parent: ConnectableObservableAdapter<Subject>) {
        self.parent = parent
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Subject.Element {
        let sink = PassThroughSink(observer: observer)
        let (pair, generation) = parent.reserve()
        let subscription = pair.subject.subscribe(sink)
        // A subject that had already terminated ended the sink while subscribing: it
        // is uncounted at once and does not connect.
        let ended = sink.isDisposed
        parent.confirm(generation: generation, ended: ended)
        if ended {
            subscription.dispose()
        } else {
            sink.setUpstream(CountedSubscription(counter: parent, generation: generation, subscription: subscription))
        }
        return sink
    }
}
