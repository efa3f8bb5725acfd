/// A group of disposables disposed together; one inserted after disposal is
/// disposed at once.
public final class CompositeDisposable: Cancelable, @unchecked Sendable {
    /// The key of a disposable in the group, for `remove(for:)`.
    public struct DisposeKey: Hashable, Sendable {
        fileprivate let key: BagKey
    }

    /// The group's disposables, and whether `dispose()` ran (`disposables` is empty
    /// from then on).
    private struct Group {
        var disposables = Bag<Disposable>(vacancy: NopDisposable.noOp)
        var disposed = false

        init(_ initial: some Sequence<Disposable> = []) {
            for disposable in initial {
                disposables.insert(disposable)
            }
        }
    }

    private let group: LockedState<Group>

    /// An empty group.
    public init() {
        group = LockedState(Group())
        Resources.incrementTotal()
    }

    /// A group of two.
    public init(_ disposable1: Disposable, _ disposable2: Disposable) {
        group = LockedState(Group([disposable1, disposable2]))
        Resources.incrementTotal()
    }

    /// A group of three.
    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
        group = LockedState(Group([disposable1, disposable2, disposable3]))
        Resources.incrementTotal()
    }

    /// A group of several.
    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposable4: Disposable, _ disposables: Disposable...) {
        group = LockedState(Group([disposable1, disposable2, disposable3, disposable4] + disposables))
        Resources.incrementTotal()
    }

    /// A group of the given disposables.
    public init(disposables: [Disposable]) {
        group = LockedState(Group(disposables))
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    /// Adds a disposable; returns `nil` (and disposes it) when the group is already disposed.
    @discardableResult
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        let key = group.withLock { group -> BagKey? in
            group.disposed ? nil : group.disposables.insert(disposable)
        }
        guard let key else {
            disposable.dispose()
            return nil
        }
        return DisposeKey(key: key)
    }

    /// The number of disposables in the group.
    public var count: Int {
        group.withLock { $0.disposables.count }
    }

    /// Removes the disposable with `key` from the group and disposes it.
    public func remove(for disposeKey: DisposeKey) {
        let removed = group.withLock { $0.disposables.remove(disposeKey.key) }
        // Consumed rather than copied: copying an optional existential goes through the
        // runtime's generic value witnesses, which costs about as much as the removal.
        if let removed = consume removed {
            removed.dispose()
        }
    }

    public var isDisposed: Bool {
        group.withLock { $0.disposed }
    }

    public func dispose() {
        let taken = group.withLock { group -> ContiguousArray<Disposable>? in
            if group.disposed { return nil }
            group.disposed = true
            defer { group.disposables.removeAll() }
            return group.disposables.elements
        }
        guard let taken else { return }
        for disposable in taken {
            disposable.dispose()
        }
    }
}
