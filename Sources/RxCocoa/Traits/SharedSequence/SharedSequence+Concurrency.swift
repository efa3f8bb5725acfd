import RxSwift

extension SharedSequence {
    /// The elements as an `AsyncStream`: iterate with `for await`.
    ///
    /// Each access subscribes anew; the stream finishes when the sequence completes.
    /// Cancelling the iterating task, or leaving the loop early, disposes the subscription.
    ///
    /// RxSwift's is isolated to the main actor; this one is not, so that a shared sequence
    /// on a test scheduler can be iterated from any task. Code written for RxSwift's
    /// compiles unchanged.
    public var values: AsyncStream<Element> {
        infallibleValues { error in
            rxFatalError("A shared sequence must never fail, got: \(error)")
        }
    }
}
