extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Awaits the single's element; throws its error.
    ///
    /// Cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError`.
    ///
    /// ```swift
    /// let value = try await single.value
    /// ```
    public var value: Element {
        get async throws {
            let single = primitiveSequence
            return try await awaitOutcome { resolve in
                single.subscribe { (event: SingleEvent<Element>) in
                    resolve(event)
                }
            }
        }
    }

    /// A single whose subscriptions run the asynchronous `work` in a new task and
    /// succeed with what it returns, or fail with what it throws. Disposing the
    /// subscription cancels the task.
    ///
    /// - parameter detached: Whether the task is detached from the current context.
    /// - parameter priority: The priority of the task.
    @_disfavoredOverload
    public static func create(
        detached: Bool = false,
        priority: TaskPriority? = nil,
        work: @Sendable @escaping () async throws -> Element
    ) -> PrimitiveSequence<Trait, Element> {
        .create { observer in
            let target = UnsafeTransfer(observer)
            let operation: @Sendable () async -> Void = {
                let result: SingleEvent<Element>
                do {
                    result = .success(try await work())
                } catch {
                    result = .failure(error)
                }
                target.value(result)
            }
            let task = SchedulerSubstitution.startTask(detached: detached, priority: priority, operation: operation)
            return Disposables.create { task.cancel() }
        }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Awaits the maybe's element: `nil` when it completes empty; throws its error.
    ///
    /// Cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError`.
    public var value: Element? {
        get async throws {
            let maybe = primitiveSequence
            return try await awaitOutcome { resolve in
                maybe.subscribe { (event: MaybeEvent<Element>) in
                    switch event {
                    case .success(let element): resolve(.success(element))
                    case .completed: resolve(.success(nil))
                    case .error(let error): resolve(.failure(error))
                    }
                }
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Awaits the completable's completion; throws its error.
    ///
    /// Cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError`.
    public var value: Void {
        get async throws {
            let completable = primitiveSequence
            return try await awaitOutcome { resolve in
                completable.subscribe { (event: CompletableEvent) in
                    switch event {
                    case .completed: resolve(.success(()))
                    case .error(let error): resolve(.failure(error))
                    }
                }
            }
        }
    }
}

/// Subscribes with `subscribe` and suspends until it reports the outcome once.
///
/// Cancellation of the calling task disposes the subscription and throws
/// `CancellationError`. The continuation is resumed exactly once, never under a lock.
func awaitOutcome<Value>(_ subscribe: @escaping (_ resolve: @escaping (Result<Value, Error>) -> Void) -> Disposable) async throws -> Value {
    let state = OutcomeContinuation<Value>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, Error>) in
            guard state.install(continuation) else { return }
            state.attach(subscribe { result in state.resolve(result) })
        }
    } onCancel: {
        state.cancel()
    }
}

/// The shared state of one `awaitOutcome`: the continuation, the subscription and
/// whether the wait was cancelled. Each transition runs under the lock and hands back
/// what to resume or dispose, which the caller does after unlocking.
final class OutcomeContinuation<Value>: @unchecked Sendable {
    private enum State {
        /// Before the continuation is installed.
        case idle
        /// Waiting for the outcome.
        case waiting(CheckedContinuation<Value, Error>, Disposable?)
        /// Resumed (with the outcome or the cancellation); nothing more happens.
        case done
        /// Cancelled before the continuation was installed.
        case cancelled
    }

    private let lock = Lock.make()
    private var state = State.idle

    /// Installs the continuation; returns `false` (after resuming it with
    /// `CancellationError`) when the wait was already cancelled.
    func install(_ continuation: CheckedContinuation<Value, Error>) -> Bool {
        let proceed = lock.withLock { () -> Bool in
            guard case .idle = state else { return false }
            state = .waiting(continuation, nil)
            return true
        }
        if !proceed { continuation.resume(throwing: CancellationError()) }
        return proceed
    }

    /// Stores the subscription; disposes it at once when the outcome already arrived
    /// or the wait was cancelled meanwhile.
    func attach(_ subscription: Disposable) {
        let keep = lock.withLock { () -> Bool in
            guard case .waiting(let continuation, nil) = state else { return false }
            state = .waiting(continuation, subscription)
            return true
        }
        if !keep { subscription.dispose() }
    }

    /// Resumes with the outcome unless already resumed.
    func resolve(_ result: Result<Value, Error>) {
        let continuation = lock.withLock { () -> CheckedContinuation<Value, Error>? in
            guard case .waiting(let continuation, _) = state else { return nil }
            state = .done
            return continuation
        }
        // The outcome crosses to the awaiting task; Rivulet hands it over exactly once.
        nonisolated(unsafe) let outcome = result
        continuation?.resume(with: outcome)
    }

    /// Disposes the subscription and resumes with `CancellationError` unless already resumed.
    func cancel() {
        let (continuation, subscription) = lock.withLock { () -> (CheckedContinuation<Value, Error>?, Disposable?) in
            switch state {
            case .idle:
                state = .cancelled
                return (nil, nil)
            case .waiting(let continuation, let subscription):
                state = .done
                return (continuation, subscription)
            case .done, .cancelled:
                return (nil, nil)
            }
        }
        subscription?.dispose()
        continuation?.resume(throwing: CancellationError())
    }
}
