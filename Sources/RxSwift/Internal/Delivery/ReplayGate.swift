// The gate's states. File-level constants: a static member of the generic class would
// need its metadata looked up at every use.
/// Newer events wait in `pending` while the replay runs.
private let gateReplaying = 0
/// The replay is over: events go straight through.
private let gateOpen = 1
/// A terminal event went through (or waits): later events are dropped.
private let gateStopped = 2

/// One observer of a `FanOut` (a subject's or a `share` connection's), as the source
/// stores it: an `ObserverBase`, so the source's observer list is an array of one
/// concrete class and its per-event code looks up no generic metadata. A source wraps
/// an observer in one when it replays to it (`BehaviorSubject`, `ReplaySubject` and
/// `share(replay:)` with elements buffered: made closed, `replaying: true`), or, open
/// from the start, when the observer has no direct path of its own (`AnyObserver`).
///
/// While the source replays to the observer outside its lock, newer events wait in
/// the gate, so the observer sees every event in order and no observer code runs
/// under the source's lock; once the replay is over, an event costs one atomic load
/// on top of the observer's own direct path.
final class ReplayGate<Observer: ObserverType>: ObserverBase, @unchecked Sendable {
    typealias Element = Observer.Element

    private let observer: Observer
    /// The observer's direct path, if it has one: `observer` itself, which `observer`
    /// keeps alive, so it is not retained again for each event.
    private let direct: Unmanaged<ObserverBase>?
    private let state: InlineAtomicInt
    /// Events that arrived during the replay.
    private let pending = LockedState<[Event<Element>]>([])

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    /// A gate for `observer`; `replaying` keeps it closed until `open(after:)` runs.
    init(_ observer: Observer, replaying: Bool) {
        self.observer = observer
        self.direct = directPath(of: observer).map { Unmanaged.passUnretained($0) }
        self.state = InlineAtomicInt(replaying ? gateReplaying : gateOpen)
        super.init()
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        isSameType(T.self, Element.self)
    }

    override func receiveNext<T>(_ element: T) {
        let current = state.load()
        if current == gateOpen {
            pass(element)
        } else if current == gateReplaying {
            nextWhileReplaying(element)
        }
    }

    /// Passes an element on, through the observer's direct path when it has one.
    @inline(__always)
    private func pass<T>(_ element: T) {
        if let direct {
            direct._withUnsafeGuaranteedRef { observer in observer.receiveNext(element) }
        } else {
            passAsEvent(element)
        }
    }

    @inline(never)
    private func passAsEvent<T>(_ element: T) {
        observer.on(.next(unsafeSameTypeCast(element, to: Element.self)))
    }

    @inline(never)
    private func nextWhileReplaying<T>(_ element: T) {
        let current = pending.withLock { pending -> Int in
            let current = state.load()
            if current == gateReplaying {
                pending.append(.next(unsafeSameTypeCast(element, to: Element.self)))
            }
            return current
        }
        // The replay ended in the meantime.
        if current == gateOpen { pass(element) }
    }

    override func receiveCompleted() {
        stop(.completed)
    }

    override func receiveError(_ error: Swift.Error) {
        stop(.error(error))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): receiveNext(element)
        case .error, .completed: stop(event)
        }
    }

    /// Delivers a terminal event once; later events are dropped.
    private func stop(_ event: Event<Element>) {
        let previous = state.fetchOr(gateStopped)
        if previous & gateStopped != 0 { return }
        if previous & gateOpen == 0 {
            let queued = pending.withLock { pending -> Bool in
                guard state.load() & gateOpen == 0 else { return false }
                pending.append(event)
                return true
            }
            if queued { return }
        }
        passTerminal(event)
    }

    private func passTerminal(_ event: Event<Element>) {
        guard let direct = direct?.takeUnretainedValue() else {
            observer.on(event)
            return
        }
        if case .error(let error) = event {
            direct.receiveError(error)
        } else {
            direct.receiveCompleted()
        }
    }

    /// Delivers `element` (the replay), then everything that arrived meanwhile, then
    /// opens the gate.
    func open(after element: Element) {
        pass(element)
        drainAndOpen()
    }

    /// Delivers `elements` (the replay), then everything that arrived meanwhile, then
    /// opens the gate.
    func open(after elements: [Element]) {
        for element in elements {
            pass(element)
        }
        drainAndOpen()
    }

    private func drainAndOpen() {
        while true {
            let queued = pending.withLock { pending -> [Event<Element>] in
                if pending.isEmpty {
                    _ = state.fetchOr(gateOpen)
                    return []
                }
                defer { pending = [] }
                return pending
            }
            if queued.isEmpty { return }
            for event in queued {
                if case .next(let element) = event {
                    pass(element)
                } else {
                    passTerminal(event)
                }
            }
        }
    }
}
