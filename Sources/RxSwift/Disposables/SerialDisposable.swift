/// Holds one disposable at a time: setting a new one disposes the previous one;
/// after disposal, a new one is disposed at once.
public final class SerialDisposable: Cancelable, @unchecked Sendable {
    /// The disposable held, and whether `dispose()` ran (`current` is `nil` from then on).
    private struct Slot {
        var current: Disposable?
        var disposed = false
    }

    private let slot = LockedState(Slot())

    /// An empty serial disposable.
    public init() {
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    public var isDisposed: Bool {
        slot.withLock { $0.disposed }
    }

    /// The current disposable.
    public var disposable: Disposable {
        get {
            slot.withLock { $0.current } ?? Disposables.create()
        }
        set {
            let (previous, rejected) = slot.withLock { slot -> (Disposable?, Disposable?) in
                if slot.disposed { return (nil, newValue) }
                defer { slot.current = newValue }
                return (slot.current, nil)
            }
            previous?.dispose()
            rejected?.dispose()
        }
    }

    public func dispose() {
        let previous = slot.withLock { slot -> Disposable? in
            if slot.disposed { return nil }
            slot.disposed = true
            defer { slot.current = nil }
            return slot.current
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
    /// The underlying disposable (`nil` once disposed), whether the primary reference
    /// was disposed, and how many retained references are live.
    private struct References {
        var disposable: Disposable?
        var primaryDisposed = false
        var retained = 0

        /// The underlying disposable when nothing keeps it alive any longer; it is
        /// taken, so it is handed out once.
        mutating func takeIfUnreferenced() -> Disposable? {
            guard primaryDisposed, retained == 0 else { return nil }
            defer { disposable = nil }
            return disposable
        }
    }

    private let references: LockedState<References>

    /// Wraps `disposable`.
    public init(disposable: Disposable) {
        references = LockedState(References(disposable: disposable))
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    public var isDisposed: Bool {
        references.withLock { $0.disposable == nil }
    }

    /// A reference that keeps the underlying disposable alive until disposed.
    public func retain() -> Disposable {
        let retained = references.withLock { references -> Bool in
            guard references.disposable != nil else { return false }
            references.retained += 1
            return true
        }
        return retained ? RefCountInnerDisposable(self) : Disposables.create()
    }

    fileprivate func release() {
        let toDispose = references.withLock { references -> Disposable? in
            guard references.disposable != nil else { return nil }
            precondition(references.retained > 0, "Rivulet: RefCountDisposable was released more often than retained.")
            references.retained -= 1
            return references.takeIfUnreferenced()
        }
        toDispose?.dispose()
    }

    public func dispose() {
        let toDispose = references.withLock { references -> Disposable? in
            guard references.disposable != nil, !references.primaryDisposed else { return nil }
            references.primaryDisposed = true
            return references.takeIfUnreferenced()
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
    /// The disposable to dispose (`nil` once the scheduled disposal took it), and
    /// whether `dispose()` ran.
    private struct Pending {
        var disposable: Disposable?
        var disposed = false
    }

    private let pending: LockedState<Pending>

    /// Disposes `disposable` on `scheduler` when disposed.
    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        pending = LockedState(Pending(disposable: disposable))
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    public var isDisposed: Bool {
        pending.withLock { $0.disposed }
    }

    public func dispose() {
        let shouldSchedule = pending.withLock { pending -> Bool in
            if pending.disposed { return false }
            pending.disposed = true
            return true
        }
        guard shouldSchedule else { return }
        _ = scheduler.schedule(self) { this in
            let disposable = this.pending.withLock { pending -> Disposable? in
                defer { pending.disposable = nil }
                return pending.disposable
            }
            disposable?.dispose()
            return Disposables.create()
        }
    }
}
