extension ObservableConvertibleType {
    /// The elements as an `AsyncThrowingStream`: iterate with `for try await`.
    ///
    /// Each access subscribes anew. The stream finishes when the sequence completes
    /// and throws its error when it fails. Cancelling the iterating task, or leaving the
    /// loop early, disposes the subscription; as in RxSwift, a loop whose task is
    /// cancelled before the sequence ended throws `CancellationError` (after any
    /// elements still buffered). Elements are buffered without bound while the
    /// iteration lags behind.
    ///
    /// ```swift
    /// for try await value in observable.values { ... }
    /// ```
    public var values: AsyncThrowingStream<Element, Error> {
        let source = asObservable()
        return AsyncThrowingStream<Element, Error> { continuation in
            source.feedStream(
                disposeOnTermination: { dispose in
                    continuation.onTermination = { termination in
                        dispose()
                        // A stream that already finished ignores this.
                        if case .cancelled = termination {
                            continuation.finish(throwing: CancellationError())
                        }
                    }
                },
                yield: { continuation.yield(UnsafeTransfer($0).value) },
                finish: { continuation.finish(throwing: $0) }
            )
        }
    }

    /// The elements as an `AsyncStream`, for a sequence that never fails (`Infallible`,
    /// and RxCocoa's shared sequences): `unexpectedError` runs for an error, which such
    /// a sequence never sends; the stream then finishes.
    package func infallibleValues(unexpectedError: @escaping (Swift.Error) -> Void) -> AsyncStream<Element> {
        let source = asObservable()
        return AsyncStream<Element> { continuation in
            source.feedStream(
                disposeOnTermination: { dispose in continuation.onTermination = { _ in dispose() } },
                yield: { continuation.yield(UnsafeTransfer($0).value) },
                finish: { error in
                    if let error { unexpectedError(error) }
                    continuation.finish()
                }
            )
        }
    }

    /// The function the `work` closure of the asynchronous `create` calls with each element.
    public typealias ElementObserver<Element> = (Element) -> Void

    /// An observable whose subscriptions run the asynchronous `work` in a new task: it
    /// emits what `work` passes to its observer, completes when `work` returns and fails
    /// with what it throws. Disposing the subscription cancels the task; elements sent
    /// after that are dropped.
    ///
    /// - parameter detached: Whether the task is detached from the current context.
    /// - parameter priority: The priority of the task.
    /// - parameter work: The work of one subscription: it passes each element to the
    ///   observer it receives, and returns or throws to end the sequence.
    @_disfavoredOverload
    public static func create(
        detached: Bool = false,
        priority: TaskPriority? = nil,
        work: @Sendable @escaping (_ observer: ElementObserver<Element>) async throws -> Void
    ) -> Observable<Element> {
        Observable.create { observer in
            let target = UnsafeTransfer(observer)
            let operation: @Sendable () async -> Void = {
                do {
                    try await work { element in
                        guard !Task.isCancelled else { return }
                        target.value.onNext(element)
                    }
                    target.value.onCompleted()
                } catch {
                    target.value.onError(error)
                }
            }
            let task = SchedulerSubstitution.startTask(detached: detached, priority: priority, operation: operation)
            return Disposables.create { task.cancel() }
        }
    }
}

extension Observable {
    /// Feeds one async stream from a new subscription: elements go to `yield`, the
    /// terminal event to `finish` (`nil` for completion). `disposeOnTermination` is given
    /// the subscription's disposal before the subscription starts, so a stream cancelled
    /// or finished at any moment disposes it.
    fileprivate func feedStream(
        disposeOnTermination: (@escaping @Sendable () -> Void) -> Void,
        yield: @escaping (Element) -> Void,
        finish: @escaping (Swift.Error?) -> Void
    ) {
        let subscription = SingleAssignmentDisposable()
        disposeOnTermination { subscription.dispose() }
        subscription.setDisposable(subscribe { event in
            switch event {
            case .next(let element):
                yield(element)
            case .error(let error):
                finish(error)
            case .completed:
                finish(nil)
            }
        })
    }
}

extension AsyncSequence {
    /// The asynchronous sequence as an `Observable`: each subscription iterates it in a
    /// new task and emits its elements, then completes (or fails with its error).
    ///
    /// Disposing the subscription cancels the task; a `CancellationError` thrown by the
    /// sequence completes the observable.
    ///
    /// - parameter priority: The priority of the iterating task; by default the
    ///   priority `Task` gives a task started from the subscribing context.
    public func asObservable(priority: TaskPriority? = nil) -> Observable<Element> {
        let sequence = UnsafeTransfer(self)
        return Observable.create { observer in
            let pump: any AsyncSequencePumping = AsyncSequencePump(sequence.value.makeAsyncIterator(), observer: observer)
            let task = SchedulerSubstitution.startTask(detached: false, priority: priority) { await pump.run() }
            return Disposables.create { task.cancel() }
        }
    }
}

/// Runs one subscription's iteration. The task only sees this non-generic protocol,
/// so it captures no generic type context of the sequence.
protocol AsyncSequencePumping: Sendable {
    func run() async
}

/// Iterates one subscription's iterator and forwards to its observer; only that
/// subscription's task calls `run()`.
final class AsyncSequencePump<Base: AsyncIteratorProtocol>: AsyncSequencePumping, @unchecked Sendable {
    private var base: Base
    private let observer: AnyObserver<Base.Element>

    init(_ base: Base, observer: AnyObserver<Base.Element>) {
        self.base = base
        self.observer = observer
    }

    func run() async {
        do {
            while let element = try await base.next() {
                observer.onNext(element)
            }
            observer.onCompleted()
        } catch is CancellationError {
            observer.onCompleted()
        } catch {
            observer.onError(error)
        }
    }
}
