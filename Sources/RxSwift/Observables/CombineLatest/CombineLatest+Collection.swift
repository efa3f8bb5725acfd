extension ObservableType {
    /// Combines the latest elements of every source in `collection` with `resultSelector`
    /// each time one of them emits, once each has emitted at least once.
    ///
    /// ```
    /// a:      --1-----2-----------|
    /// b:      -----x-----y--z--|
    /// combineLatest([a, b]) { $0.joined() }
    /// result: -----1x-2x-2y-2z----|
    /// ```
    ///
    /// It completes when every source has completed, or as soon as a source emits while
    /// all the others completed without ever emitting. An empty collection produces
    /// `resultSelector([])` and completes.
    ///
    /// - parameter resultSelector: Receives the latest element of each source, in the
    ///   collection's order.
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Observable<Element> where Collection.Element: ObservableType {
        makeCombineLatestCollection(collection, resultSelector: resultSelector)
    }

    /// Combines the latest elements of every source in `collection` into an array each
    /// time one of them emits, once each has emitted at least once.
    ///
    /// ```
    /// a:      --1-----2-----|
    /// b:      -----3-----4--|
    /// combineLatest([a, b])
    /// result: -----A--B--C--|    A = [1, 3], B = [2, 3], C = [2, 4]
    /// ```
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection) -> Observable<[Element]>
        where Collection.Element: ObservableType, Collection.Element.Element == Element {
        makeCombineLatestCollection(collection) { $0 }
    }
}

private func makeCombineLatestCollection<Collection: Swift.Collection, Result>(
    _ collection: Collection,
    resultSelector: @escaping ([Collection.Element.Element]) throws -> Result
) -> Observable<Result> where Collection.Element: ObservableType {
    makeCombiningCollection(collection, rule: .combineLatest, makeStore: { LatestStore() }, resultSelector: resultSelector)
}
