import Foundation

/// A trampoline on the current thread: the first `schedule` on a thread runs its
/// action at once and then drains, in order, whatever was scheduled meanwhile.
///
/// Its state lives in a real thread-local (a pthread key), not in a thread dictionary.
public final class CurrentThreadScheduler: ImmediateSchedulerType, @unchecked Sendable {
    /// The shared instance.
    public static let instance = CurrentThreadScheduler()

    private init() {}

    /// The thread-local slot that owns each thread's trampoline (Platform.swift).
    private static let key = makeObjectOwningThreadKey()

    /// This thread's trampoline, created once per thread.
    @inline(__always)
    static var state: TrampolineState {
        unretainedState.takeUnretainedValue()
    }

    /// This thread's trampoline without a retain: the thread-local slot owns it until
    /// the thread ends, so a caller on this thread may borrow it.
    @inline(__always)
    static var unretainedState: Unmanaged<TrampolineState> {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<TrampolineState>.fromOpaque(pointer)
        }
        return makeState()
    }

    @inline(never)
    private static func makeState() -> Unmanaged<TrampolineState> {
        let state = Unmanaged.passRetained(TrampolineState())
        pthread_setspecific(key, state.toOpaque())
        return state
    }

    /// `true` when no trampoline runs on this thread (the next `schedule` runs at once).
    public static var isScheduleRequired: Bool {
        !state.active
    }

    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let trampoline = CurrentThreadScheduler.state
        if trampoline.active {
            let item = TrampolineItem { action(state) }
            trampoline.enqueue(item)
            return item
        }
        trampoline.active = true
        defer { trampoline.active = false }
        let disposable = action(state)
        trampoline.drain()
        return disposable
    }
}

/// The per-thread trampoline: `active` while a top-level subscription or scheduled
/// action runs on this thread; `items` run in order once it returns.
final class TrampolineState {
    // Only this thread touches them; no dynamic exclusivity checks on every subscribe.
    @exclusivity(unchecked) var active = false
    @exclusivity(unchecked) private var items = Queue<TrampolineWork>()
    /// How many items wait in `items`: a plain stored count, cheap enough for a
    /// synchronous sequence to ask after every element (`takeTurn`).
    @exclusivity(unchecked) private var waiting = 0

    /// Whether work waits to run on this trampoline.
    @inline(__always)
    var hasWaitingItems: Bool { waiting != 0 }

    /// Queues `item` to run once the current action and the items before it have run.
    func enqueue(_ item: TrampolineWork) {
        items.enqueue(item)
        waiting += 1
    }

    /// Queues the rest of a synchronous sequence's emission behind the work waiting on
    /// this trampoline.
    ///
    /// `of`, `from`, `range` and `repeatElement` on the current-thread scheduler emit in
    /// a loop while nothing else waits on the trampoline. When work waits after an
    /// element (another sequence's next element, a subscription made downstream), they
    /// continue behind it, where RxSwift's next per-element trampoline step would run.
    /// So `merge(of(1, 2), of(3, 4))` gives 1, 3, 2, 4, as in RxSwift, while a lone
    /// sequence emits in one loop and allocates nothing per element. `rest` is the
    /// emission itself, queued again: taking a turn allocates nothing either.
    @inline(__always)
    func takeTurn(_ rest: TrampolineWork) {
        enqueue(rest)
    }

    func drain() {
        while let item = items.dequeue() {
            waiting -= 1
            item.run()
        }
    }

    /// What `schedule` does, for work that is its own queue item: runs `work` at once as
    /// the top of the trampoline, then what it queued, or queues it behind the waiting
    /// work when the trampoline is active.
    func runOrEnqueue(_ work: TrampolineWork) {
        if active {
            enqueue(work)
            return
        }
        active = true
        defer { active = false }
        work.run()
        drain()
    }

    /// Runs `body` as the top of a trampoline unless one is already active.
    @inline(__always)
    func run<T>(_ body: () -> T) -> T {
        if active { return body() }
        active = true
        defer { active = false }
        let result = body()
        if hasWaitingItems { drain() }
        return result
    }
}

/// Work waiting on a trampoline. A subclass that runs in several turns (a synchronous
/// sequence taking turns, see `takeTurn`) queues itself again, with no allocation per
/// turn.
class TrampolineWork: @unchecked Sendable {
    /// Runs the work, on the trampoline's thread.
    func run() {
        rxAbstractMethod()
    }
}

/// A scheduled action waiting on a trampoline; disposing it before it runs cancels it.
final class TrampolineItem: TrampolineWork, Disposable, @unchecked Sendable {
    private var action: (() -> Disposable)?
    private let disposable = SingleAssignmentDisposable()

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(_ action: @escaping () -> Disposable) {
        self.action = action
    }

    override func run() {
        guard let action, !disposable.isDisposed else { return }
        self.action = nil
        disposable.setDisposable(action())
    }

    func dispose() {
        disposable.dispose()
    }
}

/// A sink that subscribes its sources one after another: `concat`, `catch(sequence:)`
/// and `retry(when:)`.
///
/// Each move to the next source goes through this thread's trampoline, as in RxSwift:
/// the first move waits until the outermost `subscribe` has wired every disposable, and
/// a source that ends while it is being subscribed queues the next move instead of
/// recursing, so a run of synchronous sources cannot exhaust the stack.
protocol SubscribesSourcesInTurn: AnyObject {
    /// Subscribes the next source. A queued move cannot be cancelled, so it checks the
    /// sink's disposal first.
    func moveNext()
}

extension SubscribesSourcesInTurn {
    /// Moves to the next source through this thread's trampoline.
    func scheduleMoveNext() {
        _ = CurrentThreadScheduler.instance.schedule(self) { sink in
            sink.moveNext()
            return Disposables.create()
        }
    }
}
