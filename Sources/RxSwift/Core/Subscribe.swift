import Foundation

extension ObservableType {
    /// Subscribes an event handler to the sequence.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        guard let token = RxTracking.open(.subscription("subscribe(_:)")) else {
            return asObservable().subscribe(AnonymousObserver(on))
        }
        let observer = AnonymousObserver<Element> { event in
            on(event)
            if event.isStopEvent { token.dispose() }
        }
        return Disposables.create(asObservable().subscribe(observer), token)
    }

    /// Subscribes element, error, completion and disposal handlers to the sequence.
    ///
    /// An error with no `onError` handler goes to `Hooks.defaultErrorHandler`.
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let disposable: Disposable
        if let onDisposed {
            disposable = Disposables.create(with: onDisposed)
        } else {
            disposable = Disposables.create()
        }
        let callStack = Hooks.recordCallStackOnError ? Hooks.customCaptureSubscriptionCallstack() : []
        let token = RxTracking.open(.subscription("subscribe(onNext:onError:onCompleted:onDisposed:)"))
        // Not `onNext ?? { _ in }`: passing the closure through the generic `??` wraps
        // it in two conversion thunks, paid at every element.
        let elementHandler: (Element) -> Void
        if let onNext {
            elementHandler = onNext
        } else {
            elementHandler = { _ in }
        }
        let observer = AnonymousObserver<Element>({ event in
            switch event {
            case .next(let value):
                onNext?(value)
            case .error(let error):
                if let onError {
                    onError(error)
                } else {
                    Hooks.callDefaultErrorHandler(callStack, error, tracker: token?.tracker ?? RxTracking.current)
                }
                token?.dispose()
                disposable.dispose()
            case .completed:
                onCompleted?()
                token?.dispose()
                disposable.dispose()
            }
        }, elementHandler: elementHandler)
        if let token {
            return Disposables.create(asObservable().subscribe(observer), disposable, token)
        }
        return Disposables.create(asObservable().subscribe(observer), disposable)
    }

    /// Subscribes handlers that receive `object` (held weakly) with each event; a
    /// handler is skipped once the object is gone.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onNext: { [weak object] in
                guard let object else { return }
                onNext?(object, $0)
            },
            onError: { [weak object] in
                guard let object else { return }
                onError?(object, $0)
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
