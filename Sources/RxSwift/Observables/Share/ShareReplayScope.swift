/// How long the subject behind `share(replay:scope:)` lives.
public enum SubjectLifetimeScope: Sendable {
    /// Each connection to the source has its own subject (the default).
    ///
    /// When the number of observers drops to 0, or the source terminates, the
    /// connection and its replay buffer are dropped; the next observer subscribes to the
    /// source again. `retry` and `concat` after `share` work as expected.
    /// Equivalent to `source.multicast(makeSubject: { ... }).refCount()`.
    case whileConnected

    /// One subject serves every connection.
    ///
    /// After the number of observers drops to 0 the subject and its buffer remain: a
    /// later observer receives stale replayed elements. After the source terminates,
    /// every later observer receives the replay and the terminal event, and the source
    /// is never subscribed to again.
    /// Equivalent to `source.multicast(subject).refCount()`.
    case forever
}

extension ObservableType {
    /// Shares one subscription to the source among all observers, and replays up to
    /// `replay` recent elements to each new observer.
    ///
    /// ```
    /// source:    --1--2--3--4--|
    /// share(replay: 1)
    /// observer1: ^-1--2--3--4--|
    /// observer2:        ^2-3--4--|   (subscribed after 2: receives 2 at once)
    /// ```
    ///
    /// The source is subscribed to when the first observer subscribes and unsubscribed
    /// from when the last one leaves (or the source terminates).
    ///
    /// - parameter replay: The most elements replayed to a new observer.
    /// - parameter scope: Whether the replay buffer outlives a connection
    ///   (`SubjectLifetimeScope`).
    /// - returns: The shared sequence.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        precondition(replay >= 0, "Rivulet: share(replay:scope:) needs a replay count of 0 or more, got \(replay).")
        switch scope {
        case .forever:
            if replay == 0 {
                return multicast(PublishSubject<Element>()).refCount()
            }
            return multicast(ReplaySubject<Element>.create(bufferSize: replay)).refCount()
        case .whileConnected:
            // RxSwift takes this path for replay 0 and 1 and multicast(makeSubject:)
            // with refCount() for more; the events are the same, and one state for the
            // observers, the connection and the buffer leaves no window in which an
            // observer can subscribe to a connection that is ending.
            return ShareWhileConnected(source: asObservable(), replay: replay)
        }
    }
}
