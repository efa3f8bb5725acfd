/// The state of a `SerializedSink`: the operator's own state (`value`) and the events
/// its transitions sent, queued in order for delivery after unlocking. Once a terminal
/// event is sent nothing else is, so the grammar holds whatever the interleaving of the
/// parties feeding the sink.
struct SerializedState<State, Element>: SerialDeliveryState {
    /// The operator's own state.
    var value: State
    /// Whether a terminal event was sent.
    private(set) var isTerminated = false
    /// The events sent and not delivered yet; only `send` queues on it.
    var delivery = SerialDelivery<Event<Element>>()

    init(_ value: State) {
        self.value = value
    }

    /// Queues `event` for delivery (nothing after a terminal event).
    mutating func send(_ event: Event<Element>) {
        if isTerminated { return }
        if event.isStopEvent { isTerminated = true }
        delivery.enqueue(event)
    }
}
