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
        let stopped = AtomicFlag()
        return primitiveSequence.asObservable().subscribe { event in
            if stopped.testAndSet() { return }
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
        let callStack = Hooks.recordCallStackOnError ? Hooks.customCaptureSubscriptionCallstack() : []
        let disposable: Disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
        let subscription = subscribe { (event: MaybeEvent<Element>) in
            switch event {
            case .success(let element):
                onSuccess?(element)
            case .error(let error):
                if let onError {
                    onError(error)
                } else {
                    Hooks.callDefaultErrorHandler(callStack, error)
                }
            case .completed:
                onCompleted?()
            }
            disposable.dispose()
        }
        return Disposables.create(subscription, disposable)
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
            onSuccess: { [weak object] element in
                guard let object else { return }
                onSuccess?(object, element)
            },
            onError: { [weak object] error in
                guard let object else { return }
                onError?(object, error)
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
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

    /// The maybe as a `Completable` that ignores the element.
    public func asCompletable() -> Completable {
        Completable(raw: IgnoreElementsForCompletable(source: primitiveSequence.source))
    }
}
