import RxSwift

/// A type that converts to a `ControlEvent`.
public protocol ControlEventType: ObservableType {
    /// The value as a `ControlEvent`.
    func asControlEvent() -> ControlEvent<Element>
}

/// The events of a user interface control (a tap, an edit).
///
/// It never fails, does not send an element when subscribed, subscribes to its
/// source on the main scheduler, and delivers on the main scheduler (when the source
/// does, as the control's events do).
public struct ControlEvent<PropertyType>: ControlEventType, Sendable {
    public typealias Element = PropertyType

    let events: Observable<PropertyType>

    /// A control event over `events`, which must never fail and must deliver on the
    /// main scheduler.
    public init<Ev: ObservableType>(events: Ev) where Ev.Element == Element {
        self.events = events.subscribe(on: ConcurrentMainScheduler.instance)
    }

    /// Subscribes `observer` to the events.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        events.subscribe(observer)
    }

    /// The events as an `Observable`.
    public func asObservable() -> Observable<Element> {
        events
    }

    /// The control event itself.
    public func asControlEvent() -> ControlEvent<Element> {
        self
    }
}
