import RxSwift

/// A relay cannot receive an error: binding a failing sequence to one is a programming
/// error. Debug builds stop with the message (inside a test, the test fails instead);
/// release builds print it.
func bindingErrorToRelay(_ error: Swift.Error, relay: String, file: StaticString = #file, line: UInt = #line) {
    rxFatalErrorInDebug("Binding error to \(relay): \(error)", file: file, line: line)
}

extension ObservableType {
    /// Subscribes and passes every element to each of `relays` (`accept`).
    ///
    /// A completed source leaves the relays as they are; an error is a programming error.
    ///
    /// - returns: The subscription; disposing it stops the binding.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bind(relays) { relay, element in relay.accept(element) }
    }

    /// Subscribes and passes every element, as an optional, to each of `relays`.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        bind(relays) { relay, element in relay.accept(element) }
    }

    /// Subscribes and makes every element the current value of each of `relays`.
    ///
    /// A completed source leaves the relays as they are; an error is a programming error.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bind(relays) { relay, element in relay.accept(element) }
    }

    /// Subscribes and makes every element, as an optional, the current value of each of `relays`.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        bind(relays) { relay, element in relay.accept(element) }
    }

    /// Subscribes and passes every element to each of `relays`, which buffer it for replay.
    ///
    /// A completed source leaves the relays as they are; an error is a programming error.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        bind(relays) { relay, element in relay.accept(element) }
    }

    /// Subscribes and passes every element, as an optional, to each of `relays`.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        bind(relays) { relay, element in relay.accept(element) }
    }

    /// The binding behind every `bind(to:)` of a relay, for observables and
    /// infallibles alike: `accept` passes each element to each relay; an error is a
    /// programming error (an infallible never sends one).
    func bind<Relay>(_ relays: [Relay], accept: @escaping (Relay, Element) -> Void) -> Disposable {
        let name = "\(Relay.self)"
        return subscribe { event in
            switch event {
            case .next(let element):
                for relay in relays { accept(relay, element) }
            case .error(let error):
                bindingErrorToRelay(error, relay: name)
            case .completed:
                break
            }
        }
    }
}
