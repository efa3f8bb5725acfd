/// The one base of the sinks fed by several parties (a source and its timers, a source
/// and a trigger): each party runs a transition of the state under the lock
/// (`update`), which sends the events it produces; they are delivered after unlocking,
/// in order, never two at once and never with the lock held (`SerialDelivery`). A
/// receiver that re-enters the sink only queues more events.
class SerializedSink<Observer: ObserverType, State>: Sink<Observer>, @unchecked Sendable {
    /// The operator's state and the events waiting for delivery.
    final let state: LockedState<SerializedState<State, Observer.Element>>

    /// Never called: fills the superclass's `init(observer:)` slot (see `rxUnusedInitializer`).
    override convenience init(observer: consuming Observer) { rxUnusedInitializer() }

    init(observer: Observer, state initial: State) {
        state = LockedState(SerializedState(initial))
        super.init(observer: observer)
    }

    /// Runs `transition` with the lock held, then, unlocked, delivers the events it sent
    /// (and any queued before them) unless another party is delivering: that party
    /// delivers them. Returns what `transition` returned, for work the caller does
    /// unlocked (a timer to start, say).
    @discardableResult
    final func update<Result>(_ transition: (inout SerializedState<State, Observer.Element>) -> Result) -> Result {
        state.update(transition) { event in forwardEvent(event) }
    }

    /// Sends `event` downstream, after whatever is queued before it.
    final func deliverSerialized(_ event: Event<Observer.Element>) {
        update { $0.send(event) }
    }
}
