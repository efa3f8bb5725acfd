/// A subject that replays up to `bufferSize` recent elements (or all of them) to each
/// new observer, then passes every later event on.
///
/// The replay runs outside the subject's lock; events that arrive meanwhile are
/// delivered after it, in order (`ReplayGate`).
public final class ReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, LockedSubject, FanOutSubject, @unchecked Sendable {
    public typealias SubjectObserverType = ReplaySubject<Element>

    /// The value is the buffer: the latest elements, oldest first.
    let lockedState = LockedPair(SubjectState(), ElementRing<Element>()) { _, buffer in buffer.release() }
    /// The most elements kept; `Int.max` when unbounded.
    private let bufferSize: Int

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override package convenience init() { rxUnusedInitializer() }

    private init(bufferSize: Int) {
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
        ReplaySubject(bufferSize: Int.max)
    }

    /// Whether the subject has observers.
    public var hasObservers: Bool { hasObserversNow }

    public var isDisposed: Bool { isDisposedNow }

    public func on(_ event: Event<Element>) {
        route(event)
    }

    /// Buffers `element` and sends it to every observer (what `on(.next(element))`
    /// does, without building and switching on an `Event`).
    public func onNext(_ element: Element) {
        let bufferSize = self.bufferSize
        fanOut(keeping: { buffer in
            if bufferSize > 0 { buffer.append(bitCasting: element, keepingAtMost: bufferSize) }
        }) { $0.passNext(element) }
    }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        admit(
            // After a terminal event the buffer is replayed before it; after `dispose()`
            // the buffer is empty.
            backlog: { buffer in buffer.copiedElements() },
            refuse: { replayed, refusal in
                for element in replayed { observer.on(.next(element)) }
                observer.on(refusal)
            },
            join: { state, buffer -> (joined: (key: BagKey, released: [ObserverBase]), opening: (ReplayGate<Observer>, [Element])?) in
                if buffer.isEmpty { return (state.join(observer), nil) }
                let gate = ReplayGate(observer, replaying: true)
                return (state.observers.insert(gate), (gate, buffer.copiedElements()))
            },
            open: { opening in
                if let (gate, replayed) = opening { gate.open(after: replayed) }
            }
        )
    }

    /// The observer side of the subject.
    public func asObserver() -> ReplaySubject<Element> {
        self
    }

    public func dispose() {
        var dropped = disposeObservers { buffer in buffer.takeAll() }
        dropped.release()
    }
}
