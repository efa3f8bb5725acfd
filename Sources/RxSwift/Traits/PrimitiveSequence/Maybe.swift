/// The trait of `Maybe`: at most one element, then completion; or an error.
public enum MaybeTrait {}

/// A sequence of at most one element: an element, an empty completion, or an error.
///
/// ```
/// success:   ----(a|)
/// completed: ----|
/// error:     ----X
/// ```
public typealias Maybe<Element> = PrimitiveSequence<MaybeTrait, Element>

/// The outcome of a `Maybe`.
@frozen
public enum MaybeEvent<Element> {
    /// The one element (the sequence sends `next` then `completed`).
    case success(Element)
    /// The sequence failed.
    case error(Swift.Error)
    /// The sequence completed without an element.
    case completed
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The function a `Maybe.create` body calls once with the outcome.
    public typealias MaybeObserver = (MaybeEvent<Element>) -> Void

    /// A maybe whose subscriptions run `subscribe`: it calls the observer once with
    /// `.success`, `.error` or `.completed`; later calls are ignored.
    public static func create(subscribe: @escaping (@escaping MaybeObserver) -> Disposable) -> PrimitiveSequence<Trait, Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
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
    public func subscribe(_ observer: @escaping (MaybeEvent<Element>) -> Void) -> Disposable {
        subscribeToOutcome { event in
            switch event {
            case .next(let element):
                observer(.success(element))
            case .error(let error):
                observer(.error(error))
            case .completed:
                observer(.completed)
            }
        }
    }

    /// Subscribes success, error, completion and disposal handlers.
    ///
    /// An error with no `onError` handler goes to `Hooks.defaultErrorHandler`.
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let handlers = OutcomeHandlers(onError: onError, onDisposed: onDisposed)
        return handlers.subscription(subscribe { (event: MaybeEvent<Element>) in
            switch event {
            case .success(let element):
                onSuccess?(element)
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
        onSuccess: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onSuccess: weakly(object, onSuccess),
            onError: weakly(object, onError),
            onCompleted: weakly(object, onCompleted),
            onDisposed: weakly(object, onDisposed)
        )
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// A maybe of `element`.
    public static func just(_ element: Element) -> Maybe<Element> {
        Maybe(raw: Observable.just(element))
    }

    /// A maybe of `element`, delivered on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Maybe<Element> {
        Maybe(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A maybe that fails with `error`.
    public static func error(_ error: Swift.Error) -> Maybe<Element> {
        Maybe(raw: Observable.error(error))
    }

    /// A maybe that never produces its outcome.
    public static func never() -> Maybe<Element> {
        Maybe(raw: Observable.never())
    }

    /// A maybe that completes at once without an element.
    public static func empty() -> Maybe<Element> {
        Maybe(raw: Observable.empty())
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The element passes through `predicate`; a rejected element leaves an empty maybe.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.filter(predicate))
    }

    /// Transforms the element; a thrown error becomes the error.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.map(transform))
    }

    /// Subscribes to the maybe that `selector` makes of the element, and ends as that one
    /// ends; an empty source completes it empty without calling `selector`.
    ///
    /// ```
    /// maybe:    ----(1|)
    /// inner(1):     ---(10|)
    /// result:   -------(10|)
    /// ```
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// The maybe as a `Completable` that ignores the element.
    public func asCompletable() -> Completable {
        primitiveSequence.source.ignoreElements().asCompletable()
    }

    /// Transforms the element into an optional; `nil` leaves an empty maybe.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }

    /// A `Single` of the element, or of `default` when the maybe completes empty.
    public func ifEmpty(default: Element) -> Single<Element> {
        Single(raw: primitiveSequence.source.ifEmpty(default: `default`))
    }

    /// The maybe, or `other` when it completes empty.
    public func ifEmpty(switchTo other: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.ifEmpty(switchTo: other.primitiveSequence.source))
    }

    /// A `Single` of the element, or `other` when the maybe completes empty.
    public func ifEmpty(switchTo other: Single<Element>) -> Single<Element> {
        Single(raw: primitiveSequence.source.ifEmpty(switchTo: other.primitiveSequence.source))
    }

    /// Calls the given actions for the outcome and the subscription's life cycle, and
    /// passes the outcome on unchanged.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.do(
            onNext: onNext,
            afterNext: afterNext,
            onError: onError,
            afterError: afterError,
            onCompleted: onCompleted,
            afterCompleted: afterCompleted,
            onSubscribe: onSubscribe,
            onSubscribed: onSubscribed,
            onDispose: onDispose
        ))
    }

    /// Succeeds with `resultSelector` applied to the elements of all `collection`'s
    /// maybes once all succeeded; completes empty when one completes empty; the first
    /// error fails it. An empty collection succeeds with `resultSelector([])`.
    public static func zip<Collection: Swift.Collection, Result>(_ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result) -> PrimitiveSequence<Trait, Result> where Collection.Element == PrimitiveSequence<Trait, Element> {
        PrimitiveSequence.zipAll(collection, resultSelector: resultSelector)
    }

    /// Succeeds with the elements of all `collection`'s maybes, in order, once all
    /// succeeded; completes empty when one completes empty. An empty collection
    /// succeeds with `[]`.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> PrimitiveSequence<Trait, [Element]> where Collection.Element == PrimitiveSequence<Trait, Element> {
        PrimitiveSequence.zipAll(collection, resultSelector: { $0 })
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
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
