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

extension SharedSequence {
    /// What a control's sequence (a `ControlEvent`'s or a `ControlProperty`'s, named by
    /// `control`) does after a failure it must never have: stops the program in debug
    /// builds, and ends as an empty sequence otherwise.
    static func recoveringControlFailure(of control: String) -> (Swift.Error) -> SharedSequence<SharingStrategy, Element> {
        { _ in
            #if DEBUG
            rxFatalError("A \(control) failed; its source must never fail.")
            #else
            return SharedSequence.empty()
            #endif
        }
    }
}
