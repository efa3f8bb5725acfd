import RxSwift

/// A type that is both the values of a property and the observer that sets it.
public protocol ControlPropertyType: ObservableType, ObserverType {
    /// The value as a `ControlProperty`.
    func asControlProperty() -> ControlProperty<Element>
}

/// A property of a user interface control: observing it gives its current value and
/// every change; sending it elements sets it.
///
/// It never fails, subscribes to its values on the main scheduler, and sets the
/// property through `valueSink`. An error sent to it is a programming error.
public struct ControlProperty<PropertyType>: ControlPropertyType {
    public typealias Element = PropertyType

    let values: Observable<PropertyType>
    let valueSink: AnyObserver<PropertyType>

    /// A control property over `values` (the current value first, then the changes)
    /// and `valueSink` (which sets the property).
    public init<Values: ObservableType, Sink: ObserverType>(values: Values, valueSink: Sink) where Element == Values.Element, Element == Sink.Element {
        self.values = values.subscribe(on: ConcurrentMainScheduler.instance)
        self.valueSink = valueSink.asObserver()
    }

    /// Subscribes `observer` to the property's values.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        values.subscribe(observer)
    }

    /// The values as an `Observable`.
    public func asObservable() -> Observable<Element> {
        values
    }

    /// The changes of the property: its values without the current one sent at
    /// subscription.
    public var changed: ControlEvent<PropertyType> {
        ControlEvent(events: values.skip(1))
    }

    /// The control property itself.
    public func asControlProperty() -> ControlProperty<Element> {
        self
    }

    /// Sets the property for `next`; passes completion on; an error is a programming error.
    public func on(_ event: Event<Element>) {
        switch event {
        case .error(let error):
            rxBindingError(error)
        case .next, .completed:
            valueSink.on(event)
        }
    }
}

extension ControlPropertyType where Element == String? {
    /// The property with `nil` read as the empty string.
    public var orEmpty: ControlProperty<String> {
        let original: ControlProperty<String?> = asControlProperty()
        let values: Observable<String> = original.values.map { $0 ?? "" }
        let valueSink: AnyObserver<String> = original.valueSink.mapObserver { $0 }
        return ControlProperty<String>(values: values, valueSink: valueSink)
    }
}
