import RxSwift

// The higher-order and combining operators of shared sequences. Each applies the
// `Observable` operator of the same name and shares the result again with the sharing
// strategy of the result type. The inputs are shared sequences, so they already deliver
// on the strategy's scheduler and never fail; nothing needs to be re-scheduled.

// MARK: - Flattening

extension SharedSequenceConvertibleType {
    /// Projects each element to a shared sequence and merges the elements of all of them.
    ///
    /// ```
    /// source: --a-----b--------
    /// a:        1--2|            (made for a)
    /// b:              3--4|      (made for b)
    /// result: --1--2--3--4-----
    /// ```
    ///
    /// - parameter selector: Makes the shared sequence of an element.
    /// - returns: A shared sequence of the result's strategy with the elements of every
    ///   projected sequence, in the order they arrive.
    public func flatMap<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMap(selector))
    }

    /// Projects each element to a shared sequence and passes on the elements of only the
    /// latest one: each new element ends the subscription to the previous sequence.
    ///
    /// ```
    /// source: --a-----b-----------
    /// a:        1--2-----3|       (3 comes after b: dropped)
    /// b:              4--5|
    /// result: --1--2--4--5--------
    /// ```
    ///
    /// - parameter selector: Makes the shared sequence of an element.
    public func flatMapLatest<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMapLatest(selector))
    }

    /// Projects an element to a shared sequence only while no projected sequence is
    /// running, and passes on its elements; elements that arrive meanwhile are dropped.
    ///
    /// ```
    /// source: --a--b-----c------
    /// a:        1-----2|          (b arrives while a runs: dropped)
    /// c:                 3--4|
    /// result: --1-----2--3--4---
    /// ```
    ///
    /// - parameter selector: Makes the shared sequence of an element; not called for the
    ///   dropped elements.
    public func flatMapFirst<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMapFirst(selector))
    }
}

extension SharedSequenceConvertibleType where Element: SharedSequenceConvertibleType {
    /// Passes on the elements of the latest inner shared sequence: each new inner
    /// sequence ends the subscription to the previous one.
    ///
    /// - returns: A shared sequence of the inner sequences' strategy.
    public func switchLatest() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().map { $0.asSharedSequence() }.switchLatest())
    }

    /// Merges the elements of every inner shared sequence, in the order they arrive.
    ///
    /// - returns: A shared sequence of the inner sequences' strategy.
    public func merge() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().map { $0.asSharedSequence() }.merge())
    }

    /// Merges the elements of the inner shared sequences, subscribed to at most
    /// `maxConcurrent` at a time; the others wait, in order, for a running one to
    /// complete.
    ///
    /// - parameter maxConcurrent: The largest number of inner sequences subscribed at
    ///   once; at least 1.
    public func merge(maxConcurrent: Int) -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().map { $0.asSharedSequence() }.merge(maxConcurrent: maxConcurrent))
    }
}

// MARK: - Merging

extension SharedSequenceConvertibleType {
    /// Merges the elements of every shared sequence of `sources`, in the order they arrive.
    ///
    /// ```
    /// a:      --1-----3--|
    /// b:      ----2-----4---|
    /// result: --1-2---3-4---|
    /// ```
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> SharedSequence<SharingStrategy, Element>
        where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of every shared sequence of `sources`, in the order they arrive.
    public static func merge(_ sources: [SharedSequence<SharingStrategy, Element>]) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of every shared sequence of `sources`, in the order they arrive.
    public static func merge(_ sources: SharedSequence<SharingStrategy, Element>...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }
}

// MARK: - Concatenating

extension SharedSequence {
    /// Concatenates the shared sequences of `sequence`: each is subscribed once the
    /// previous one completed. `sequence` is read lazily, one sequence at a time.
    ///
    /// ```
    /// a:      --1--2|
    /// b:            --3|   (subscribed when a completes)
    /// result: --1--2--3|
    /// ```
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> SharedSequence<SharingStrategy, Element>
        where Sequence.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// Concatenates the shared sequences of `collection`: each is subscribed once the
    /// previous one completed.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> SharedSequence<SharingStrategy, Element>
        where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(collection.map { $0.asObservable() }))
    }
}

// MARK: - withLatestFrom

extension SharedSequenceConvertibleType {
    /// Combines each element with the latest element of `second` by `resultSelector`;
    /// elements that arrive before `second` has emitted are dropped.
    ///
    /// ```
    /// self:   --1-----2---3--
    /// second: ----a-----b----
    /// result: --------2a--3b-
    /// ```
    ///
    /// - parameter second: The shared sequence whose latest element is taken; of the
    ///   same strategy.
    /// - parameter resultSelector: Combines an element of `self` with that latest element.
    public func withLatestFrom<SecondO: SharedSequenceConvertibleType, ResultType>(_ second: SecondO, resultSelector: @escaping (Element, SecondO.Element) -> ResultType) -> SharedSequence<SharingStrategy, ResultType>
        where SecondO.SharingStrategy == SharingStrategy {
        SharedSequence(asObservable().withLatestFrom(second.asSharedSequence(), resultSelector: resultSelector))
    }

    /// Emits the latest element of `second` each time `self` emits; elements of `self`
    /// that arrive before `second` has emitted are dropped.
    ///
    /// - parameter second: The shared sequence whose latest element is emitted.
    public func withLatestFrom<SecondO: SharedSequenceConvertibleType>(_ second: SecondO) -> SharedSequence<SharingStrategy, SecondO.Element> {
        SharedSequence(asObservable().withLatestFrom(second.asSharedSequence()))
    }
}
