// The flattening and combining operators of `Infallible`, each a wrapper over the
// `Observable` operator of the same name.
//
// As in RxSwift, the projecting operators accept any `ObservableConvertibleType`: the
// result stays infallible only as long as the projected sequences never fail, which
// the caller vouches for by choosing `Infallible`.

// MARK: - Flattening

extension InfallibleType {
    /// Projects each element to a sequence and merges the elements of all of them, in
    /// the order they arrive.
    ///
    /// ```
    /// source: --1-----2-----------|
    /// flatMap { x in --x--x| (cold) }
    /// result: ----1--1--2--2------|
    /// ```
    ///
    /// - parameter selector: Makes the sequence of an element; it must not fail.
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMap(selector))
    }

    /// Projects each element to a sequence and passes on the elements of only the latest
    /// one: each new element ends the subscription to the previous sequence.
    ///
    /// - parameter selector: Makes the sequence of an element; it must not fail.
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMapLatest(selector))
    }

    /// Projects an element to a sequence only while no projected sequence is running,
    /// and passes on its elements; elements that arrive meanwhile are dropped.
    ///
    /// - parameter selector: Makes the sequence of an element; it must not fail, and
    ///   it is not called for the dropped elements.
    public func flatMapFirst<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMapFirst(selector))
    }

    /// Projects each element to a sequence and concatenates them: each projected
    /// sequence is subscribed once the previous one completed.
    ///
    /// - parameter selector: Makes the sequence of an element; it must not fail.
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().concatMap(selector))
    }
}

// MARK: - Concatenating

extension InfallibleType {
    /// The elements of `self`, then, once it completed, those of `second`.
    ///
    /// ```
    /// self:   --1--2--|
    /// second:         --3--|  (subscribed when self completes)
    /// result: --1--2----3--|
    /// ```
    ///
    /// - parameter second: The sequence that follows; it must not fail.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Infallible<Element> where Source.Element == Element {
        Infallible(asObservable().concat(second))
    }

    /// Concatenates the infallibles of `sequence`: each is subscribed once the previous
    /// one completed. `sequence` is read lazily, one infallible at a time.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Infallible<Element>
        where Sequence.Element == Infallible<Element> {
        Infallible(Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// Concatenates the infallibles of `collection`: each is subscribed once the previous
    /// one completed.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Infallible<Element>
        where Collection.Element == Infallible<Element> {
        Infallible(Observable.concat(collection.map { $0.asObservable() }))
    }

    /// Concatenates `sources`: each is subscribed once the previous one completed.
    public static func concat(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.concat(sources.map { $0.asObservable() }))
    }
}

// MARK: - Merging

extension InfallibleType {
    /// Merges the elements of every infallible of `sources`, in the order they arrive.
    ///
    /// ```
    /// a:      --1-----3--|
    /// b:      ----2-----4---|
    /// result: --1-2---3-4---|
    /// ```
    ///
    /// RxSwift 6 concatenates here, against its own documentation; Rivulet merges, as
    /// the name and the array and variadic overloads do.
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Infallible<Element>
        where Collection.Element == Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of every infallible of `sources`, in the order they arrive.
    public static func merge(_ sources: [Infallible<Element>]) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of every infallible of `sources`, in the order they arrive.
    public static func merge(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }
}

// MARK: - withLatestFrom

extension InfallibleType {
    /// Combines each element with the latest element of `second` by `resultSelector`;
    /// elements that arrive before `second` has emitted are dropped.
    ///
    /// ```
    /// self:   --1-----2---3--
    /// second: ----a-----b----
    /// result: --------2a--3b-
    /// ```
    ///
    /// - parameter second: The sequence whose latest element is combined.
    /// - parameter resultSelector: Combines an element of `self` with the latest element
    ///   of `second`; a thrown error ends the sequence with that error.
    public func withLatestFrom<Source: InfallibleType, ResultType>(_ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> ResultType) -> Infallible<ResultType> {
        Infallible<ResultType>(asObservable().withLatestFrom(second.asObservable(), resultSelector: resultSelector))
    }

    /// Emits the latest element of `second` each time `self` emits; elements of `self`
    /// that arrive before `second` has emitted are dropped.
    public func withLatestFrom<Source: InfallibleType>(_ second: Source) -> Infallible<Source.Element> {
        withLatestFrom(second) { $1 }
    }
}
