import RxSwift

extension ObservableType {
    /// Subscribes every observer in `observers`: each receives every event. What
    /// `bind(to:)`, `drive(_:)` and `emit(to:)` do with several observers.
    func subscribe<Observer: ObserverType>(every observers: [Observer]) -> Disposable where Observer.Element == Element {
        subscribe { event in
            for observer in observers { observer.on(event) }
        }
    }

    /// `subscribe(every:)` for observers of optionals: each receives every element
    /// wrapped in an optional.
    func subscribe<Observer: ObserverType>(every observers: [Observer]) -> Disposable where Observer.Element == Element? {
        map { $0 as Element? }.subscribe(every: observers)
    }
}

/// An element handler that passes each element to every relay in `relays` through
/// `accept`: what `drive(_:)` and `emit(to:)` do with several relays.
func acceptingEach<Relay, Element>(_ relays: [Relay], _ accept: @escaping (Relay, Element) -> Void) -> (Element) -> Void {
    { element in
        for relay in relays { accept(relay, element) }
    }
}
