/// Collects disposables and disposes them when the bag is deallocated.
///
/// To dispose early, assign a new bag: `bag = DisposeBag()`.
public final class DisposeBag: DisposeBase, @unchecked Sendable {
    /// The disposables held, and whether the bag was disposed (`disposables` is empty
    /// from then on).
    private struct Contents {
        var disposables: [Disposable] = []
        var isDisposed = false
    }

    private let contents: LockedState<Contents>

    /// An empty bag.
    override public init() {
        contents = LockedState(Contents())
    }

    /// A bag holding `disposables`.
    public convenience init(disposing disposables: Disposable...) {
        self.init(disposing: disposables)
    }

    /// A bag holding the built disposables.
    public convenience init(@DisposableBuilder builder: () -> [Disposable]) {
        self.init(disposing: builder())
    }

    /// A bag holding `disposables`.
    public init(disposing disposables: [Disposable]) {
        contents = LockedState(Contents(disposables: disposables))
        super.init()
    }

    /// Adds a disposable; one added after the bag was disposed is disposed at once.
    public func insert(_ disposable: Disposable) {
        _insert(disposable)?.dispose()
    }

    /// Adds several disposables.
    public func insert(_ disposables: Disposable...) {
        insert(disposables)
    }

    /// Adds the built disposables.
    public func insert(@DisposableBuilder builder: () -> [Disposable]) {
        insert(builder())
    }

    /// Adds several disposables.
    public func insert(_ disposables: [Disposable]) {
        let rejected = contents.withLock { contents -> [Disposable] in
            if contents.isDisposed { return disposables }
            contents.disposables.append(contentsOf: disposables)
            return []
        }
        for disposable in rejected { disposable.dispose() }
    }

    private func _insert(_ disposable: Disposable) -> Disposable? {
        contents.withLock { contents -> Disposable? in
            if contents.isDisposed { return disposable }
            contents.disposables.append(disposable)
            return nil
        }
    }

    private func dispose() {
        let taken = contents.withLock { contents -> [Disposable] in
            defer {
                contents.disposables.removeAll()
                contents.isDisposed = true
            }
            return contents.disposables
        }
        for disposable in taken { disposable.dispose() }
    }

    deinit {
        Interleaving.deinitializing()
        dispose()
    }

    /// Builds an array of disposables from a block.
    @resultBuilder
    public enum DisposableBuilder {
        public static func buildBlock(_ disposables: Disposable...) -> [Disposable] {
            disposables
        }
    }
}

extension Disposable {
    /// Adds the disposable to a bag (the name older code uses).
    @available(*, deprecated, renamed: "disposed(by:)")
    public func addDisposableTo(_ bag: DisposeBag) {
        disposed(by: bag)
    }
}
