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
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock.make()
    private var current: Disposable?
    private var assigned = false
    private var disposed = false

    /// An empty single-assignment disposable.
    public init() {
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    public var isDisposed: Bool {
        lock.withLock { disposed }
    }

    /// Assigns the disposable. Assigning twice is a programming error.
    public func setDisposable(_ disposable: Disposable) {
        let disposeNow = lock.withLock { () -> Bool in
            if assigned {
                lock.unlock()
                rxFatalError("SingleAssignmentDisposable.setDisposable was called twice; it takes exactly one disposable.")
            }
            assigned = true
            if disposed { return true }
            current = disposable
            return false
        }
        if disposeNow { disposable.dispose() }
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
