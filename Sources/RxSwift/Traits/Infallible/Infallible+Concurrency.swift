extension InfallibleType {
    /// The elements as an `AsyncStream`: iterate with `for await`.
    ///
    /// Each access subscribes anew; the stream finishes when the sequence completes.
    /// Cancelling the iterating task, or leaving the loop early, disposes the
    /// subscription. Elements are buffered without bound while the iteration lags behind.
    public var values: AsyncStream<Element> {
        let source = asObservable()
        return AsyncStream<Element> { continuation in
            let subscription = SingleAssignmentDisposable()
            continuation.onTermination = { _ in subscription.dispose() }
            subscription.setDisposable(source.subscribe { event in
                switch event {
                case .next(let element):
                    let transfer = UnsafeTransfer(element)
                    continuation.yield(transfer.value)
                case .completed:
                    continuation.finish()
                case .error(let error):
                    rxFatalErrorInDebug("An Infallible must never emit an error, got: \(error)")
                    continuation.finish()
                }
            })
        }
    }
}
