extension InfallibleType {
    /// The elements as an `AsyncStream`: iterate with `for await`.
    ///
    /// Each access subscribes anew; the stream finishes when the sequence completes.
    /// Cancelling the iterating task, or leaving the loop early, disposes the
    /// subscription. Elements are buffered without bound while the iteration lags behind.
    public var values: AsyncStream<Element> {
        infallibleValues { error in
            rxFatalErrorInDebug("An Infallible must never emit an error, got: \(error)")
        }
    }
}
