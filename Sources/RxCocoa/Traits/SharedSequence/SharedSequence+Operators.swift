import RxSwift

// Each operator applies the `Observable` operator of the same name and keeps the
// sharing strategy: the result is shared again, and timed operators run on the
// strategy's scheduler.

// MARK: - Transforming

extension SharedSequenceConvertibleType {
    /// Transforms each element.
    public func map<Result>(_ selector: @escaping (Element) -> Result) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().map(selector))
    }

    /// Transforms each element into an optional and passes on the non-`nil` results.
    public func compactMap<Result>(_ selector: @escaping (Element) -> Result?) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().compactMap(selector))
    }

    /// Passes on only the elements that satisfy `predicate`.
    public func filter(_ predicate: @escaping (Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().filter(predicate))
    }

    /// Emits each intermediate result of accumulating the elements from `seed`.
    public func scan<A>(_ seed: A, accumulator: @escaping (A, Element) -> A) -> SharedSequence<SharingStrategy, A> {
        SharedSequence(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Emits each intermediate result of accumulating the elements into `seed` in place.
    public func scan<A>(into seed: A, accumulator: @escaping (inout A, Element) -> Void) -> SharedSequence<SharingStrategy, A> {
        SharedSequence(asObservable().scan(into: seed, accumulator: accumulator))
    }

    /// Emits `element` first, then the sequence.
    public func startWith(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().startWith(element))
    }

    /// Drops the first `count` elements.
    public func skip(_ count: Int) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().skip(count))
    }

}

// MARK: - withUnretained

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Combines each element with `obj`, held weakly, by `resultSelector`; the signal
    /// completes at the first element that arrives once `obj` is gone.
    ///
    /// ```
    /// source: --1--2-----3--
    /// obj:    alive   |gone
    /// result: --a--b-----|
    /// ```
    ///
    /// Only `Signal` has it, as in RxSwift; a `Driver` would replay the pair, and with it
    /// the object, to every later observer: use `drive(with:onNext:)` instead.
    public func withUnretained<Object: AnyObject, Out>(_ obj: Object, resultSelector: @escaping (Object, Element) -> Out) -> SharedSequence<SharingStrategy, Out> {
        SharedSequence(asObservable().withUnretained(obj, resultSelector: resultSelector))
    }

    /// Pairs each element with `obj`, held weakly; the signal completes at the first
    /// element that arrives once `obj` is gone.
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> SharedSequence<SharingStrategy, (Object, Element)> {
        withUnretained(obj) { ($0, $1) }
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Not available on `Driver`, as in RxSwift: use `drive(with:onNext:onCompleted:onDisposed:)`.
    @available(*, unavailable, message: "withUnretained is unavailable on Driver: use drive(with:onNext:onCompleted:onDisposed:)")
    public func withUnretained<Object: AnyObject, Out>(_ obj: Object, resultSelector: @escaping (Object, Element) -> Out) -> SharedSequence<SharingStrategy, Out> {
        SharedSequence(asObservable().withUnretained(obj, resultSelector: resultSelector))
    }

    /// Not available on `Driver`, as in RxSwift: use `drive(with:onNext:onCompleted:onDisposed:)`.
    @available(*, unavailable, message: "withUnretained is unavailable on Driver: use drive(with:onNext:onCompleted:onDisposed:)")
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> SharedSequence<SharingStrategy, (Object, Element)> {
        SharedSequence(asObservable().withUnretained(obj) { ($0, $1) })
    }
}

// MARK: - Side effects

extension SharedSequenceConvertibleType {
    /// Calls the given actions for the events and the subscription's life cycle, and
    /// passes every event on unchanged.
    public func `do`(
        onNext: ((Element) -> Void)? = nil,
        afterNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        afterCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().do(
            onNext: onNext,
            afterNext: afterNext,
            onCompleted: onCompleted,
            afterCompleted: afterCompleted,
            onSubscribe: onSubscribe,
            onSubscribed: onSubscribed,
            onDispose: onDispose
        ))
    }

    /// Prints every event and the subscription's life cycle, as `Observable.debug` does.
    public func debug(
        _ identifier: String? = nil,
        trimOutput: Bool = false,
        file: String = #file,
        line: UInt = #line,
        function: String = #function
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}

// MARK: - Distinct

extension SharedSequenceConvertibleType where Element: Equatable {
    /// Drops each element equal to the one before it.
    public func distinctUntilChanged() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged({ $0 }, comparer: { $0 == $1 }))
    }
}

extension SharedSequenceConvertibleType {
    /// Drops each element whose key equals the key of the one before it.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) -> Key) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(keySelector, comparer: { $0 == $1 }))
    }

    /// Drops each element that `comparer` finds equal to the one before it.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged({ $0 }, comparer: comparer))
    }

    /// Drops each element whose key `comparer` finds equal to the key of the one before it.
    public func distinctUntilChanged<K>(_ keySelector: @escaping (Element) -> K, comparer: @escaping (K, K) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Drops each element whose property at `keyPath` equals that of the one before it.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged { $0[keyPath: keyPath] == $1[keyPath: keyPath] })
    }
}

// MARK: - Time

extension SharedSequenceConvertibleType {
    /// Emits the first element of each `dueTime` window and, with `latest`, the last
    /// one at the window's end (on the strategy's scheduler).
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().throttle(dueTime, latest: latest, scheduler: SharingStrategy.scheduler))
    }

    /// Emits an element only once `dueTime` passed without a newer one (on the
    /// strategy's scheduler).
    public func debounce(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().debounce(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Shifts every element by `dueTime` (on the strategy's scheduler).
    public func delay(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().delay(dueTime, scheduler: SharingStrategy.scheduler))
    }
}

// MARK: - Collections

extension SharedSequence {
    /// Pairs the n-th elements of all `collection`'s sequences with `resultSelector`.
    public static func zip<Collection: Swift.Collection, Result>(_ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result) -> SharedSequence<SharingStrategy, Result> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Result>(Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Pairs the n-th elements of all `collection`'s sequences into arrays.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> SharedSequence<SharingStrategy, [Element]> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, [Element]>(Observable.zip(collection.map { $0.asObservable() }))
    }

    /// Combines the latest elements of all `collection`'s sequences with
    /// `resultSelector` each time one emits, once all have.
    public static func combineLatest<Collection: Swift.Collection, Result>(_ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result) -> SharedSequence<SharingStrategy, Result> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Result>(Observable.combineLatest(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Combines the latest elements of all `collection`'s sequences into arrays each
    /// time one emits, once all have.
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection) -> SharedSequence<SharingStrategy, [Element]> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, [Element]>(Observable.combineLatest(collection.map { $0.asObservable() }))
    }
}
