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
}

/// The connectable observable behind `multicast`, `publish` and `replay`: observers
/// subscribe to the current subject; `connect()` subscribes the subject to the source.
///
/// A connection that ends (disposed, or its source terminated) drops the subject, so the
/// next subscriber or connection gets a fresh one from `makeSubject` (with
/// `multicast(_ subject:)` that is the same subject again).
///
/// Nothing is called under the lock: the subject is made, subscribed to, the source
/// subscribed to and the connection's subscription disposed after unlocking.
final class ConnectableObservableAdapter<Subject: SubjectType>: ConnectableObservable<Subject.Element>, @unchecked Sendable {
    typealias Connection = MulticastConnection<Subject>

    /// A subject with its observer side, obtained once when the subject is made.
    struct SubjectPair {
        let subject: Subject
        let observer: Subject.Observer
    }

    /// The adapter's whole state: every connection has a subject; without a connection
    /// there may be a subject that observers already subscribed to.
    enum State {
        case idle(SubjectPair?)
        case connected(SubjectPair, Connection)
    }

    private let source: Observable<Subject.Observer.Element>
    private let makeSubject: () -> Subject
    private let lock = Lock.make()
    private var state: State = .idle(nil)

    init(source: Observable<Subject.Observer.Element>, makeSubject: @escaping () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
        super.init()
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Subject.Element {
        currentSubject().subject.subscribe(observer)
    }

    override func connect() -> Disposable {
        while true {
            lock.lock()
            switch state {
            case .connected(_, let connection):
                lock.unlock()
                return connection
            case .idle(let pair?):
                let connection = Connection(parent: self, subjectObserver: pair.observer)
                state = .connected(pair, connection)
                lock.unlock()
                connection.run(source)
                return connection
            case .idle(.none):
                lock.unlock()
                install(makePair())
            }
        }
    }

    /// The subject observers subscribe to now, made on first use.
    private func currentSubject() -> SubjectPair {
        while true {
            let existing = lock.withLock { () -> SubjectPair? in
                switch state {
                case .idle(let pair): return pair
                case .connected(let pair, _): return pair
                }
            }
            if let existing { return existing }
            install(makePair())
        }
    }

    private func makePair() -> SubjectPair {
        let subject = makeSubject()
        return SubjectPair(subject: subject, observer: subject.asObserver())
    }

    /// Stores a freshly made subject unless another thread stored one meanwhile.
    private func install(_ pair: SubjectPair) {
        lock.withLock {
            if case .idle(.none) = state {
                state = .idle(pair)
            }
        }
    }

    /// Called by a connection as it ends: when it is the current one, the adapter
    /// forgets it and its subject.
    func connectionEnded(_ connection: Connection) {
        lock.withLock {
            if case .connected(_, let current) = state, current === connection {
                state = .idle(nil)
            }
        }
    }
}

/// One connection of a connectable observable: the observer subscribed to the source,
/// forwarding into the subject; disposing it (or the source terminating) ends it.
final class MulticastConnection<Subject: SubjectType>: ObserverType, Cancelable, @unchecked Sendable {
    typealias Element = Subject.Observer.Element

    private let subjectObserver: Subject.Observer
    private let subscription = SingleAssignmentDisposable()
    private let disposed = AtomicFlag()
    // Read and cleared only by the thread that wins `disposed`.
    private var parent: ConnectableObservableAdapter<Subject>?

    init(parent: ConnectableObservableAdapter<Subject>, subjectObserver: Subject.Observer) {
        self.parent = parent
        self.subjectObserver = subjectObserver
    }

    func run(_ source: Observable<Element>) {
        subscription.setDisposable(source.subscribe(self))
    }

    var isDisposed: Bool {
        disposed.isSet
    }

    func on(_ event: Event<Element>) {
        if disposed.isSet { return }
        // A terminal event ends the connection first, so that observers reacting to it
        // (resubscribing, connecting again) find a fresh subject and no connection.
        if event.isStopEvent { dispose() }
        subjectObserver.on(event)
    }

    func dispose() {
        if disposed.testAndSet() { return }
        let parent = self.parent
        self.parent = nil
        parent?.connectionEnded(self)
        subscription.dispose()
    }
}
