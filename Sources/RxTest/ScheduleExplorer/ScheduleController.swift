#if DEBUG
import Dispatch
import Foundation
import RxSwift
import RxTestCore

/// Runs one schedule: the run's logical threads are real threads, but only one of them
/// runs at a time. At every synchronization point of the library (see RxSwift's
/// `Interleaving`) the running thread hands the choice of who goes next to the chooser,
/// and waits until it is chosen again. A thread that wants a lock another thread holds
/// cannot be chosen; when no thread can be chosen while some still wait, the run is
/// deadlocked, and the controller says who holds and wants what.
final class ScheduleController: @unchecked Sendable {
    /// One logical thread of the run; its fields change only under the controller's mutex.
    final class Thread: @unchecked Sendable {
        enum State {
            case ready
            case wantsLock(UnsafeRawPointer, at: SyncSite)
            case finished
        }

        let number: Int
        let name: String
        /// The serial queue whose work this thread runs (one item, in order), if any.
        let queue: ObjectIdentifier?
        /// For a timer's callback: its deadline (uptime nanoseconds). Timers start in
        /// the order of their deadlines.
        let due: UInt64?
        /// Whether the thread was chosen at least once.
        var started = false
        /// For a timer armed by a timer's callback (a periodic timer's next tick): the
        /// count of other threads' steps then. It starts only once another thread took a
        /// step since, or when no other thread can go, so a timer re-arming itself
        /// cannot starve the rest of the run.
        var armedAfter: Int?
        /// How many timers' callbacks armed this timer, one after the other (0 for one
        /// armed by any other thread). From 2 on, it starts only when no other thread
        /// can go: a timer due long after a short piece of work does not fire again and
        /// again before that work is done.
        var chain = 0
        var state = State.ready
        /// What the thread knows the other threads did (happens-before): see
        /// `VectorClock`.
        var clock = VectorClock()
        let baton = DispatchSemaphore(value: 0)
        /// The locks held, each with where it was taken.
        var held: [(lock: UnsafeRawPointer, site: SyncSite)] = []

        init(number: Int, name: String, queue: ObjectIdentifier?, due: UInt64?) {
            self.number = number
            self.name = name
            self.queue = queue
            self.due = due
        }

        var isFinished: Bool {
            if case .finished = state { true } else { false }
        }

        /// Whether a timer's callback due at `due` (`number` breaking ties) comes
        /// before this thread's.
        func isTimer(before other: Thread) -> Bool {
            guard let due, let otherDue = other.due else { return false }
            return (due, number) < (otherDue, other.number)
        }
    }

    /// A thread of a deadlocked run: the lock it wants, who holds it, and the locks it holds.
    struct BlockedThread {
        let thread: Thread
        let wanted: Int
        let holder: Int?
        let held: [(lock: Int, site: SyncSite)]
        /// Where the wanted lock was asked for.
        let wantedSite: SyncSite
    }

    /// How a run ended badly.
    enum Outcome {
        case deadlock([BlockedThread])
        case stalled(String)
        case violation(String)
        /// Two threads accessed data a lock or a once-flag guards with nothing ordering
        /// them (see `checkAccess`).
        case dataRace(String)
    }

    /// Guards every field below; never a Rivulet lock (it has no synchronization point).
    private let mutex = NSLock()
    private var threads: [Thread] = []
    private var running: Thread?
    private var owners: [UnsafeRawPointer: Int] = [:]
    /// How each lock asked for is unlocked (`endIfAbandoned`).
    private var lockReleases: [UnsafeRawPointer: Interleaving.LockRelease] = [:]
    private var lockNames: [UnsafeRawPointer: Int] = [:]
    /// What each lock guards, by the type the library named when it was first taken.
    private(set) var lockOwners: [Int: String] = [:]
    private var queueNames: [ObjectIdentifier: Int] = [:]
    /// What each lock's last release and each atomic's releasing operations published.
    private var published: [UnsafeRawPointer: VectorClock] = [:]
    /// What the finished work of each serial queue published to the work after it.
    private var queueClocks: [ObjectIdentifier: VectorClock] = [:]
    /// The last access of each region of guarded data (a lock's, a once-flag's).
    private var lastAccess: [UnsafeRawPointer: (thread: Int, epoch: Int, site: SyncSite)] = [:]
    /// How many times a thread that is not a timer's callback was chosen.
    private var otherSteps = 0
    /// The steps a run may take before it counts as running away (a periodic timer never
    /// disposed, a loop of queued work).
    static let stepLimit = 10_000
    private(set) var chooser: ScheduleChooser
    private(set) var trace: [String] = []
    private(set) var outcome: Outcome?
    private let ended = DispatchSemaphore(value: 0)
    private var hasEnded = false
    /// Set once a run that ended badly let its parked threads go (`releaseParked()`).
    private var abandoned = false
    /// The thread blocked outside Rivulet's points when the run stalled, if it did.
    private var stalledThread: Thread?
    private var hooks: InterleavingHooks!
    /// The run's subscriptions and the anomalies the library reports, from every thread.
    private(set) var tracker: ScheduleTracker!

    /// `mutant`: a concurrency mutant (`Mutation`) in force on the run's threads only.
    init(chooser: ScheduleChooser, mutant: Mutation.Mutant? = nil) {
        self.chooser = chooser
        tracker = ScheduleTracker { [unowned self] anomaly in
            violate("the library reports: \(anomaly.summary)")
        }
        hooks = InterleavingHooks(
            willAcquire: { [unowned self] lock, site, owner, release in acquire(lock, at: site, owner: owner, release: release) },
            didRelease: { [unowned self] lock, site in release(lock, at: site) },
            atomicStep: { [unowned self] what, site, word, ordering in
                step("\(what) at \(site)")
                if let word { synchronize(word, ordering) }
            },
            access: { [unowned self] region, site in access(region, at: site) },
            forget: { [unowned self] region in forget(region) },
            deinitializing: { [unowned self] in orderAfterEveryThread() },
            enqueue: { [unowned self] queue, serial, work in
                start(name: serial ? "queue \(queueName(queue))" : "concurrent work", queue: serial ? queue : nil, work)
                return true
            },
            enqueueTimer: { [unowned self] queue, serial, due, work in
                start(name: serial ? "timer on queue \(queueName(queue))" : "timer", queue: serial ? queue : nil, due: due, work)
                return true
            }
        )
        hooks.mutant = mutant
    }

    /// Runs `body` as thread 0 and waits until every thread finished, the run deadlocked,
    /// or no thread took a step for `patience` seconds (a thread blocked where the library has
    /// no synchronization point: a semaphore, a sleep, a lock of its own).
    func run(patience: Double, _ body: @escaping @Sendable () -> Void) {
        mutex.lock()
        let first = makeThread(name: "body", queue: nil, due: nil, after: nil, body)
        running = first
        mutex.unlock()
        first.baton.signal()
        var seen = -1
        var quietSince = DispatchTime.now()
        while ended.wait(timeout: .now() + 0.05) == .timedOut {
            mutex.lock()
            let progress = trace.count
            mutex.unlock()
            if progress != seen {
                seen = progress
                quietSince = .now()
                continue
            }
            guard DispatchTime.now().uptimeNanoseconds - quietSince.uptimeNanoseconds > UInt64(patience * 1e9) else { continue }
            mutex.lock()
            stalledThread = running
            if outcome == nil {
                let who = running.map { "thread \($0.number) (\($0.name))" } ?? "no thread"
                outcome = .stalled("\(who) blocked outside Rivulet's synchronization points for \(patience) s (a semaphore, a sleep, a blocking call or a lock Rivulet does not own); the explorer can only choose at Rivulet's locks, atomics and queues")
            }
            hasEnded = true
            countParked()
            mutex.unlock()
            return
        }
    }

    /// After a run that ended badly (a deadlock, a stall, the step limit): lets its
    /// threads parked at a step go, and each ends there (`Foundation.Thread.exit()`),
    /// without running the rest of its work; a thread not started yet does not start. A
    /// thread blocked outside Rivulet's points (a stall's) goes on, unexplored, once it
    /// unblocks. A thread that ends unlocks the locks it holds first (`endIfAbandoned`).
    func releaseParked() {
        mutex.lock()
        guard hasEnded, outcome != nil, !abandoned else { mutex.unlock(); return }
        abandoned = true
        let parked = threads.filter { !$0.isFinished && $0 !== stalledThread }
        mutex.unlock()
        for thread in parked { thread.baton.signal() }
    }

    /// By a thread woken at a step: ends it if the run was abandoned meanwhile. It first
    /// unlocks the locks it holds, newest first: a lock owned by a thread that no longer
    /// exists would hang (on the futex, or in a pthread mutex) whoever takes it next, such
    /// as a disposal when the test lets go of the run's subscriptions.
    private func endIfAbandoned(_ me: Thread) {
        mutex.lock()
        let ends = abandoned
        let held = ends ? me.held.reversed().map { ($0.lock, lockReleases[$0.lock]) } : []
        if ends { me.held = [] }
        mutex.unlock()
        guard ends else { return }
        InterleavingHooks.install(nil)
        for (lock, release) in held { release?(lock) }
        _ = Self.parked.addRelaxed(-1)
        Foundation.Thread.exit()
    }

    /// With `mutex` held, as a run ends badly: its threads that will wait at a step
    /// until `releaseParked()` lets them go (all but a stalled one), counted.
    private func countParked() {
        let count = threads.count { !$0.isFinished && $0 !== stalledThread }
        _ = Self.parked.addRelaxed(count)
    }

    /// How many threads of every run are parked at a step of a run that ended badly and
    /// not let go yet: 0 once each such run's `releaseParked()` ended them.
    static var parkedThreads: Int { parked.loadRelaxed() }
    private static let parked = GlobalAtomic<Int>(0)

    /// A point where another thread may go first: a grammar check, an observer's event.
    func step(_ what: String) {
        mutex.lock()
        guard let me = running, !hasEnded else { mutex.unlock(); return }
        trace.append("thread \(me.number): \(what)")
        switchThreads(from: me)
    }

    /// Records a broken rule; the run goes on to its end, then fails with it.
    func violate(_ message: String) {
        mutex.lock()
        if outcome == nil {
            let who = running.map { "thread \($0.number) (\($0.name))" } ?? "a thread the explorer does not run"
            outcome = .violation("\(message), on \(who)")
            trace.append("\(who): \(message)")
        }
        mutex.unlock()
    }

    /// Starts a thread running `work`, from the running thread.
    func start(name: String, queue: ObjectIdentifier?, due: UInt64? = nil, _ work: @escaping @Sendable () -> Void) {
        mutex.lock()
        guard let me = running, !hasEnded else { mutex.unlock(); return }
        let thread = makeThread(name: name, queue: queue, due: due, after: me, work)
        if due != nil, me.due != nil {
            thread.armedAfter = otherSteps
            thread.chain = me.chain + 1
        }
        trace.append("thread \(me.number): starts thread \(thread.number) (\(name))")
        guard due == nil else {
            // Arming a timer is no point where another thread may go: its callback is
            // due later, and starts at a later point of some thread's.
            mutex.unlock()
            return
        }
        switchThreads(from: me)
    }

    private func acquire(_ lock: UnsafeRawPointer, at site: SyncSite, owner: Any.Type, release: Interleaving.LockRelease) {
        mutex.lock()
        guard let me = running, !hasEnded else { mutex.unlock(); return }
        me.state = .wantsLock(lock, at: site)
        lockReleases[lock] = release
        let name = lockName(lock)
        if lockOwners[name] == nil { lockOwners[name] = Self.ownerName(owner) }
        trace.append("thread \(me.number): asks for lock L\(name) (\(lockOwners[name] ?? "")) at \(site)")
        switchThreads(from: me)
    }

    private func release(_ lock: UnsafeRawPointer, at site: SyncSite) {
        mutex.lock()
        guard let me = running, !hasEnded else { mutex.unlock(); return }
        owners[lock] = nil
        me.held.removeAll { $0.lock == lock }
        published[lock] = me.clock
        me.clock.tick(me.number)
        trace.append("thread \(me.number): releases lock L\(lockName(lock)) at \(site)")
        switchThreads(from: me)
    }

    /// A lock's owner as a person reads it: the type of what it guards, without the
    /// library's modules (`LockedPair<SubjectState, ()>`, `ExplorableLock.Owner`).
    private static func ownerName(_ owner: Any.Type) -> String {
        var name = String(reflecting: owner)
        for module in ["RxSwift", "RxRelay", "RxCocoa", "RxBlocking", "RxTest", "RxTestCore", "Swift"] {
            name = name.replacingOccurrences(of: module + ".", with: "")
        }
        return name
    }

    /// With `mutex` held, by the running thread `me`: chooses who goes next, hands over,
    /// and returns (with `mutex` released) once `me` is chosen again.
    private func switchThreads(from me: Thread) {
        if trace.count > Self.stepLimit, outcome == nil {
            outcome = .stalled("the run took more than \(Self.stepLimit) steps without ending (a periodic timer that nothing disposes, or work that queues more work forever)")
            hasEnded = true
            countParked()
            ended.signal()
            mutex.unlock()
            me.baton.wait()
            endIfAbandoned(me)
            return
        }
        let enabled = enabledThreads()
        guard !enabled.isEmpty else {
            endDeadlocked()
            mutex.unlock()
            // This thread never goes on: the run is over and its locks are part of the report.
            me.baton.wait()
            endIfAbandoned(me)
            return
        }
        let currentNumber = enabled.contains { $0 === me } ? me.number : nil
        let chosenNumber = chooser.choose(among: enabled.map(\.number), current: currentNumber)
        let chosen = threads[chosenNumber]
        grant(chosen)
        if chosen === me {
            mutex.unlock()
            return
        }
        running = chosen
        mutex.unlock()
        chosen.baton.signal()
        me.baton.wait()
        endIfAbandoned(me)
    }

    /// With `mutex` held: the thread `me` finished.
    private func finish(_ me: Thread) {
        mutex.lock()
        me.state = .finished
        if let queue = me.queue { queueClocks[queue, default: VectorClock()].join(me.clock) }
        trace.append("thread \(me.number): finishes")
        guard !hasEnded else { mutex.unlock(); return }
        let enabled = enabledThreads()
        if enabled.isEmpty {
            if threads.allSatisfy({ if case .finished = $0.state { true } else { false } }) {
                hasEnded = true
                running = nil
                mutex.unlock()
                ended.signal()
            } else {
                endDeadlocked()
                mutex.unlock()
            }
            return
        }
        let chosen = threads[chooser.choose(among: enabled.map(\.number), current: nil)]
        grant(chosen)
        running = chosen
        mutex.unlock()
        chosen.baton.signal()
    }

    /// With `mutex` held: a new thread running `work`, started by `creator` (which
    /// happens before it).
    private func makeThread(name: String, queue: ObjectIdentifier?, due: UInt64?, after creator: Thread?, _ work: @escaping @Sendable () -> Void) -> Thread {
        let thread = Thread(number: threads.count, name: name, queue: queue, due: due)
        if let creator {
            thread.clock = creator.clock
            creator.clock.tick(creator.number)
        }
        thread.clock.tick(thread.number)
        threads.append(thread)
        let hooks = hooks!
        let tracker: ScheduleTracker = tracker
        // The work is released on the run's thread, before its hooks go: what only the
        // work holds ends there, seen by the explorer (an object's end on a thread it does
        // not run would leave its accesses to the next object at its address).
        let held = HeldWork(work)
        let system = Foundation.Thread { [self] in
            InterleavingHooks.install(hooks)
            thread.baton.wait()
            endIfAbandoned(thread)
            TestKitHooks.Tracking.withTracker(tracker) { held.run() }
            InterleavingHooks.install(nil)
            finish(thread)
        }
        system.name = "schedule explorer: \(name)"
        system.start()
        return thread
    }

    /// The threads that can go on now.
    private func enabledThreads() -> [Thread] {
        let enabled = threads.filter(isEnabled)
        guard enabled.contains(where: { $0.due == nil }) else { return enabled }
        return enabled.filter { thread in
            guard let armedAfter = thread.armedAfter, !thread.started else { return true }
            return thread.chain < 2 && otherSteps > armedAfter
        }
    }

    private func isEnabled(_ thread: Thread) -> Bool {
        switch thread.state {
        case .finished:
            return false
        case let .wantsLock(lock, _):
            if owners[lock] != nil { return false }
        case .ready:
            break
        }
        if !thread.started, thread.due != nil {
            // A timer fires after the timers due before it.
            if threads.contains(where: { !$0.started && !$0.isFinished && $0.isTimer(before: thread) }) { return false }
        }
        guard let queue = thread.queue, !thread.started else { return true }
        return !threads.contains { other in
            guard other !== thread, other.queue == queue, !other.isFinished else { return false }
            // Work of a serial queue waits for the work queued before it; a timer's
            // callback, queued when it fires, waits only for the work running there.
            if other.started { return true }
            return thread.due == nil && other.due == nil && other.number < thread.number
        }
    }

    private func grant(_ thread: Thread) {
        if !thread.started, let queue = thread.queue, let before = queueClocks[queue] {
            // Work of a serial queue starts after the work that ran there before it.
            thread.clock.join(before)
        }
        thread.started = true
        if thread.due == nil { otherSteps += 1 }
        if case let .wantsLock(lock, site) = thread.state {
            owners[lock] = thread.number
            thread.held.append((lock, site))
            thread.state = .ready
            if let release = published[lock] { thread.clock.join(release) }
            // The critical section accesses what the lock guards.
            checkAccess(lock, at: site, by: thread)
        }
    }

    /// By the running thread, just before its operation on the atomic `word`: what the
    /// operation publishes and sees.
    private func synchronize(_ word: UnsafeRawPointer, _ ordering: AtomicOrdering) {
        mutex.lock()
        defer { mutex.unlock() }
        guard let me = running, !hasEnded else { return }
        switch ordering {
        case .none:
            break
        case .acquiring:
            if let release = published[word] { me.clock.join(release) }
        case .releasing:
            published[word, default: VectorClock()].join(me.clock)
            me.clock.tick(me.number)
        case .acquiringAndReleasing:
            if let release = published[word] { me.clock.join(release) }
            published[word] = me.clock
            me.clock.tick(me.number)
        }
    }

    /// By the running thread: an access of `region` at `site`, with no point of its own.
    private func access(_ region: UnsafeRawPointer, at site: SyncSite) {
        mutex.lock()
        defer { mutex.unlock() }
        guard let me = running, !hasEnded else { return }
        checkAccess(region, at: site, by: me)
    }

    /// With `mutex` held: `thread` accesses `region` at `site`. The access before it, by
    /// another thread, must happen before it (its thread published it to this one through
    /// a lock, an atomic, a queue or a thread start); otherwise the two race.
    private func checkAccess(_ region: UnsafeRawPointer, at site: SyncSite, by thread: Thread) {
        if let last = lastAccess[region], last.thread != thread.number, thread.clock[last.thread] < last.epoch, outcome == nil {
            let other = threads[last.thread]
            let what = lockNames[region].map { name in "the data of lock L\(name)" + (lockOwners[name].map { " (\($0))" } ?? "") }
                ?? "the data a lock or a once-flag guards"
            let message = "thread \(thread.number) (\(thread.name)) accesses \(what) at \(site), and thread \(other.number) (\(other.name)) accessed it at \(last.site), with no lock, atomic, queue or thread start ordering the two"
            outcome = .dataRace(message)
            trace.append("thread \(thread.number): data race: \(message)")
        }
        lastAccess[region] = (thread.number, thread.clock[thread.number], site)
    }

    /// By the running thread, starting an object's `deinit`: it sees everything every
    /// thread did so far (see `Interleaving.deinitializing()`).
    private func orderAfterEveryThread() {
        mutex.lock()
        defer { mutex.unlock() }
        guard let me = running, !hasEnded else { return }
        for thread in threads where thread !== me {
            me.clock.join(thread.clock)
        }
    }

    /// An object whose region of data was accessed is going away: one made later at its
    /// address is another one.
    private func forget(_ region: UnsafeRawPointer) {
        mutex.lock()
        lastAccess[region] = nil
        published[region] = nil
        mutex.unlock()
    }

    private func endDeadlocked() {
        hasEnded = true
        let blocked = threads.compactMap { thread -> BlockedThread? in
            guard case let .wantsLock(lock, site) = thread.state else { return nil }
            return BlockedThread(
                thread: thread,
                wanted: lockName(lock),
                holder: owners[lock],
                held: thread.held.map { (lockName($0.lock), $0.site) },
                wantedSite: site
            )
        }
        outcome = .deadlock(blocked)
        countParked()
        ended.signal()
    }

    /// The report of a deadlock, written after the run, off the run's threads: finding
    /// the source places of the lock sites takes Rivulet's own locks.
    static func describe(_ blocked: [BlockedThread], owners: [Int: String]) -> String {
        var lines = ["every thread waits for a lock another one holds:"]
        func named(_ lock: Int) -> String {
            owners[lock].map { "L\(lock) (\($0))" } ?? "L\(lock)"
        }
        for entry in blocked {
            let holder = entry.holder.map { "thread \($0)" } ?? "no thread"
            lines.append("  thread \(entry.thread.number) (\(entry.thread.name)) wants \(named(entry.wanted)), held by \(holder), at \(entry.wantedSite)")
            for (held, site) in entry.held {
                lines.append("    and holds \(named(held)), taken at \(site)")
            }
        }
        return lines.joined(separator: "\n")
    }

    private func lockName(_ lock: UnsafeRawPointer) -> Int {
        if let name = lockNames[lock] { return name }
        let name = lockNames.count + 1
        lockNames[lock] = name
        return name
    }

    private func queueName(_ queue: ObjectIdentifier) -> Int {
        mutex.lock()
        defer { mutex.unlock() }
        if let name = queueNames[queue] { return name }
        let name = queueNames.count + 1
        queueNames[queue] = name
        return name
    }
}

/// A thread's work, run once and released as it ends.
private final class HeldWork: @unchecked Sendable {
    private var work: (@Sendable () -> Void)?

    init(_ work: @escaping @Sendable () -> Void) {
        self.work = work
    }

    func run() {
        let work = self.work.take()
        work?()
    }
}

/// What a thread of a run knows of the others' progress (happens-before): entry `t` is
/// the count of thread `t`'s releases that this thread saw, through a lock taken after
/// their release, an atomic read after their releasing write, the serial queue work ran
/// on, or the thread start. Entries of threads never heard of are 0.
struct VectorClock {
    private var entries: [Int] = []

    subscript(thread: Int) -> Int {
        thread < entries.count ? entries[thread] : 0
    }

    /// One more release of `thread`'s.
    mutating func tick(_ thread: Int) {
        if thread >= entries.count { entries += repeatElement(0, count: thread + 1 - entries.count) }
        entries[thread] += 1
    }

    /// Sees what `other` saw.
    mutating func join(_ other: VectorClock) {
        if other.entries.count > entries.count { entries += repeatElement(0, count: other.entries.count - entries.count) }
        for (thread, count) in other.entries.enumerated() where count > entries[thread] {
            entries[thread] = count
        }
    }
}

/// Counts the subscriptions a run opens and ends, and passes on the anomalies the library
/// detects itself (an event after a terminal one at a `create` observer, overlapping
/// delivery, an error no one handles).
final class ScheduleTracker: TestKitHooks.Tracker, @unchecked Sendable {
    private let mutex = NSLock()
    private var open: [Int: String] = [:]
    private var nextID = 0
    private let onAnomaly: @Sendable (TestKitHooks.Anomaly) -> Void

    init(onAnomaly: @escaping @Sendable (TestKitHooks.Anomaly) -> Void) {
        self.onAnomaly = onAnomaly
    }

    /// What is still open, by kind, with counts: `["subscribe(onNext:) ×2"]`.
    var stillOpen: [String] {
        mutex.lock()
        defer { mutex.unlock() }
        var counts: [String: Int] = [:]
        for kind in open.values { counts[kind, default: 0] += 1 }
        return counts.sorted { $0.key < $1.key }.map { $0.value == 1 ? $0.key : "\($0.key) ×\($0.value)" }
    }

    func opened(_ kind: TestKitHooks.TrackedKind) -> Int {
        mutex.lock()
        defer { mutex.unlock() }
        nextID += 1
        open[nextID] = Self.name(kind)
        return nextID
    }

    func closed(_ id: Int) {
        mutex.lock()
        let kind = open.removeValue(forKey: id)
        mutex.unlock()
        if kind == nil {
            // A subscription reports its end once (its token's once-flag): a second
            // report means two threads both took the end.
            onAnomaly(TestKitHooks.Anomaly(summary: "subscription \(id) reported its end twice", details: "A subscription's end (dispose, terminal event or release) is reported once."))
        }
    }

    func released(_ id: Int) {
        closed(id)
    }

    func renamed(_ id: Int, _ kind: TestKitHooks.TrackedKind) {
        mutex.lock()
        if open[id] != nil { open[id] = Self.name(kind) }
        mutex.unlock()
    }

    func anomaly(_ anomaly: TestKitHooks.Anomaly) {
        onAnomaly(anomaly)
    }

    private static func name(_ kind: TestKitHooks.TrackedKind) -> String {
        switch kind {
        case let .sink(type): "\(type)"
        case let .subscription(name): name
        case let .named(name): name
        }
    }
}
#endif
