/// The per-subscription sink of combineLatest and zip: each source's events run a
/// transition of `CombiningState` under the lock, with the stores' side of it (storing
/// the element, keeping a set of values for later, or running the result selector on
/// the set going out) in the same critical section; the downstream observer runs after
/// unlocking, one delivery at a time (`SerialDelivery`).
final class CombiningSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    typealias Result = Observer.Element

    /// The state machine; the stores of `values` are touched only inside its
    /// `withLock` too (see CombiningStores.swift).
    private let state: LockedState<CombiningState>
    private let values: CombiningValues<Result>
    /// One subscription per source; a source that terminates disposes its own.
    let subscriptions: [SingleAssignmentDisposable]
    /// The thread running the result selector (under the lock), else 0. An event that
    /// thread sends into one of the sources from inside the selector must not take the
    /// lock again (it is not recursive): it waits in `afterSelector` instead.
    private let selectorThread = InlineAtomicInt(0)
    /// Transitions of events sent from inside the selector, run when it returns, with
    /// the lock still held. Only the thread in `selectorThread` touches it.
    @exclusivity(unchecked)
    private var afterSelector: [(inout CombiningState) -> CombiningAction] = []

    /// Never called: fills the superclass's `init(observer:)` slot (see `rxUnusedInitializer`).
    override convenience init(observer: consuming Observer) { rxUnusedInitializer() }

    init(rule: CombiningRule, arity: Int, values: CombiningValues<Result>, observer: Observer) {
        state = LockedState(CombiningState(rule: rule, arity: arity))
        self.values = values
        subscriptions = (0..<arity).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer)
    }

    /// Source `index` emitted `element` (of `store`'s element type): it is stored, and a
    /// set of values that is due goes out at once, unless another delivery is in
    /// progress (then it queues behind it).
    @inline(__always)
    func next<T, Element>(_ element: T, into store: CombiningStore<Element>, at index: Int) {
        if isInsideSelector {
            afterSelector.append { state in self.transition(element, into: store, at: index, in: &state) }
            return
        }
        let action = state.withLock { transition(element, into: store, at: index, in: &$0) }
        switch action {
        case .deliverCurrentValues:
            deliverCurrentValues()
        case .deliver(let item):
            deliver(item)
        case .none, .keepValuesForQueue:
            break
        }
    }

    /// Under the lock: source `index`'s element is stored, and the set of values it
    /// makes due, if any, gets its result (this caller becomes its deliverer) or is
    /// kept for the delivery queue.
    @inline(__always)
    private func transition<T, Element>(
        _ element: T, into store: CombiningStore<Element>, at index: Int, in state: inout CombiningState
    ) -> CombiningAction {
        if state.isTerminated { return .none }
        store.store(bitCasting: element)
        let action = state.next(at: index)
        switch action {
        case .deliverCurrentValues:
            if let error = makeResult(queued: false, in: &state) {
                return .deliver(.error(error))
            }
        case .keepValuesForQueue:
            values.keepForQueuedDelivery()
        case .none, .deliver:
            break
        }
        return action
    }

    /// Whether the caller is inside the result selector, which holds the lock. When no
    /// selector runs (the usual case), one relaxed load answers.
    @inline(__always)
    private var isInsideSelector: Bool {
        let running = selectorThread.loadRelaxed()
        return running != 0 && running == Int(bitPattern: currentThreadID())
    }

    /// Under the lock, as the deliverer of a set of values: runs the result selector
    /// on it, and keeps the result in `values` for the delivery after unlocking. When
    /// the selector throws, nothing is delivered any more and its error is returned,
    /// for the caller to deliver instead.
    @inline(__always)
    private func makeResult(queued: Bool, in state: inout CombiningState) -> Swift.Error? {
        selectorThread.storeRelaxed(Int(bitPattern: currentThreadID()))
        defer {
            selectorThread.storeRelaxed(0)
            if !afterSelector.isEmpty { runAfterSelector(&state) }
        }
        do {
            // CALLOUT UNDER LOCK: the result selector reads the stores in place, as
            // RxSwift's runs under its lock; only the result leaves the lock, and the
            // events still go out after unlocking. Events it sends into the sources
            // wait in `afterSelector`.
            try values.makeResult(queued: queued)
            return nil
        } catch {
            state.abortDelivery()
            return error
        }
    }

    /// Runs the transitions of the events the selector sent, in the order sent. The
    /// caller is the deliverer throughout, so a set of values they make due, or their
    /// end, queues behind the delivery in progress (or, after the selector threw, they
    /// do nothing); none can need delivering now.
    @inline(never)
    private func runAfterSelector(_ state: inout CombiningState) {
        while !afterSelector.isEmpty {
            let work = afterSelector.removeFirst()
            let action = work(&state)
            switch action {
            case .none, .keepValuesForQueue:
                break
            case .deliverCurrentValues, .deliver:
                rxFatalError("combineLatest/zip: an event sent from the result selector needed delivering while the selector's own result was being made.")
            }
        }
    }

    /// As the deliverer, unlocked: delivers the result made under the lock, then
    /// whatever was queued behind it meanwhile (the common case, nothing, costs one
    /// plain `release` under the lock).
    private func deliverCurrentValues() {
        forwardNext(values.takeResult())
        if state.withLock({ $0.release() }) { deliverQueued() }
    }

    /// Delivers what was queued behind a delivery that has just ended.
    @inline(never)
    private func deliverQueued() {
        guard let item = nextDelivery() else { return }
        deliver(item)
    }

    func fail(_ error: Swift.Error, at index: Int) {
        subscriptions[index].dispose()
        if isInsideSelector {
            afterSelector.append { $0.fail(error) }
            return
        }
        perform(state.withLock { $0.fail(error) })
    }

    func completed(at index: Int) {
        subscriptions[index].dispose()
        if isInsideSelector {
            afterSelector.append { $0.completed(at: index) }
            return
        }
        perform(state.withLock { $0.completed(at: index) })
    }

    /// After unlocking: delivers what a terminal transition returned, if anything.
    private func perform(_ action: CombiningAction) {
        if case .deliver(let item) = action { deliver(item) }
    }

    /// As the deliverer, unlocked: delivers `first` (for `.next`, its result is made),
    /// then whatever was queued behind it meanwhile.
    private func deliver(_ first: CombiningItem) {
        deliverInOrder(first, next: { nextDelivery() }) { item in
            switch item {
            case .next:
                forwardNext(values.takeResult())
                return true
            case .completed:
                forwardCompleted()
                return false
            case .error(let error):
                forwardError(error)
                return false
            }
        }
    }

    /// The next queued item, with the result of a set of values made under the same
    /// lock; the selector's error instead, if it threw.
    private func nextDelivery() -> CombiningItem? {
        state.withLock { state in
            let item = state.nextDelivery()
            if case .next = item, let error = makeResult(queued: true, in: &state) {
                return .error(error)
            }
            return item
        }
    }

    /// No sources at all: combineLatest produces the result of no values, then both
    /// complete.
    func finishWithoutSources(_ rule: CombiningRule) {
        if rule == .combineLatest {
            if let error = state.withLock({ makeResult(queued: false, in: &$0) }) {
                forwardError(error)
                return
            }
            forwardNext(values.takeResult())
        }
        forwardCompleted()
    }

    override func disposeCore() {
        for subscription in subscriptions {
            subscription.dispose()
        }
    }
}

/// The observer of one source: stores each element and reports to the sink.
final class CombiningInput<Element, Observer: ObserverType>: ObserverBase, ObserverType, @unchecked Sendable {
    private let sink: CombiningSink<Observer>
    private let index: Int
    private let store: CombiningStore<Element>

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(sink: CombiningSink<Observer>, index: Int, store: CombiningStore<Element>) {
        self.sink = sink
        self.index = index
        self.store = store
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        isSameType(T.self, Element.self)
    }

    override func receiveNext<T>(_ element: T) {
        sink.next(element, into: store, at: index)
    }

    override func receiveCompleted() {
        sink.completed(at: index)
    }

    override func receiveError(_ error: Swift.Error) {
        sink.fail(error, at: index)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            sink.next(element, into: store, at: index)
        case .error(let error):
            sink.fail(error, at: index)
        case .completed:
            sink.completed(at: index)
        }
    }
}
