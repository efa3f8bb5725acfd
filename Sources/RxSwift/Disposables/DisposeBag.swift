/// Collects disposables and disposes them when the bag is deallocated.
///
/// To dispose early, assign a new bag: `bag = DisposeBag()`.
public final class DisposeBag: DisposeBase, @unchecked Sendable {
    private let lock = Lock.make()
    private var disposables: [Disposable] = []
    private var isDisposed = false

    /// An empty bag.
    override public init() {}

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
        self.disposables = disposables
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
        let rejected = lock.withLock { () -> [Disposable] in
            if isDisposed { return disposables }
            self.disposables.append(contentsOf: disposables)
            return []
        }
        for disposable in rejected { disposable.dispose() }
    }

    private func _insert(_ disposable: Disposable) -> Disposable? {
        lock.withLock {
            if isDisposed { return disposable }
            disposables.append(disposable)
            return nil
        }
    }

    private func dispose() {
        let taken = lock.withLock { () -> [Disposable] in
            defer {
                disposables.removeAll()
                isDisposed = true
            }
            return disposables
        }
        for disposable in taken { disposable.dispose() }
    }

    deinit {
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
