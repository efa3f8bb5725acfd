/// A group of disposables disposed together; one inserted after disposal is
/// disposed at once.
public final class CompositeDisposable: Cancelable, @unchecked Sendable {
    /// The key of a disposable in the group, for `remove(for:)`.
    public struct DisposeKey: Hashable, Sendable {
        fileprivate let key: BagKey
    }

    private let lock = Lock.make()
    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per insertion).
    @exclusivity(unchecked)
    private var disposables = Bag<Disposable>(vacancy: NopDisposable.noOp)
    /// Set by `dispose()`; `disposables` is empty from then on.
    @exclusivity(unchecked)
    private var disposed = false

    /// An empty group.
    public init() {
        Resources.incrementTotal()
    }

    /// A group of two.
    public init(_ disposable1: Disposable, _ disposable2: Disposable) {
        disposables.insert(disposable1)
        disposables.insert(disposable2)
        Resources.incrementTotal()
    }

    /// A group of three.
    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
        disposables.insert(disposable1)
        disposables.insert(disposable2)
        disposables.insert(disposable3)
        Resources.incrementTotal()
    }

    /// A group of several.
    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposable4: Disposable, _ disposables: Disposable...) {
        for disposable in [disposable1, disposable2, disposable3, disposable4] + disposables {
            self.disposables.insert(disposable)
        }
        Resources.incrementTotal()
    }

    /// A group of the given disposables.
    public init(disposables: [Disposable]) {
        for disposable in disposables {
            self.disposables.insert(disposable)
        }
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    /// Adds a disposable; returns `nil` (and disposes it) when the group is already disposed.
    @discardableResult
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        lock.lock()
        if disposed {
            lock.unlock()
            disposable.dispose()
            return nil
        }
        let key = disposables.insert(disposable)
        lock.unlock()
        return DisposeKey(key: key)
    }

    /// The number of disposables in the group.
    public var count: Int {
        lock.withLock { disposables.count }
    }

    /// Removes the disposable with `key` from the group and disposes it.
    public func remove(for disposeKey: DisposeKey) {
        lock.lock()
        let removed = disposables.remove(disposeKey.key)
        lock.unlock()
        // Consumed rather than copied: copying an optional existential goes through the
        // runtime's generic value witnesses, which costs about as much as the removal.
        if let removed = consume removed {
            removed.dispose()
        }
    }

    public var isDisposed: Bool {
        lock.withLock { disposed }
    }

    public func dispose() {
        let taken = lock.withLock { () -> ContiguousArray<Disposable>? in
            if disposed { return nil }
            disposed = true
            defer { disposables.removeAll() }
            return disposables.elements
        }
        guard let taken else { return }
        for disposable in taken {
            disposable.dispose()
        }
    }
}
