/// A resource that can be released: a subscription, a scheduled action.
public protocol Disposable {
    /// Releases the resource. Calling it more than once has no further effect.
    func dispose()
}

/// A disposable that can tell whether it was disposed.
public protocol Cancelable: Disposable {
    /// Whether `dispose()` was called.
    var isDisposed: Bool { get }
}

/// Namespace of disposable factories.
public enum Disposables {}

extension Disposables {
    /// A disposable that does nothing.
    public static func create() -> Disposable {
        NopDisposable()
    }

    /// A disposable that runs `dispose` once, on the first call of `dispose()`.
    public static func create(with dispose: @escaping () -> Void) -> Cancelable {
        AnonymousDisposable(dispose)
    }

    /// A disposable that disposes both.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable) -> Cancelable {
        BinaryDisposable(disposable1, disposable2)
    }

    /// A disposable that disposes all three.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) -> Cancelable {
        CompositeDisposable(disposable1, disposable2, disposable3)
    }

    /// A disposable that disposes all of them.
    public static func create(
        _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposables: Disposable ...
    ) -> Cancelable {
        CompositeDisposable(disposables: [disposable1, disposable2, disposable3] + disposables)
    }

    /// A disposable that disposes all of them.
    public static func create(_ disposables: [Disposable]) -> Cancelable {
        switch disposables.count {
        case 2: return BinaryDisposable(disposables[0], disposables[1])
        default: return CompositeDisposable(disposables: disposables)
        }
    }
}

extension Disposable {
    /// Adds the disposable to `bag`, which disposes it when the bag is deallocated.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}

struct NopDisposable: Disposable, Sendable {
    static let noOp = NopDisposable()
    func dispose() {}
}

/// Runs an action once, on the first `dispose()`.
final class AnonymousDisposable: Cancelable, @unchecked Sendable {
    // Written once in init; afterwards only the winner of the `disposed` flag touches it.
    @exclusivity(unchecked) private var action: (() -> Void)?
    private let disposed = InlineAtomicInt(0)

    init(_ action: @escaping () -> Void) {
        self.action = action
        Resources.incrementTotal()
    }

    deinit {
        Interleaving.forget(self)
        Resources.decrementTotal()
    }

    var isDisposed: Bool { disposed.load() != 0 }

    func dispose() {
        guard disposed.fetchOr(1) == 0 else { return }
        Interleaving.access(self, at: SyncSite(#fileID, #line))
        let action = self.action
        self.action = nil
        action?()
    }
}

/// Disposes two disposables once.
final class BinaryDisposable: Cancelable, @unchecked Sendable {
    // Only the winner of the `disposed` flag in `dispose()` touches these after init.
    @exclusivity(unchecked) private var first: Disposable?
    @exclusivity(unchecked) private var second: Disposable?
    private let disposed = InlineAtomicInt(0)

    init(_ first: Disposable, _ second: Disposable) {
        self.first = first
        self.second = second
        Resources.incrementTotal()
    }

    deinit {
        Interleaving.forget(self)
        Resources.decrementTotal()
    }

    var isDisposed: Bool { disposed.load() != 0 }

    func dispose() {
        guard disposed.fetchOr(1) == 0 else { return }
        // Only the winner of the `disposed` flag touches the stored references.
        Interleaving.access(self, at: SyncSite(#fileID, #line))
        let first = self.first, second = self.second
        self.first = nil
        self.second = nil
        first?.dispose()
        second?.dispose()
    }
}

/// A disposable that only records whether it was disposed.
public final class BooleanDisposable: Cancelable, @unchecked Sendable {
    /// A disposable that is already disposed.
    public static let disposed = BooleanDisposable(isDisposed: true)

    private let flag = AtomicFlag()

    /// A disposable that is not disposed yet.
    public init() {}

    /// A disposable in the given state.
    public init(isDisposed: Bool) {
        if isDisposed { flag.set() }
    }

    public var isDisposed: Bool { flag.isSet() }

    public func dispose() {
        flag.set()
    }
}
