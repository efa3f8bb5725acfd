import RxSwift

/// A wrapper around `PublishSubject` that never terminates: it only accepts elements.
///
/// Observers receive the elements accepted after they subscribed.
///
/// ```
/// accept:    ---1---2---3---
/// observer A ^--1---2---3---
/// observer B       ^2---3---
/// ```
public final class PublishRelay<Element>: ObservableType, @unchecked Sendable {
    private let subject: PublishSubject<Element>

    /// A relay with no observers.
    public init() {
        subject = PublishSubject()
    }

    /// Sends `event` as a `next` element to every current observer.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer` to the elements accepted from now on.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an `Observable` (which never errors and never completes).
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }
}
