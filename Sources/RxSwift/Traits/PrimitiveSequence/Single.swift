/// The trait of `Single`: exactly one element, or an error.
public enum SingleTrait {}

/// A sequence of exactly one element, or an error.
///
/// ```
/// success: ----(a|)
/// failure: ----X
/// ```
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// The outcome of a `Single`: its element, or its error.
public typealias SingleEvent<Element> = Result<Element, Swift.Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The function a `Single.create` body calls once with the outcome.
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// A single whose subscriptions run `subscribe`: it calls the observer once with
    /// `.success(element)` or `.failure(error)`; later calls are ignored.
    ///
    /// - returns: The single; the disposable `subscribe` returns is disposed with the subscription.
    public static func create(subscribe: @escaping (@escaping SingleObserver) -> Disposable) -> Single<Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
                case .failure(let error):
                    observer.on(.error(error))
                }
            }
        }
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes `observer`, which is called once with the outcome.
    public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> Disposable {
        subscribeToOutcome { event in
            switch event {
            case .next(let element):
                observer(.success(element))
            case .error(let error):
                observer(.failure(error))
            case .completed:
                rxFatalErrorInDebug("A Single completed without an element; a Single must emit exactly one element or an error.")
            }
        }
    }

    /// Subscribes success, failure and disposal handlers.
    ///
    /// A failure with no `onFailure` handler goes to `Hooks.defaultErrorHandler`.
    /// `onDisposed` runs once the single succeeded, failed or was disposed.
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onFailure: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let handlers = OutcomeHandlers(onError: onFailure, onDisposed: onDisposed)
        return handlers.subscription(subscribe { (event: SingleEvent<Element>) in
            switch event {
            case .success(let element):
                onSuccess?(element)
            case .failure(let error):
                handlers.fail(error)
            }
            handlers.finish()
        })
    }

    /// Subscribes success and error handlers (the RxSwift 5 spelling).
    @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: @escaping ((Swift.Error) -> Void),
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        subscribe(onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed)
    }

    /// Subscribes handlers that also receive `object`, held weakly; once `object` is
    /// gone the handlers are skipped.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onFailure: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onSuccess: weakly(object, onSuccess),
            onFailure: weakly(object, onFailure),
            onDisposed: weakly(object, onDisposed)
        )
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// A single of `element`.
    public static func just(_ element: Element) -> Single<Element> {
        Single(raw: Observable.just(element))
    }

    /// A single of `element`, delivered on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Single<Element> {
        Single(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A single that fails with `error`.
    public static func error(_ error: Swift.Error) -> Single<Element> {
        Single(raw: Observable.error(error))
    }

    /// A single that never produces its outcome.
    public static func never() -> Single<Element> {
        Single(raw: Observable.never())
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The element passes through `predicate`; a rejected element leaves an empty `Maybe`.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.filter(predicate))
    }

    /// Transforms the element; a thrown error becomes the failure.
    ///
    /// ```
    /// single: ----(1|)
    /// map { $0 * 10 }
    /// result: ----(10|)
    /// ```
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        Single(raw: primitiveSequence.source.map(transform))
    }

    /// Subscribes to the single that `selector` makes of the element, and ends as that
    /// one ends; an error of either, or one thrown by `selector`, fails it.
    ///
    /// ```
    /// single:   ----(1|)
    /// inner(1):     ---(10|)
    /// result:   -------(10|)
    /// ```
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
        Single(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Subscribes to the maybe that `selector` makes of the element, and ends as that one
    /// ends: with its element, empty, or with its error.
    public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Subscribes to the completable that `selector` makes of the element, and completes
    /// or fails as that one does.
    public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable) -> Completable {
        Completable(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// The single as a `Maybe`.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source)
    }

    /// The single as a `Completable` that ignores the element.
    public func asCompletable() -> Completable {
        primitiveSequence.source.ignoreElements().asCompletable()
    }

    /// Transforms the element into an optional; `nil` leaves an empty `Maybe`.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }

    /// Calls the given actions for the outcome and the subscription's life cycle, and
    /// passes the outcome on unchanged.
    ///
    /// `onSuccess` runs before the element goes downstream, `afterSuccess` after it;
    /// `onError` and `afterError` likewise for a failure. An error thrown by `onSuccess`
    /// or `onError` replaces the outcome with that error.
    public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil,
        afterSuccess: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Single<Element> {
        Single(raw: primitiveSequence.source.do(
            onNext: onSuccess,
            afterNext: afterSuccess,
            onError: onError,
            afterError: afterError,
            onSubscribe: onSubscribe,
            onSubscribed: onSubscribed,
            onDispose: onDispose
        ))
    }

    /// Succeeds with `resultSelector` applied to the elements of all `collection`'s
    /// singles once all succeeded; the first failure fails it. An empty collection
    /// succeeds with `resultSelector([])`.
    public static func zip<Collection: Swift.Collection, Result>(_ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result) -> PrimitiveSequence<Trait, Result> where Collection.Element == PrimitiveSequence<Trait, Element> {
        PrimitiveSequence.zipAll(collection, resultSelector: resultSelector)
    }

    /// Succeeds with the elements of all `collection`'s singles, in order, once all
    /// succeeded; the first failure fails it. An empty collection succeeds with `[]`.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> PrimitiveSequence<Trait, [Element]> where Collection.Element == PrimitiveSequence<Trait, Element> {
        PrimitiveSequence.zipAll(collection, resultSelector: { $0 })
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// After an error, succeeds with `element` instead.
    public func catchAndReturn(_ element: Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// After an error, succeeds with `element` instead.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> PrimitiveSequence<Trait, Element> {
        catchAndReturn(element)
    }
}
