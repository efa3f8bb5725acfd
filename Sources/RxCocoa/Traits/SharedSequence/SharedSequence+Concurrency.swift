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
                    rxFatalError("A shared sequence must never fail, got: \(error)")
                }
            })
        }
    }
}
