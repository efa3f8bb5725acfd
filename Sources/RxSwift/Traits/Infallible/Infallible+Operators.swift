// MARK: - Creation

extension InfallibleType {
    /// An infallible of one element, then completion.
    public static func just(_ element: Element) -> Infallible<Element> {
        Infallible(.just(element))
    }

    /// An infallible of one element, then completion, both sent on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(.just(element, scheduler: scheduler))
    }

    /// An infallible that never sends an event.
    public static func never() -> Infallible<Element> {
        Infallible(.never())
    }

    /// An infallible that completes at once.
    public static func empty() -> Infallible<Element> {
        Infallible(.empty())
    }

    /// An infallible that calls `observableFactory` for every subscription and
    /// subscribes to the infallible it returns.
    public static func deferred(_ observableFactory: @escaping () throws -> Infallible<Element>) -> Infallible<Element> {
        Infallible(.deferred { try observableFactory().asObservable() })
    }
}

extension Infallible {
    /// An infallible of the given elements.
    public static func of(_ elements: Element ..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(Observable.from(elements, scheduler: scheduler))
    }

    /// An infallible of the elements of an array.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(Observable.from(array, scheduler: scheduler))
    }

    /// An infallible of the elements of a sequence.
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> where Sequence.Element == Element {
        Infallible(Observable.from(sequence, scheduler: scheduler))
    }
}

// MARK: - Filter, map

extension InfallibleType {
    /// Passes on only the elements that satisfy `predicate`.
    public func filter(_ predicate: @escaping (Element) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().filter(predicate))
    }

    /// Transforms each element.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> Infallible<Result> {
        Infallible(asObservable().map(transform))
    }

    /// The first `count` elements, then completion.
    public func take(_ count: Int) -> Infallible<Element> {
        Infallible(asObservable().take(count))
    }
}

extension InfallibleType {
    /// Transforms each element into an optional and passes on the non-`nil` results.
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> Infallible<Result> {
        Infallible(asObservable().compactMap(transform))
    }
}

// MARK: - Distinct

extension InfallibleType where Element: Equatable {
    /// Drops each element equal to the one before it.
    public func distinctUntilChanged() -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged())
    }
}

extension InfallibleType {
    /// Drops each element whose key equals the key of the one before it.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(keySelector, comparer: isEqual))
    }

    /// Drops each element that `comparer` finds equal to the one before it.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged({ $0 }, comparer: comparer))
    }

    /// Drops each element whose key `comparer` finds equal to the key of the one before it.
    public func distinctUntilChanged<K>(_ keySelector: @escaping (Element) throws -> K, comparer: @escaping (K, K) throws -> Bool) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Drops each element whose property at `keyPath` equals that of the one before it.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged { $0[keyPath: keyPath] == $1[keyPath: keyPath] })
    }
}

// MARK: - Scan, startWith

extension InfallibleType {
    /// Emits each intermediate result of accumulating the elements into `seed` in place.
    public func scan<Seed>(into seed: Seed, accumulator: @escaping (inout Seed, Element) -> Void) -> Infallible<Seed> {
        Infallible(asObservable().scan(into: seed, accumulator: accumulator))
    }

    /// Emits each intermediate result of accumulating the elements from `seed`.
    public func scan<Seed>(_ seed: Seed, accumulator: @escaping (Seed, Element) -> Seed) -> Infallible<Seed> {
        Infallible(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Emits `element` first, then the sequence.
    public func startWith(_ element: Element) -> Infallible<Element> {
        Infallible(asObservable().startWith(element))
    }
}

// MARK: - Take and skip

extension InfallibleType {
    /// The elements until `other` emits an element (then completion).
    public func take<Source: InfallibleType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().take(until: other.asObservable()))
    }

    /// The elements until `other` emits an element (then completion).
    public func take<Source: ObservableType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().take(until: other))
    }

    /// The elements until one satisfies `predicate` (included with `.inclusive`), then completion.
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Infallible<Element> {
        Infallible(asObservable().take(until: predicate, behavior: behavior))
    }

    /// The elements while they satisfy `predicate` (the first one that does not is
    /// included with `.inclusive`), then completion.
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Infallible<Element> {
        Infallible(asObservable().take(while: predicate, behavior: behavior))
    }

    /// Drops the elements while they satisfy `predicate`, then passes on the rest.
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Infallible<Element> {
        Infallible(asObservable().skip(while: predicate))
    }

    /// Drops the elements until `other` emits an element, then passes on the rest.
    public func skip<Source: ObservableType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().skip(until: other))
    }
}

// MARK: - Share, do, withUnretained, debug

extension InfallibleType {
    /// Shares one subscription to the source among the observers, replaying up to
    /// `replay` elements to each new one (see `Observable.share(replay:scope:)`).
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible<Element> {
        Infallible(asObservable().share(replay: replay, scope: scope))
    }

    /// Pairs each element with `obj`, held weakly; completes once `obj` is gone.
    public func withUnretained<Object: AnyObject, Out>(_ obj: Object, resultSelector: @escaping (Object, Element) -> Out) -> Infallible<Out> {
        Infallible(asObservable().withUnretained(obj, resultSelector: resultSelector))
    }

    /// Pairs each element with `obj`, held weakly; completes once `obj` is gone.
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> Infallible<(Object, Element)> {
        withUnretained(obj) { ($0, $1) }
    }

    /// Prints every event and the subscription's life cycle, as `Observable.debug` does.
    public func debug(
        _ identifier: String? = nil,
        trimOutput: Bool = false,
        file: String = #file,
        line: UInt = #line,
        function: String = #function
    ) -> Infallible<Element> {
        Infallible(asObservable().debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}

extension Infallible {
    /// Calls the given actions for the events and the subscription's life cycle, and
    /// passes every event on unchanged.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Infallible<Element> {
        Infallible(asObservable().do(
            onNext: onNext,
            afterNext: afterNext,
            onCompleted: onCompleted,
            afterCompleted: afterCompleted,
            onSubscribe: onSubscribe,
            onSubscribed: onSubscribed,
            onDispose: onDispose
        ))
    }
}

// MARK: - Collections

extension InfallibleType {
    /// Combines the latest elements of all `collection`'s infallibles with
    /// `resultSelector` each time one emits, once all have.
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element) -> Infallible<Element> where Collection.Element: InfallibleType {
        Infallible(makeCombiningCollection(collection, rule: .combineLatest, resultSelector: resultSelector))
    }

    /// Combines the latest elements of all `collection`'s infallibles each time one
    /// emits, once all have.
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection) -> Infallible<[Element]> where Collection.Element: InfallibleType, Collection.Element.Element == Element {
        Infallible<[Element]>(makeCombiningCollection(collection, rule: .combineLatest) { $0 })
    }
}

extension Infallible {
    /// Pairs the n-th elements of all `collection`'s infallibles with `resultSelector`.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element) -> Infallible<Element> where Collection.Element: InfallibleType {
        Infallible(makeCombiningCollection(collection, rule: .zipCollection, resultSelector: resultSelector))
    }

    /// Pairs the n-th elements of all `collection`'s infallibles into arrays.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> Infallible<[Element]> where Collection.Element: InfallibleType, Collection.Element.Element == Element {
        Infallible<[Element]>(makeCombiningCollection(collection, rule: .zipCollection) { $0 })
    }
}

// MARK: - Time

extension InfallibleType {
    /// Emits an element only once `dueTime` passed without a newer one.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().debounce(dueTime, scheduler: scheduler))
    }

    /// Emits the first element of each `dueTime` window and, with `latest`, the last
    /// one at the window's end.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().throttle(dueTime, latest: latest, scheduler: scheduler))
    }

    /// The elements emitted during `duration` from subscription, then completion.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().take(for: duration, scheduler: scheduler))
    }
}
