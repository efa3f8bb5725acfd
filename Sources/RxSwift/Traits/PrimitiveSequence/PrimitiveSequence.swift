/// An observable sequence with a constraint on its shape, named by `Trait`:
/// `Single` (exactly one element or an error), `Maybe` (at most one element) and
/// `Completable` (no element).
///
/// A value type around an `Observable`; every subscription runs the source anew.
public struct PrimitiveSequence<Trait, Element>: Sendable {
    let source: Observable<Element>

    init(raw: Observable<Element>) {
        source = raw
    }
}

/// A type that is, or converts to, a `PrimitiveSequence`.
public protocol PrimitiveSequenceType {
    /// The shape constraint (`SingleTrait`, `MaybeTrait`, `CompletableTrait`).
    associatedtype Trait
    /// The type of the element.
    associatedtype Element

    /// The value as a primitive sequence.
    var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
    /// The sequence itself.
    public var primitiveSequence: PrimitiveSequence<Trait, Element> {
        self
    }
}

extension PrimitiveSequence: ObservableConvertibleType {
    /// The sequence as an `Observable`.
    public func asObservable() -> Observable<Element> {
        source
    }
}

extension PrimitiveSequence {
    /// A sequence that calls `observableFactory` for every subscription and subscribes
    /// to the sequence it returns; a thrown error becomes the subscription's error.
    public static func deferred(_ observableFactory: @escaping () throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.deferred {
            try observableFactory().asObservable()
        })
    }

    /// Delivers the events on `scheduler`.
    public func observe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.observe(on: scheduler))
    }

    /// Delivers the events on `scheduler`.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        observe(on: scheduler)
    }

    /// Subscribes to (and disposes) the source on `scheduler`.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.subscribe(on: scheduler))
    }

    /// Subscribes to (and disposes) the source on `scheduler`.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        subscribe(on: scheduler)
    }

    /// A sequence that creates a resource for each subscription, builds the sequence
    /// from it, and disposes the resource when the subscription ends.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.using(resourceFactory, observableFactory: { resource in
            try primitiveSequenceFactory(resource).asObservable()
        }))
    }
}

// MARK: - Errors and time

extension PrimitiveSequence {
    /// After an error, continues with the sequence `handler` returns for it; a thrown
    /// error becomes the error.
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.catch { try handler($0).asObservable() })
    }

    /// After an error, continues with the sequence `handler` returns for it.
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(_ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        `catch`(handler)
    }

    /// Subscribes again after an error, up to `maxAttemptCount` subscriptions in all;
    /// the last attempt's error goes through.
    public func retry(_ maxAttemptCount: Int) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(maxAttemptCount))
    }

    /// Subscribes again each time the sequence `notificationHandler` builds from the
    /// errors emits; its completion or error ends the sequence the same way.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Subscribes again each time the sequence `notificationHandler` builds from the
    /// errors emits; its completion or error ends the sequence the same way.
    public func retry<TriggerObservable: ObservableType>(when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Subscribes again each time the trigger emits.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Error: Swift.Error>(_ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable) -> PrimitiveSequence<Trait, Element> {
        retry(when: notificationHandler)
    }

    /// Subscribes again each time the trigger emits.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(_ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable) -> PrimitiveSequence<Trait, Element> {
        retry(when: notificationHandler)
    }

    /// Fails with `RxError.timeout` when the outcome does not arrive within `dueTime`.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, scheduler: scheduler))
    }

    /// Switches to `other` when the outcome does not arrive within `dueTime`.
    public func timeout(_ dueTime: RxTimeInterval, other: PrimitiveSequence<Trait, Element>, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, other: other.source, scheduler: scheduler))
    }

    /// Shifts the outcome by `dueTime` (errors are not delayed).
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delay(dueTime, scheduler: scheduler))
    }

    /// Subscribes to the source `dueTime` after the subscription.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delaySubscription(dueTime, scheduler: scheduler))
    }
}

extension PrimitiveSequence {
    /// Prints every event and the subscription's life cycle, as `Observable.debug` does.
    public func debug(
        _ identifier: String? = nil,
        trimOutput: Bool = false,
        file: String = #file,
        line: UInt = #line,
        function: String = #function
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}

extension PrimitiveSequenceType where Element: RxAbstractInteger {
    /// A sequence that emits `0` after `dueTime` on `scheduler`, then completes.
    public static func timer(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable<Element>.timer(dueTime, scheduler: scheduler))
    }
}

extension PrimitiveSequence {
    /// The collection form of `zip` that Single and Maybe share: `resultSelector` gets
    /// every element once all succeeded; an empty collection succeeds with
    /// `resultSelector([])`, called at subscription.
    static func zipAll<Collection: Swift.Collection, Result>(
        _ collection: Collection,
        resultSelector: @escaping ([Element]) throws -> Result
    ) -> PrimitiveSequence<Trait, Result> where Collection.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty {
            return PrimitiveSequence<Trait, Result>(raw: .deferred { .just(try resultSelector([])) })
        }
        return PrimitiveSequence<Trait, Result>(raw: makeCombiningCollection(collection, rule: .zipCollection, resultSelector: resultSelector))
    }
}
