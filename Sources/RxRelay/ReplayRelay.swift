import RxSwift

/// A wrapper around `ReplaySubject` that never terminates: each new observer first
/// receives the buffered elements, then every accepted element.
///
/// ```
/// create(bufferSize: 2), accept: ---1---2---3------
/// observer (late)                              ^2-3-
/// ```
public final class ReplayRelay<Element>: ObservableType, @unchecked Sendable {
    private let subject: ReplaySubject<Element>

    private init(subject: ReplaySubject<Element>) {
        self.subject = subject
    }

    /// A relay that replays up to `bufferSize` of the most recent elements.
    public static func create(bufferSize: Int) -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.create(bufferSize: bufferSize))
    }

    /// A relay that replays every element it ever accepted.
    public static func createUnbound() -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.createUnbounded())
    }

    /// Buffers `event` and sends it to every current observer.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer`: it receives the buffered elements at once, then every accepted element.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an `Observable` (which never errors and never completes).
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }
}
