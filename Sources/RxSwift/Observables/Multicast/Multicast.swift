extension ObservableType {
    /// A connectable sequence that, once connected, pushes the source's events into
    /// `subject`, whose observers are the connectable's observers.
    ///
    /// The same subject serves every connection: after the source terminates, later
    /// observers get the subject's terminal state.
    ///
    /// - parameter subject: The subject the source's events go into.
    /// - returns: A connectable sequence; `connect()` subscribes the subject to the source.
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: { subject })
    }

    /// A connectable sequence that, once connected, pushes the source's events into a
    /// subject made by `makeSubject`, whose observers are the connectable's observers.
    ///
    /// The subject is dropped when a connection ends (disposed, or the source
    /// terminated); the next observer or connection gets a fresh one.
    ///
    /// - parameter makeSubject: Makes the subject of each connection.
    /// - returns: A connectable sequence; `connect()` subscribes the subject to the source.
    public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: makeSubject)
    }

    /// For each subscription, makes a subject with `subjectSelector`, builds a sequence
    /// from the multicast source with `selector`, subscribes to it, then connects.
    ///
    /// ```
    /// source:   --1--2--3--|
    /// multicast({ PublishSubject() }) { zip($0, $0) { $0 + $1 } }
    /// result:   --2--4--6--|
    /// ```
    ///
    /// - parameter subjectSelector: Makes the subject of one subscription.
    /// - parameter selector: Builds the result from the shared source; it may use it any
    ///   number of times.
    /// - returns: The sequence `selector` built; a thrown error becomes an error event.
    public func multicast<Subject: SubjectType, Result>(
        _ subjectSelector: @escaping () throws -> Subject,
        selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
    ) -> Observable<Result> where Subject.Observer.Element == Element {
        Multicast(source: asObservable(), subjectSelector: subjectSelector, selector: selector)
    }

    /// A connectable sequence that shares one subscription to the source among its
    /// observers: `multicast(makeSubject: { PublishSubject() })`.
    ///
    /// ```
    /// source:     --1--2--3--4--|
    /// connect at:    ^
    /// observer:   -----2--3--4--|
    /// ```
    public func publish() -> ConnectableObservable<Element> {
        multicast(makeSubject: { PublishSubject<Element>() })
    }

    /// A connectable sequence that shares one subscription to the source and replays
    /// up to `bufferSize` elements to each new observer:
    /// `multicast(makeSubject: { ReplaySubject.create(bufferSize: bufferSize) })`.
    ///
    /// - parameter bufferSize: The most elements replayed to a new observer.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        precondition(bufferSize >= 0, "Rivulet: replay(_:) needs a buffer size of 0 or more, got \(bufferSize).")
        return multicast(makeSubject: { ReplaySubject<Element>.create(bufferSize: bufferSize) })
    }

    /// A connectable sequence that shares one subscription to the source and replays
    /// every element of the connection to each new observer:
    /// `multicast(makeSubject: { ReplaySubject.createUnbounded() })`.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject<Element>.createUnbounded() })
    }
}

final class Multicast<Subject: SubjectType, Result>: Producer<Result>, @unchecked Sendable {
    typealias SubjectSelector = () throws -> Subject
    typealias Selector = (Observable<Subject.Element>) throws -> Observable<Result>

    private let source: Observable<Subject.Observer.Element>
    private let subjectSelector: SubjectSelector
    private let selector: Selector

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(source: Observable<Subject.Observer.Element>, subjectSelector: @escaping SubjectSelector, selector: @escaping Selector) {
        self.source = source
        self.subjectSelector = subjectSelector
        self.selector = selector
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Result {
        let sink = PassThroughSink(observer: observer)
        do {
            let subject = try subjectSelector()
            let connectable = ConnectableObservableAdapter(source: source, makeSubject: { subject })
            let result = try selector(connectable)
            let subscription = result.subscribe(sink)
            let connection = connectable.connect()
            sink.setUpstream(Disposables.create(subscription, connection))
        } catch {
            sink.on(.error(error))
        }
        return sink
    }
}
