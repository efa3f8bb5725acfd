extension ObservableType {
    /// An observable whose subscriptions run `subscribe`.
    ///
    /// The observer passed to `subscribe` enforces the Rx grammar: events after the
    /// first terminal event, or after disposal, are dropped.
    public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> Disposable) -> Observable<Element> {
        AnonymousObservable(subscribe)
    }
}

final class AnonymousObservable<Element>: Producer<Element>, @unchecked Sendable {
    typealias SubscribeHandler = (AnyObserver<Element>) -> Disposable

    private let handler: SubscribeHandler

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(_ handler: @escaping SubscribeHandler) {
        self.handler = handler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = PassThroughSink(observer: observer)
        if let tracker = sink.tracker {
            sink.trackAs("create")
            // A test kit is watching: check the grammar of what the handler sends.
            sink.setUpstream(handler(AnyObserver(CreateGrammarObserver(AnyObserver(sink), tracker: tracker))))
            return sink
        }
        sink.setUpstream(handler(AnyObserver(sink)))
        return sink
    }
}

extension ObservableType {
    /// An observable that subscribes to the observable `observableFactory` returns,
    /// calling it anew for every subscription.
    public static func deferred(_ observableFactory: @escaping () throws -> Observable<Element>) -> Observable<Element> {
        Deferred(observableFactory)
    }
}

final class Deferred<Element>: Producer<Element>, @unchecked Sendable {
    private let factory: () throws -> Observable<Element>

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(_ factory: @escaping () throws -> Observable<Element>) {
        self.factory = factory
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = PassThroughSink(observer: observer)
        do {
            sink.setUpstream(try factory().subscribe(sink))
        } catch {
            sink.on(.error(error))
        }
        return sink
    }
}

extension ObservableType {
    /// An observable that creates a resource for each subscription, builds the
    /// sequence from it, and disposes the resource when the subscription ends.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>
    ) -> Observable<Element> {
        Observable.create { observer in
            let resource: Resource
            do {
                resource = try resourceFactory()
            } catch {
                observer.on(.error(error))
                return Disposables.create()
            }
            do {
                let source = try observableFactory(resource)
                return Disposables.create(source.subscribe(observer), resource)
            } catch {
                observer.on(.error(error))
                return resource
            }
        }
    }
}
