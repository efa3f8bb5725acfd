import RxSwift

extension InfallibleType {
    /// Subscribes and passes every element to each of `relays` (`accept`); the
    /// completion leaves them as they are.
    ///
    /// - returns: The subscription; disposing it stops the binding.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        asObservable().bind(relays) { relay, element in relay.accept(element) }
    }

    /// Subscribes and passes every element, as an optional, to each of `relays`.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        asObservable().bind(relays) { relay, element in relay.accept(element) }
    }

    /// Subscribes and makes every element the current value of each of `relays`.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        asObservable().bind(relays) { relay, element in relay.accept(element) }
    }

    /// Subscribes and makes every element, as an optional, the current value of each of `relays`.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        asObservable().bind(relays) { relay, element in relay.accept(element) }
    }

    /// Subscribes and passes every element to each of `relays`, which buffer it for replay.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        asObservable().bind(relays) { relay, element in relay.accept(element) }
    }

    /// Subscribes and passes every element, as an optional, to each of `relays`.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        asObservable().bind(relays) { relay, element in relay.accept(element) }
    }
}

extension PublishRelay {
    /// The relay as an `Infallible`, which it is: a relay never fails nor completes.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

extension BehaviorRelay {
    /// The relay as an `Infallible`: its current value, then every new one.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

extension ReplayRelay {
    /// The relay as an `Infallible`: its buffered values, then every new one.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}
