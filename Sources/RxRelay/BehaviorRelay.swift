import RxSwift

/// A wrapper around `BehaviorSubject` that never terminates: it holds a current value,
/// replays it to each new observer and then passes on every accepted element.
///
/// ```
/// init(value: 0), accept: ---1---2---
/// observer A              ^0-1---2---
/// observer B                   ^1-2---
/// ```
public final class BehaviorRelay<Element>: ObservableType, @unchecked Sendable {
    private let subject: BehaviorSubject<Element>

    /// A relay whose current value is `value`.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// The current value: the last accepted element, or the initial value.
    public var value: Element {
        do {
            return try subject.value()
        } catch {
            // The subject is private and never receives an error nor `dispose()`.
            rxFatalError("BehaviorRelay's subject failed unexpectedly: \(error)")
        }
    }

    /// Makes `event` the current value and sends it to every current observer.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer`: it receives the current value at once, then every accepted element.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an `Observable` (which never errors and never completes).
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }
}
