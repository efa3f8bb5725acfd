import RxSwift

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Subscribes every observer in `observers`: each receives every event.
    public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        asSharedSequence().asObservable().subscribe(every: observers)
    }

    /// Subscribes every observer of optionals in `observers`: each receives every
    /// element wrapped in an optional.
    public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        asSharedSequence().asObservable().subscribe(every: observers)
    }

    /// Makes every element the value of each of `relays`.
    public func emit(to relays: BehaviorRelay<Element>...) -> Disposable {
        emit(onNext: acceptingEach(relays) { relay, element in relay.accept(element) })
    }

    /// Makes every element, as an optional, the value of each of `relays`.
    public func emit(to relays: BehaviorRelay<Element?>...) -> Disposable {
        emit(onNext: acceptingEach(relays) { relay, element in relay.accept(element) })
    }

    /// Passes every element to each of `relays`.
    public func emit(to relays: PublishRelay<Element>...) -> Disposable {
        emit(onNext: acceptingEach(relays) { relay, element in relay.accept(element) })
    }

    /// Passes every element, as an optional, to each of `relays`.
    public func emit(to relays: PublishRelay<Element?>...) -> Disposable {
        emit(onNext: acceptingEach(relays) { relay, element in relay.accept(element) })
    }

    /// Passes every element to each of `relays`.
    public func emit(to relays: ReplayRelay<Element>...) -> Disposable {
        emit(onNext: acceptingEach(relays) { relay, element in relay.accept(element) })
    }

    /// Passes every element, as an optional, to each of `relays`.
    public func emit(to relays: ReplayRelay<Element?>...) -> Disposable {
        emit(onNext: acceptingEach(relays) { relay, element in relay.accept(element) })
    }

    /// Subscribes handlers that also receive `object`, held weakly; once `object` is
    /// gone the handlers are skipped.
    public func emit<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes element, completion and disposal handlers (a `Signal` cannot fail).
    public func emit(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes without handlers.
    public func emit() -> Disposable {
        emit(onNext: nil, onCompleted: nil, onDisposed: nil)
    }
}
