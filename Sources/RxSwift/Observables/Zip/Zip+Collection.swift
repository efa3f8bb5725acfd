extension ObservableType {
    /// Combines the elements of every source in `collection` with `resultSelector`, pairing
    /// each source's n-th element with the n-th element of the others.
    ///
    /// ```
    /// a:      --1-----2-----3--|
    /// b:      -----x-----y-----|
    /// zip([a, b]) { $0.joined() }
    /// result: -----1x----2y----|
    /// ```
    ///
    /// It completes when every source has completed, or as soon as a source emits while
    /// every other source is done. An empty collection completes at once.
    ///
    /// - parameter resultSelector: Receives one element of each source, in the
    ///   collection's order.
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Observable<Element> where Collection.Element: ObservableType {
        makeZipCollection(collection, resultSelector: resultSelector)
    }

    /// Combines the elements of every source in `collection` into arrays, pairing each
    /// source's n-th element with the n-th element of the others.
    ///
    /// ```
    /// a:      --1-----2-----3--|
    /// b:      -----4-----5-----|
    /// zip([a, b])
    /// result: -----[1,4]-[2,5]-|
    /// ```
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> Observable<[Element]>
        where Collection.Element: ObservableType, Collection.Element.Element == Element {
        makeZipCollection(collection) { $0 }
    }
}

private func makeZipCollection<Collection: Swift.Collection, Result>(
    _ collection: Collection,
    resultSelector: @escaping ([Collection.Element.Element]) throws -> Result
) -> Observable<Result> where Collection.Element: ObservableType {
    makeCombiningCollection(collection, rule: .zipCollection, makeStore: { ZipStore() }, resultSelector: resultSelector)
}
