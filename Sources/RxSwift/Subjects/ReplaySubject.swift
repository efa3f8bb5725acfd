/// A subject that replays up to `bufferSize` recent elements (or all of them) to each
/// new observer, then passes every later event on.
///
/// The replay runs outside the subject's lock; events that arrive meanwhile are
/// delivered after it, in order.
public final class ReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, SubjectObserverRemoving, @unchecked Sendable {
    public typealias SubjectObserverType = ReplaySubject<Element>

    private let lock = Lock.make()
    private let bufferSize: Int?
    private var buffer = Queue<Element>()
    private var observers = Bag<ReplayingObserver<Element>>(vacancy: ReplayingObserver { _ in })
    private var stoppedEvent: Event<Element>?
    private var disposed = false

    private init(bufferSize: Int?) {
        self.bufferSize = bufferSize
        super.init()
    }

    /// A subject that replays the last `bufferSize` elements.
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        precondition(bufferSize >= 0, "Rivulet: ReplaySubject.create(bufferSize:) needs a size of 0 or more, got \(bufferSize).")
        return ReplaySubject(bufferSize: bufferSize)
    }

    /// A subject that replays every element.
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: nil)
    }

    /// Whether the subject has observers.
    public var hasObservers: Bool {
        lock.withLock { !observers.isEmpty }
    }

    public var isDisposed: Bool {
        lock.withLock { disposed }
    }

    public func on(_ event: Event<Element>) {
        lock.lock()
        if disposed || stoppedEvent != nil {
            lock.unlock()
            return
        }
        switch event {
        case .next(let value):
            if let bufferSize {
                if bufferSize > 0 {
                    buffer.enqueue(value)
                    while buffer.count > bufferSize { _ = buffer.dequeue() }
                }
            } else {
                buffer.enqueue(value)
            }
        case .error, .completed:
            stoppedEvent = event
        }
        let snapshot = observers.elements
        if event.isStopEvent { observers.removeAll() }
        lock.unlock()
        snapshot.forEachElement { observer in observer.on(event) }
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.lock()
        if disposed {
            lock.unlock()
            observer.on(.error(RxError.disposed(object: self)))
            return Disposables.create()
        }
        var replayed = buffer.elements.map { Event<Element>.next($0) }
        if let stoppedEvent {
            lock.unlock()
            replayed.append(stoppedEvent)
            for event in replayed { observer.on(event) }
            return Disposables.create()
        }
        let entry = ReplayingObserver(observer.on)
        let key = observers.insert(entry)
        lock.unlock()
        entry.replay(replayed)
        return SubjectSubscription(owner: self, key: key)
    }

    func removeObserver(_ key: BagKey) {
        let removed = lock.withLock { observers.remove(key) }
        _ = removed
    }

    /// The observer side of the subject.
    public func asObserver() -> ReplaySubject<Element> {
        self
    }

    public func dispose() {
        let dropped = lock.withLock { () -> (Bag<ReplayingObserver<Element>>, Queue<Element>) in
            disposed = true
            defer {
                observers.removeAll()
                buffer.removeAll()
                stoppedEvent = nil
            }
            return (observers, buffer)
        }
        _ = dropped
    }
}
