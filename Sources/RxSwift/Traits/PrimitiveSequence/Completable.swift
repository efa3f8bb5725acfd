/// The trait of `Completable`: no element, only completion or an error.
public enum CompletableTrait {}

/// A sequence with no element: it completes or fails.
///
/// ```
/// completed: ----|
/// error:     ----X
/// ```
public typealias Completable = PrimitiveSequence<CompletableTrait, Swift.Never>

/// The outcome of a `Completable`.
@frozen
public enum CompletableEvent {
    /// The sequence failed.
    case error(Swift.Error)
    /// The sequence completed.
    case completed
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// The function a `Completable.create` body calls once with the outcome.
    public typealias CompletableObserver = (CompletableEvent) -> Void

    /// A completable whose subscriptions run `subscribe`: it calls the observer once
    /// with `.completed` or `.error`; later calls are ignored.
    public static func create(subscribe: @escaping (@escaping CompletableObserver) -> Disposable) -> PrimitiveSequence<Trait, Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .error(let error):
                    observer.on(.error(error))
                case .completed:
                    observer.on(.completed)
                }
            }
        }
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes `observer`, which is called once with the outcome.
    public func subscribe(_ observer: @escaping (CompletableEvent) -> Void) -> Disposable {
        subscribeToOutcome { event in
            switch event {
            case .error(let error):
                observer(.error(error))
            case .completed:
                observer(.completed)
            }
        }
    }

    /// Subscribes completion, error and disposal handlers.
    ///
    /// An error with no `onError` handler goes to `Hooks.defaultErrorHandler`.
    public func subscribe(
        onCompleted: (() -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let handlers = OutcomeHandlers(onError: onError, onDisposed: onDisposed)
        return handlers.subscription(subscribe { (event: CompletableEvent) in
            switch event {
            case .error(let error):
                handlers.fail(error)
            case .completed:
                onCompleted?()
            }
            handlers.finish()
        })
    }

    /// Subscribes handlers that also receive `object`, held weakly; once `object` is
    /// gone the handlers are skipped.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onCompleted: ((Object) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onCompleted: weakly(object, onCompleted),
            onError: weakly(object, onError),
            onDisposed: weakly(object, onDisposed)
        )
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// A completable that fails with `error`.
    public static func error(_ error: Swift.Error) -> Completable {
        Completable(raw: Observable.error(error))
    }

    /// A completable that never produces its outcome.
    public static func never() -> Completable {
        Completable(raw: Observable.never())
    }

    /// A completable that completes at once.
    public static func empty() -> Completable {
        Completable(raw: Observable.empty())
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Calls the given actions for the outcome and the subscription's life cycle, and
    /// passes the outcome on unchanged.
    public func `do`(
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Completable {
        Completable(raw: primitiveSequence.source.do(
            onError: onError,
            afterError: afterError,
            onCompleted: onCompleted,
            afterCompleted: afterCompleted,
            onSubscribe: onSubscribe,
            onSubscribed: onSubscribed,
            onDispose: onDispose
        ))
    }
}

extension ObservableType where Element == Swift.Never {
    /// The sequence, which has no elements, as a `Completable`.
    public func asCompletable() -> Completable {
        Completable(raw: asObservable())
    }
}
