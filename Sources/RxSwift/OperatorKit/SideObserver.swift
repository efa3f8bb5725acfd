/// A sink that also observes a second sequence of its own (a fallback, a sampler, the
/// sequence a timeout switches to, the trigger of `skip(until:)` and `take(until:)`) and
/// takes that sequence's events in `receiveSide`.
protocol SideEventReceiver: AnyObject {
    associatedtype SideElement

    /// An event of the second sequence.
    func receiveSide(_ event: Event<SideElement>)
}

/// The observer of a sink's second sequence: it hands every event to the sink's
/// `receiveSide`, so a sink needs no observer class of its own for it. It holds the
/// sink strongly, as the subscription it belongs to does.
final class SideObserver<Receiver: SideEventReceiver>: EventObserver<Receiver.SideElement>, @unchecked Sendable {
    private let receiver: Receiver

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(_ receiver: Receiver) {
        self.receiver = receiver
    }

    override func on(_ event: Event<Receiver.SideElement>) {
        receiver.receiveSide(event)
    }
}
