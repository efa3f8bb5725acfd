/// Holds one disposable at a time: setting a new one disposes the previous one;
/// after disposal, a new one is disposed at once.
public final class SerialDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock.make()
    private var current: Disposable?
    private var disposed = false

    /// An empty serial disposable.
    public init() {
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    public var isDisposed: Bool {
        lock.withLock { disposed }
    }

    /// The current disposable.
    public var disposable: Disposable {
        get {
            lock.withLock { current ?? Disposables.create() }
        }
        set {
            let (previous, rejected) = lock.withLock { () -> (Disposable?, Disposable?) in
                if disposed { return (nil, newValue) }
                defer { current = newValue }
                return (current, nil)
            }
            previous?.dispose()
            rejected?.dispose()
        }
    }

    public func dispose() {
        let previous = lock.withLock { () -> Disposable? in
            if disposed { return nil }
            disposed = true
            defer { current = nil }
            return current
        }
        previous?.dispose()
    }
}

/// Holds a disposable assigned exactly once; disposing before the assignment
/// disposes the assigned one at once.
///
/// Its state is two bits of one atomic integer (as a sink's upstream slot): no lock,
/// so making one costs one allocation. The assignment writes the disposable, then sets
/// the assigned bit; disposal sets the disposed bit. Whichever of the two comes second
/// sees the other's bit and disposes the assigned disposable: exactly one of them does.
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
    private static var disposedBit: Int { 1 }
    private static var assignedBit: Int { 2 }

    private let state = InlineAtomicInt(0)
    // Written once by the assignment before it publishes the assigned bit, and taken
    // once by whichever of the assignment and the disposal comes second.
    @exclusivity(unchecked) private var current: Disposable?

    /// An empty single-assignment disposable.
    public init() {
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    public var isDisposed: Bool {
        state.load() & Self.disposedBit != 0
    }

    /// Assigns the disposable. Assigning twice is a programming error.
    public func setDisposable(_ disposable: Disposable) {
        // Checked before writing too, so that a second call does not replace the first
        // disposable before it stops.
        if state.load() & Self.assignedBit != 0 { Self.assignedTwice() }
        current = disposable
        let previous = state.fetchOr(Self.assignedBit)
        if previous & Self.assignedBit != 0 { Self.assignedTwice() }
        if previous & Self.disposedBit != 0 { takeCurrent()?.dispose() }
    }

    public func dispose() {
        let previous = state.fetchOr(Self.disposedBit)
        guard previous & Self.disposedBit == 0, previous & Self.assignedBit != 0 else { return }
        takeCurrent()?.dispose()
    }

    private static func assignedTwice() -> Never {
        rxFatalError("SingleAssignmentDisposable.setDisposable was called twice; it takes exactly one disposable.")
    }

    private func takeCurrent() -> Disposable? {
        let taken = current
        current = nil
        return taken
    }
}

/// Disposes the underlying disposable once the primary reference and every
/// retained reference are disposed.
public final class RefCountDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock.make()
    private var disposable: Disposable?
    private var primaryDisposed = false
    private var count = 0

    /// Wraps `disposable`.
    public init(disposable: Disposable) {
        self.disposable = disposable
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    public var isDisposed: Bool {
        lock.withLock { disposable == nil }
    }

    /// A reference that keeps the underlying disposable alive until disposed.
    public func retain() -> Disposable {
        lock.withLock { () -> Disposable in
            guard disposable != nil else { return Disposables.create() }
            count += 1
            return RefCountInnerDisposable(self)
        }
    }

    fileprivate func release() {
        let toDispose = lock.withLock { () -> Disposable? in
            guard disposable != nil else { return nil }
            precondition(count > 0, "Rivulet: RefCountDisposable was released more often than retained.")
            count -= 1
            if primaryDisposed && count == 0 {
                defer { disposable = nil }
                return disposable
            }
            return nil
        }
        toDispose?.dispose()
    }

    public func dispose() {
        let toDispose = lock.withLock { () -> Disposable? in
            guard disposable != nil, !primaryDisposed else { return nil }
            primaryDisposed = true
            if count == 0 {
                defer { disposable = nil }
                return disposable
            }
            return nil
        }
        toDispose?.dispose()
    }
}

private final class RefCountInnerDisposable: Disposable, @unchecked Sendable {
    private let parent: RefCountDisposable
    private let disposed = AtomicFlag()

    init(_ parent: RefCountDisposable) {
        self.parent = parent
    }

    func dispose() {
        guard !disposed.testAndSet() else { return }
        parent.release()
    }
}

/// Disposes its disposable on a scheduler.
public final class ScheduledDisposable: Cancelable, @unchecked Sendable {
    /// The scheduler the disposal runs on.
    public let scheduler: ImmediateSchedulerType
    private let lock = Lock.make()
    private var disposable: Disposable?
    private var disposed = false

    /// Disposes `disposable` on `scheduler` when disposed.
    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        self.disposable = disposable
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    public var isDisposed: Bool {
        lock.withLock { disposed }
    }

    public func dispose() {
        let shouldSchedule = lock.withLock { () -> Bool in
            if disposed { return false }
            disposed = true
            return true
        }
        guard shouldSchedule else { return }
        _ = scheduler.schedule(self) { this in
            let disposable = this.lock.withLock { () -> Disposable? in
                defer { this.disposable = nil }
                return this.disposable
            }
            disposable?.dispose()
            return Disposables.create()
        }
    }
}
