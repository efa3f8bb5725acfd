extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Awaits the single's element; throws its error.
    ///
    /// Cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError`. In a task cancelled before it awaits, an outcome the sequence
    /// gives during its subscription is still returned, as in RxSwift.
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
    /// - parameter work: The work of one subscription: what it returns is the element,
    ///   what it throws the failure.
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
    /// `CancellationError`. In a task cancelled before it awaits, an outcome the sequence
    /// gives during its subscription is still returned, as in RxSwift.
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
    /// `CancellationError`. In a task cancelled before it awaits, an outcome the sequence
    /// gives during its subscription is still returned, as in RxSwift.
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
/// `CancellationError`; a task cancelled before the call still gets an outcome given
/// during the subscription. The continuation is resumed exactly once, never under a lock.
func awaitOutcome<Value>(_ subscribe: @escaping (_ resolve: @escaping (Result<Value, Error>) -> Void) -> Disposable) async throws -> Value {
    let state = OutcomeContinuation<Value>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, Error>) in
            state.install(continuation)
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
        /// Cancelled before the wait began, and subscribing once: an outcome given during
        /// the subscription resumes the continuation; otherwise it ends cancelled.
        case subscribingCancelled(CheckedContinuation<Value, Error>)
    }

    private let state = LockedState(State.idle)

    /// Installs the continuation. A wait cancelled before this still subscribes once, as
    /// in RxSwift, so that a sequence that ends during its subscription (`Maybe.empty()`)
    /// gives its outcome; `attach` ends it with `CancellationError` otherwise.
    func install(_ continuation: CheckedContinuation<Value, Error>) {
        state.withLock { state in
            switch state {
            case .idle: state = .waiting(continuation, nil)
            case .cancelled: state = .subscribingCancelled(continuation)
            case .waiting, .done, .subscribingCancelled: preconditionFailure("awaitOutcome installs one continuation")
            }
        }
    }

    /// Stores the subscription; disposes it at once when the outcome already arrived
    /// or the wait was cancelled meanwhile, and ends a wait cancelled before it began
    /// that got no outcome during the subscription.
    func attach(_ subscription: Disposable) {
        let (keep, cancelled) = state.withLock { state -> (Bool, CheckedContinuation<Value, Error>?) in
            switch state {
            case .waiting(let continuation, nil):
                state = .waiting(continuation, subscription)
                return (true, nil)
            case .subscribingCancelled(let continuation):
                state = .done
                return (false, continuation)
            default:
                return (false, nil)
            }
        }
        if !keep { subscription.dispose() }
        cancelled?.resume(throwing: CancellationError())
    }

    /// Resumes with the outcome unless already resumed.
    func resolve(_ result: Result<Value, Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, Error>? in
            switch state {
            case .waiting(let continuation, _), .subscribingCancelled(let continuation):
                state = .done
                return continuation
            case .idle, .done, .cancelled:
                return nil
            }
        }
        // The outcome crosses to the awaiting task; Rivulet hands it over exactly once.
        nonisolated(unsafe) let outcome = result
        continuation?.resume(with: outcome)
    }

    /// Disposes the subscription and resumes with `CancellationError` unless already resumed.
    func cancel() {
        let (continuation, subscription) = state.withLock { state -> (CheckedContinuation<Value, Error>?, Disposable?) in
            switch state {
            case .idle:
                state = .cancelled
                return (nil, nil)
            case .waiting(let continuation, let subscription):
                state = .done
                return (continuation, subscription)
            case .done, .cancelled, .subscribingCancelled:
                return (nil, nil)
            }
        }
        subscription?.dispose()
        continuation?.resume(throwing: CancellationError())
    }
}
