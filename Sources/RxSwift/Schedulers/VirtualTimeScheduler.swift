import Foundation

/// How one virtual time compares with another.
public enum VirtualTimeComparison: Sendable {
    /// The left time is earlier.
    case lessThan
    /// Both times are the same.
    case equal
    /// The left time is later.
    case greaterThan
}

extension VirtualTimeComparison {
    var lessThen: Bool { self == .lessThan }
    var greaterThan: Bool { self == .greaterThan }
    var equal: Bool { self == .equal }
}

/// Converts between a virtual time scheduler's units and real time.
public protocol VirtualTimeConverterType {
    /// The virtual absolute time.
    associatedtype VirtualTimeUnit
    /// The virtual time interval.
    associatedtype VirtualTimeIntervalUnit

    /// Virtual time to real time.
    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
    /// Real time to virtual time.
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
    /// Virtual interval to seconds.
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval
    /// Seconds to virtual interval.
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit
    /// `time` moved by `offset`.
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
    /// Compares two virtual times.
    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// A scheduler whose clock only moves when told to: work runs in time order, then in
/// the order it was scheduled.
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType, CustomDebugStringConvertible, @unchecked Sendable {
    /// The virtual absolute time.
    public typealias VirtualTime = Converter.VirtualTimeUnit
    /// The virtual interval.
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    /// The queue of pending work and whether work is running; the clock is the other
    /// half of the `LockedPair`, as its type is the converter's.
    private struct Clockwork {
        var running = false
        var queue: Heap<VirtualSchedulerOrder>
        /// The id of the next item queued: the order of scheduling, for equal times.
        var nextId = 0

        /// Marks work as running; returns whether it already was.
        mutating func startRunning() -> Bool {
            if running { return true }
            running = true
            return false
        }
    }

    private let clockwork: LockedPair<Clockwork, VirtualTime>
    private let converter: Converter

    /// A scheduler starting at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.converter = converter
        let queue: Heap<VirtualSchedulerOrder>
        if isSameType(VirtualTime.self, Int.self), converter is IntegerVirtualTimeConverter {
            queue = Heap(ordering: VirtualSchedulerOrder(compare: nil))
        } else {
            queue = Heap(ordering: VirtualSchedulerOrder { lhs, rhs in
                let lhs = unsafeDowncast(lhs, to: VirtualSchedulerItem<VirtualTime>.self)
                let rhs = unsafeDowncast(rhs, to: VirtualSchedulerItem<VirtualTime>.self)
                switch converter.compareVirtualTime(lhs.time, rhs.time) {
                case .lessThan: return true
                case .equal: return lhs.id < rhs.id
                case .greaterThan: return false
                }
            })
        }
        clockwork = LockedPair(Clockwork(queue: queue), initialClock)
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    /// The current time, converted to real time.
    public var now: RxTime {
        converter.convertFromVirtualTime(clock)
    }

    /// The current virtual time.
    public var clock: VirtualTime {
        clockwork.withLock { _, clock in clock }
    }

    /// Whether work is still pending.
    package var hasPendingWork: Bool {
        clockwork.withLock { $0.queue.elements.contains { !$0.isDisposed } }
    }

    /// The number of actions still scheduled (not disposed).
    package var pendingCount: Int {
        clockwork.withLock { $0.queue.elements.reduce(0) { $0 + ($1.isDisposed ? 0 : $1.pendingSteps) } }
    }

    /// The times of the pending actions that came through `SchedulerType`'s methods
    /// (operators, timers, code under test), earliest first; actions a test scripted with
    /// `scheduleAbsoluteVirtual` / `scheduleRelativeVirtual` (testable observables,
    /// `scheduleAt`) are left out.
    package var pendingSchedulerWork: [VirtualTime] {
        let pending = clockwork.withLock { $0.queue.elements }
        return pending
                .filter { !$0.isDisposed && !$0.scripted }
                .map { unsafeDowncast($0, to: VirtualSchedulerItem<VirtualTime>.self) }
                .sorted { lhs, rhs in
                    let order = converter.compareVirtualTime(lhs.time, rhs.time)
                    return order.lessThen || (order.equal && lhs.id < rhs.id)
                }
                .map(\.time)
    }

    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let time = now.addingTimeInterval(dueTime.convertToSecondsInterval)
        let absoluteTime = converter.convertToVirtualTime(time)
        let adjustedTime = adjustScheduledTime(absoluteTime)
        return enqueue(state, time: adjustedTime, scripted: false, action: action)
    }

    /// Schedules `action` `dueTime` virtual units from now.
    public func scheduleRelativeVirtual<StateType>(_ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let time = converter.offsetVirtualTime(clock, offset: dueTime)
        return scheduleAbsoluteVirtual(state, time: time, action: action)
    }

    /// Schedules `action` at the virtual time `time`.
    public func scheduleAbsoluteVirtual<StateType>(_ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable) -> Disposable {
        enqueue(state, time: time, scripted: true, action: action)
    }

    /// Schedules the scripted steps `0..<times.count`, step `i` at `times[i]`: `perform(i)`
    /// runs at that time, in the order that scheduling each with
    /// `scheduleAbsoluteVirtual`, in index order, now would give (time first, then the
    /// order of scheduling). One queue entry walks the steps in that order and queues
    /// itself again for the next, so a step costs no allocation and the queue stays
    /// short (a hot testable observable's events).
    package func scheduleScriptedSteps(at times: [VirtualTime], perform: @escaping (Int) -> Void) {
        guard !times.isEmpty else { return }
        let converter = self.converter
        let order = times.indices.sorted { lhs, rhs in
            switch converter.compareVirtualTime(times[lhs], times[rhs]) {
            case .lessThan: return true
            case .equal: return lhs < rhs
            case .greaterThan: return false
            }
        }
        clockwork.withLock { clockwork in
            let firstId = clockwork.nextId
            clockwork.nextId += times.count
            let timeline = VirtualTimeline(
                times: times, order: order, firstId: firstId, ordersByTick: clockwork.queue.ordering.ordersByTick, perform: perform)
            clockwork.queue.insert(timeline)
        }
    }

    /// Runs `item`; a timeline with steps left goes back into the queue for its next one.
    private func run(_ item: VirtualSchedulerItem<VirtualTime>) {
        item.invoke()
        if item.moveToNextStep() {
            clockwork.withLock { $0.queue.insert(item) }
        }
    }

    private func enqueue<StateType>(_ state: StateType, time: VirtualTime, scripted: Bool, action: @escaping (StateType) -> Disposable) -> Disposable {
        clockwork.withLock { clockwork in
            let item = VirtualSchedulerItem(
                action: { action(state) }, time: time, id: clockwork.nextId,
                tick: clockwork.queue.ordering.ordersByTick ? unsafeSameTypeCast(time, to: Int.self) : 0, scripted: scripted)
            clockwork.nextId += 1
            clockwork.queue.insert(item)
            return item
        }
    }

    /// Adjusts the time of relative scheduling before the item is queued.
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime {
        time
    }

    /// Runs all scheduled work in time order until none is left or `stop()` is called.
    public func start() {
        let alreadyRunning = clockwork.withLock { $0.startRunning() }
        if alreadyRunning { return }
        while let next = takeNext(dueBy: { _ in true }) {
            run(next)
        }
        clockwork.withLock { $0.running = false }
    }

    /// Runs the work scheduled up to `virtualTime`, then sets the clock to it.
    public func advanceTo(_ virtualTime: VirtualTime) {
        let alreadyRunning = clockwork.withLock { $0.startRunning() }
        if alreadyRunning {
            rxFatalError("advanceTo(\(virtualTime)) was called while the scheduler is already running (from inside a scheduled action).")
        }
        if converter.compareVirtualTime(virtualTime, clock).lessThen {
            clockwork.withLock { $0.running = false }
            rxFatalError("advanceTo(\(virtualTime)) cannot move the clock back: it is already at \(clock).")
        }
        while let next = takeNext(dueBy: { !converter.compareVirtualTime($0, virtualTime).greaterThan }) {
            run(next)
        }
        clockwork.withLock { clockwork, clock in
            clock = virtualTime
            clockwork.running = false
        }
    }

    /// Moves the clock forward by `virtualInterval` without running any work.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        let converter = self.converter
        let refusedFrom = clockwork.withLock { _, clock -> VirtualTime? in
            let sleepTo = converter.offsetVirtualTime(clock, offset: virtualInterval)
            if converter.compareVirtualTime(sleepTo, clock).lessThen { return clock }
            clock = sleepTo
            return nil
        }
        if let refusedFrom {
            rxFatalError("sleep(\(virtualInterval)) cannot move the clock back from \(refusedFrom).")
        }
    }

    /// Whether `start()`, `advanceTo(_:)` or `runNextAction(until:)` is running work.
    package var isRunning: Bool {
        clockwork.withLock { $0.running }
    }

    /// Drops every action not yet run, for a run that is over. A pending action's closure
    /// often holds the scheduler (through a sink, or a disposal scheduled on it) while the
    /// queue holds the action, so without this the two keep each other alive after the
    /// last outside reference is gone. The actions are released after the lock is left
    /// (the returned array dies there), as releasing a sink can run arbitrary code.
    package func discardPendingWork() {
        _ = clockwork.withLock { $0.queue.removeAll() }
    }

    /// The time of the earliest pending action, if any.
    package var nextActionTime: VirtualTime? {
        clockwork.withLock { $0.queue.elements }
            .filter { !$0.isDisposed }
            .map { unsafeDowncast($0, to: VirtualSchedulerItem<VirtualTime>.self).time }
            .min { converter.compareVirtualTime($0, $1).lessThen }
    }

    /// Runs the earliest pending action due at `limit` or earlier (any, when `limit`
    /// is `nil`), moving the clock to its time: one step of a test that pulls events.
    ///
    /// - returns: `false` when nothing was due, or when the scheduler is already running.
    package func runNextAction(until limit: VirtualTime? = nil) -> Bool {
        let alreadyRunning = clockwork.withLock { $0.startRunning() }
        guard !alreadyRunning else { return false }
        let next: VirtualSchedulerItem<VirtualTime>?
        if let limit {
            next = takeNext(dueBy: { !converter.compareVirtualTime($0, limit).greaterThan })
        } else {
            next = takeNext(dueBy: { _ in true })
        }
        if let next { run(next) }
        clockwork.withLock { $0.running = false }
        return next != nil
    }

    /// Stops `start()` after the action that is running.
    public func stop() {
        clockwork.withLock { $0.running = false }
    }

    /// Takes the next item to run (skipping disposed ones), if `isDue` says its time is
    /// due, and advances the clock to it. (A closure rather than an optional limit: an
    /// `Optional<VirtualTime>` costs a generic metadata lookup on every call.)
    @inline(__always)
    private func takeNext(dueBy isDue: (VirtualTime) -> Bool) -> VirtualSchedulerItem<VirtualTime>? {
        let converter = self.converter
        return clockwork.withLock { clockwork, clock in
            guard clockwork.running else { return nil }
            while let entry = clockwork.queue.first {
                if entry.isDisposed {
                    clockwork.queue.removeFirst()
                    continue
                }
                let front = unsafeDowncast(entry, to: VirtualSchedulerItem<VirtualTime>.self)
                if !isDue(front.time) {
                    return nil
                }
                clockwork.queue.removeFirst()
                if converter.compareVirtualTime(front.time, clock).greaterThan {
                    clock = front.time
                }
                return front
            }
            return nil
        }
    }

    public var debugDescription: String {
        clockwork.withLock { $0.queue.elements }
            .filter { !$0.isDisposed }
            .flatMap { unsafeDowncast($0, to: VirtualSchedulerItem<VirtualTime>.self).pendingTimes }
            .map { "\($0)" }
            .joined(separator: ", ")
    }
}

/// Marks a converter whose virtual time is `Int` ordered as integers are: its scheduler
/// orders its queue by comparing the times directly, with no call to the converter.
package protocol IntegerVirtualTimeConverter {}

/// An item of a virtual time scheduler's queue, without its time type, so that the
/// queue's heap is specialised for one concrete class (a heap generic over the time
/// type costs metadata lookups and allocations in every swap).
class VirtualSchedulerEntry: Disposable, @unchecked Sendable {
    /// The order of scheduling, which breaks ties between equal times. A timeline's
    /// changes from step to step, while it is out of the queue (only the thread running
    /// the scheduler writes it then, so reads need no exclusivity check).
    @exclusivity(unchecked) final var id: Int
    /// The time itself when the queue orders by `Int` ticks (`ordersByTick`), else 0.
    @exclusivity(unchecked) final var tick: Int
    /// Scheduled by a test script rather than through `SchedulerType`.
    final let scripted: Bool
    private final var action: (() -> Disposable)?
    private final let disposable = SingleAssignmentDisposable()

    init(action: @escaping () -> Disposable, id: Int, tick: Int, scripted: Bool) {
        self.action = action
        self.id = id
        self.tick = tick
        self.scripted = scripted
    }

    final var isDisposed: Bool { disposable.isDisposed }

    func invoke() {
        guard let action else { return }
        self.action = nil
        disposable.setDisposable(action())
    }

    /// How many steps the entry still has to run: 1 for a scheduled action.
    var pendingSteps: Int { 1 }

    /// After `invoke()`: whether the entry has another step, now at the head of its
    /// time, id and tick, so that the scheduler queues it again.
    func moveToNextStep() -> Bool { false }

    final func dispose() {
        disposable.dispose()
    }
}

/// A scheduled action with its virtual time.
class VirtualSchedulerItem<Time>: VirtualSchedulerEntry, @unchecked Sendable {
    /// The time it is due: a timeline's changes from step to step, while it is out of
    /// the queue.
    @exclusivity(unchecked) final var time: Time

    /// Never called: fills the superclass's `init(action:id:tick:scripted:)` slot (see `rxUnusedInitializer`).
    override convenience init(action: @escaping () -> Disposable, id: Int, tick: Int, scripted: Bool) { rxUnusedInitializer() }

    init(action: @escaping () -> Disposable, time: Time, id: Int, tick: Int, scripted: Bool) {
        self.time = time
        super.init(action: action, id: id, tick: tick, scripted: scripted)
    }

    /// The times of the steps still to run.
    var pendingTimes: [Time] { [time] }
}

/// Scripted steps at given times, walked in time order by one queue entry (see
/// `scheduleScriptedSteps`): step `order[position]` is due; its id is the one it would
/// have had if scheduled on its own, `firstId` plus its index, so it keeps its place
/// among other work due at the same time.
private final class VirtualTimeline<Time>: VirtualSchedulerItem<Time>, @unchecked Sendable {
    private let times: [Time]
    private let order: [Int]
    private let firstId: Int
    private let ordersByTick: Bool
    private let perform: (Int) -> Void
    /// Only the thread running the scheduler touches it, while the entry is out of the
    /// queue.
    @exclusivity(unchecked) private var position = 0

    /// Never called: fills the superclass's `init(action:time:id:tick:scripted:)` slot (see `rxUnusedInitializer`).
    override convenience init(action: @escaping () -> Disposable, time: Time, id: Int, tick: Int, scripted: Bool) { rxUnusedInitializer() }

    init(times: [Time], order: [Int], firstId: Int, ordersByTick: Bool, perform: @escaping (Int) -> Void) {
        self.times = times
        self.order = order
        self.firstId = firstId
        self.ordersByTick = ordersByTick
        self.perform = perform
        let first = order[0]
        super.init(
            action: { Disposables.create() }, time: times[first], id: firstId + first,
            tick: ordersByTick ? unsafeSameTypeCast(times[first], to: Int.self) : 0, scripted: true)
    }

    override func invoke() {
        perform(order[position])
    }

    override var pendingSteps: Int { order.count - position }

    override var pendingTimes: [Time] { order[position...].map { times[$0] } }

    override func moveToNextStep() -> Bool {
        position += 1
        guard position < order.count else { return false }
        let step = order[position]
        time = times[step]
        id = firstId + step
        if ordersByTick { tick = unsafeSameTypeCast(times[step], to: Int.self) }
        return true
    }
}

/// The order of a virtual time scheduler's queue: earliest time first, then earliest
/// scheduled. With no `compare` it compares `tick`s (integer times) directly.
struct VirtualSchedulerOrder: HeapOrdering {
    let compare: ((VirtualSchedulerEntry, VirtualSchedulerEntry) -> Bool)?

    /// Whether items are ordered by their `tick`.
    var ordersByTick: Bool { compare == nil }

    @inline(__always)
    func isOrderedBefore(_ lhs: VirtualSchedulerEntry, _ rhs: VirtualSchedulerEntry) -> Bool {
        if let compare { return compare(lhs, rhs) }
        return lhs.tick < rhs.tick || (lhs.tick == rhs.tick && lhs.id < rhs.id)
    }
}
