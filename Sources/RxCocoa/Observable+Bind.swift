import RxSwift

extension ObservableType {
    /// Subscribes every observer in `observers` to the sequence: each receives every event.
    ///
    /// - returns: The subscription; disposing it stops the binding.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        subscribe(every: observers)
    }

    /// Subscribes every observer of optionals in `observers`: each receives every
    /// element wrapped in an optional, and the terminal event.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        subscribe(every: observers)
    }

    /// Binds the sequence with a custom binder function and returns its result.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Binds the sequence with a curried binder function: `binder(self)(curriedArgument)`.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Subscribes an element handler that also receives `object`, held weakly; once
    /// `object` is gone the handler is skipped. An error is a programming error.
    public func bind<Object: AnyObject>(with object: Object, onNext: @escaping (Object, Element) -> Void) -> Disposable {
        subscribe(onNext: weakly(object, onNext), onError: { error in rxBindingError(error) })
    }

    /// Subscribes an element handler. An error is a programming error.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        subscribe(onNext: onNext, onError: { error in rxBindingError(error) })
    }
}
