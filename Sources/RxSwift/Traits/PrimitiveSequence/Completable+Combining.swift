// Running several completables one after another (`concat`) or at once (`zip`).

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Completes once `self` and then `second` completed; `second` is subscribed when
    /// `self` completes. The first error ends it.
    ///
    /// ```
    /// self:   ----|
    /// second:     ---|   (subscribed at self's completion)
    /// result: -------|
    /// ```
    public func concat(_ second: Completable) -> Completable {
        Completable.concat(primitiveSequence, second)
    }

    /// Runs the completables of `sequence` one after another, each subscribed once the
    /// previous one completed; completes after the last. `sequence` is read lazily.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Completable
        where Sequence.Element == Completable {
        Completable(raw: Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// Runs the completables of `collection` one after another, each subscribed once the
    /// previous one completed; completes after the last.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Completable
        where Collection.Element == Completable {
        Completable(raw: Observable.concat(collection.map { $0.asObservable() }))
    }

    /// Runs `sources` one after another, each subscribed once the previous one
    /// completed; completes after the last.
    public static func concat(_ sources: Completable...) -> Completable {
        Completable(raw: Observable.concat(sources.map { $0.asObservable() }))
    }

    /// Runs the completables of `sources` at once and completes when all have
    /// completed; the first error ends it (and disposes the others).
    ///
    /// ```
    /// a:      --|
    /// b:      -----|
    /// result: -----|
    /// ```
    ///
    /// For completables, `zip` and `merge` are the same.
    public static func zip<Collection: Swift.Collection>(_ sources: Collection) -> Completable
        where Collection.Element == Completable {
        runningAll(sources)
    }

    /// Runs `sources` at once and completes when all have completed; the first error
    /// ends it.
    public static func zip(_ sources: [Completable]) -> Completable {
        runningAll(sources)
    }

    /// Runs `sources` at once and completes when all have completed; the first error
    /// ends it.
    public static func zip(_ sources: Completable...) -> Completable {
        runningAll(sources)
    }

    /// Runs the completables of `sources` at once; the RxSwift 5 name of `zip(_:)`.
    @available(*, deprecated, message: "Use Completable.zip instead.", renamed: "zip")
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Completable
        where Collection.Element == Completable {
        runningAll(sources)
    }

    /// Runs `sources` at once; the RxSwift 5 name of `zip(_:)`.
    @available(*, deprecated, message: "Use Completable.zip instead.", renamed: "zip")
    public static func merge(_ sources: [Completable]) -> Completable {
        runningAll(sources)
    }

    /// Runs `sources` at once; the RxSwift 5 name of `zip(_:)`.
    @available(*, deprecated, message: "Use Completable.zip instead.", renamed: "zip")
    public static func merge(_ sources: Completable...) -> Completable {
        runningAll(sources)
    }

    /// What `zip` and `merge` do: runs `sources` at once. Each overload calls it by
    /// this name, which has one declaration, rather than another overload of `zip`,
    /// whose every arity the type checker would otherwise look at.
    private static func runningAll<Collection: Swift.Collection>(_ sources: Collection) -> Completable
        where Collection.Element == Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }
}
