import Dispatch
import RxSwift
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps what the `recordLane` operators of a program see: per lane, a ring of its most
/// recent entries (subscriptions, events, ends), each with a monotonic timestamp and the
/// thread it arrived on.
///
/// Recording is off unless a `recordLane` operator is used, and it never changes the
/// events that pass through or their order. A lane keeps at most ``capacity`` entries:
/// when its ring is full, the oldest entry is dropped and counted
/// (``LaneRecording/Lane/dropped``). Every method is safe to call from any thread.
///
/// ```swift
/// let recorder = LaneRecorder(capacity: 1_000)
/// let enabled = viewModel.signInButtonEnabled.recordLane("enabled", in: recorder)
/// // ... run the program ...
/// try recorder.snapshot().fileText.write(toFile: "sign-in.lanes", atomically: true, encoding: .utf8)
/// ```
public final class LaneRecorder: Sendable {
    /// The recorder `recordLane` uses unless it is given another: capacity 10,000 a lane.
    public static let shared = LaneRecorder()

    /// How many entries each lane keeps.
    public let capacity: Int
    private let origin: UInt64
    private let state = GuardedState()

    /// A recorder whose lanes keep at most `capacity` entries each.
    public init(capacity: Int = 10_000) {
        guard capacity > 0 else {
            rxFatalError("a LaneRecorder keeps at least one entry a lane; capacity \(capacity) was asked for")
        }
        self.capacity = capacity
        origin = DispatchTime.now().uptimeNanoseconds
    }

    /// What has been recorded so far.
    public func snapshot() -> LaneRecording {
        state.withLock { state in
            var entries: [(sequence: UInt64, entry: LaneRecording.Entry)] = []
            for (index, lane) in state.lanes.enumerated() {
                for stored in lane.ring.inOrder {
                    entries.append((stored.sequence, LaneRecording.Entry(
                        time: stored.time, lane: index, subscription: stored.subscription, thread: Int(stored.thread), kind: stored.kind
                    )))
                }
            }
            entries.sort { $0.sequence < $1.sequence }
            return LaneRecording(
                lanes: state.lanes.map { LaneRecording.Lane(name: $0.name, elementType: $0.elementType, capacity: capacity, dropped: $0.ring.dropped) },
                threads: state.threadNames,
                entries: entries.map(\.entry)
            )
        }
    }

    /// Forgets every entry and drop count; lanes, their subscription numbers and the
    /// threads seen stay, so that pipelines already running go on recording.
    public func clear() {
        state.withLock { state in
            for index in state.lanes.indices {
                state.lanes[index].ring = EntryRing(capacity: capacity)
            }
        }
    }

    /// The index of the lane named `name`, made on first use.
    @usableFromInline
    func lane(named name: String, elementType: String) -> Int {
        state.withLock { state in
            if let index = state.laneIndex[name] { return index }
            state.lanes.append(LaneState(name: name, elementType: elementType, ring: EntryRing(capacity: capacity)))
            state.laneIndex[name] = state.lanes.count - 1
            return state.lanes.count - 1
        }
    }

    /// Records a new subscription to `lane` and returns its number.
    @usableFromInline
    func subscribe(to lane: Int) -> Int {
        let thread = ThreadKey.current
        return state.withLock { state in
            state.lanes[lane].subscriptions += 1
            let subscription = state.lanes[lane].subscriptions
            state.lanes[lane].open.insert(subscription)
            state.append(.subscribed, lane: lane, subscription: subscription, thread: thread, time: now)
            return subscription
        }
    }

    /// Records `kind` for a subscription that has not ended; an ending kind ends it.
    /// What comes after the end (the disposal after a completion, an element sent on
    /// another thread after the disposal was recorded) is not recorded.
    @usableFromInline
    func record(_ kind: LaneRecording.Kind, lane: Int, subscription: Int) {
        let thread = ThreadKey.current
        state.withLock { state in
            if kind.endsSubscription {
                guard state.lanes[lane].open.remove(subscription) != nil else { return }
            } else {
                guard state.lanes[lane].open.contains(subscription) else { return }
            }
            state.append(kind, lane: lane, subscription: subscription, thread: thread, time: now)
        }
    }

    /// Nanoseconds since the recorder started (read under the lock, so that times never
    /// decrease in the order entries are recorded).
    private var now: UInt64 {
        DispatchTime.now().uptimeNanoseconds &- origin
    }
}

/// A recorder's state and the Rivulet lock that guards it (the schedule explorer sees
/// it). Not a `LockedState`: from outside RxSwift, its generic `withLock` runs
/// unspecialized and looks the state's type up on every call, which made recording an
/// event cost twice as much (benchmark row 12).
private final class GuardedState: @unchecked Sendable {
    private let lock = Lock.make()
    private var state = RecorderState()

    @inline(__always)
    func withLock<Result>(fileID: StaticString = #fileID, line: UInt = #line, _ body: (inout RecorderState) -> Result) -> Result {
        lock.lock(fileID: fileID, line: line)
        defer { lock.unlock(fileID: fileID, line: line) }
        return body(&state)
    }
}

/// Everything a recorder keeps, under its lock.
private struct RecorderState {
    var lanes: [LaneState] = []
    var laneIndex: [String: Int] = [:]
    var threadIndex: [ThreadKey: Int] = [:]
    var threadNames: [String] = []
    var nextSequence: UInt64 = 0
    /// The thread of the last entry and its number: most entries come on the thread of
    /// the one before, and are numbered without hashing.
    var lastThread: (key: ThreadKey, number: Int)?

    mutating func append(_ kind: LaneRecording.Kind, lane: Int, subscription: Int, thread: ThreadKey, time: UInt64) {
        let threadNumber: Int
        if let lastThread, lastThread.key == thread {
            threadNumber = lastThread.number
        } else {
            threadNumber = threadIndex[thread] ?? newThread(thread)
            lastThread = (thread, threadNumber)
        }
        lanes[lane].ring.append(StoredEntry(sequence: nextSequence, time: time, subscription: subscription, thread: Int32(threadNumber), kind: kind))
        nextSequence += 1
    }

    /// Numbers a thread seen for the first time and names it.
    private mutating func newThread(_ thread: ThreadKey) -> Int {
        let label = thread.name
        let sameLabel = threadNames.filter { $0 == label || $0.hasPrefix(label + " #") }.count
        threadNames.append(sameLabel == 0 ? label : "\(label) #\(sameLabel + 1)")
        threadIndex[thread] = threadNames.count - 1
        return threadNames.count - 1
    }
}

/// One lane's state.
private struct LaneState {
    let name: String
    let elementType: String
    var ring: EntryRing
    var subscriptions = 0
    var open: Set<Int> = []
}

/// An entry as a lane's ring keeps it; its place among all lanes is `sequence`.
private struct StoredEntry {
    var sequence: UInt64
    var time: UInt64
    var subscription: Int
    var thread: Int32
    var kind: LaneRecording.Kind
}

/// A lane's most recent entries: up to `capacity`, the oldest dropped and counted.
private struct EntryRing {
    let capacity: Int
    private var storage: [StoredEntry] = []
    /// Where the oldest entry is once the ring is full.
    private var head = 0
    private(set) var dropped = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    mutating func append(_ entry: StoredEntry) {
        if storage.count < capacity {
            // Grown by doubling, but never past the capacity: a full ring holds no spare room.
            if storage.count == storage.capacity {
                storage.reserveCapacity(min(capacity, max(16, storage.count * 2)))
            }
            storage.append(entry)
        } else {
            storage[head] = entry
            head = (head + 1) % capacity
            dropped += 1
        }
    }

    /// The entries, oldest first.
    var inOrder: [StoredEntry] {
        Array(storage[head...] + storage[..<head])
    }
}

/// The thread an entry arrived on: the system thread and the dispatch queue it runs.
struct ThreadKey: Hashable {
    let thread: UInt
    let queueLabel: UInt

    /// The calling thread.
    static var current: ThreadKey {
        ThreadKey(thread: currentThreadID(), queueLabel: UInt(bitPattern: QueueLabel.current))
    }

    /// The name shown for it: `main`, or the label of the queue it runs.
    var name: String {
        let label = UnsafePointer<CChar>(bitPattern: queueLabel).map { String(cString: $0) } ?? ""
        if isOnMainThread, label.isEmpty || label == QueueLabel.main { return "main" }
        return label.isEmpty ? "thread" : label
    }
}

/// The label of the dispatch queue the calling thread runs, read through libdispatch's
/// `dispatch_queue_get_label` (Swift shows only `DispatchQueue.label`, of a queue one
/// holds).
enum QueueLabel {
    private typealias Get = @convention(c) (UnsafeRawPointer?) -> UnsafePointer<CChar>?
    private static let getLabel: Get? = {
        #if canImport(Darwin)
        let everyImage = UnsafeMutableRawPointer(bitPattern: -2)
        #else
        let everyImage: UnsafeMutableRawPointer? = nil
        #endif
        return dlsym(everyImage, "dispatch_queue_get_label").map { unsafeFunctionPointerCast($0, to: Get.self) }
    }()
    /// The main queue's label.
    static let main = DispatchQueue.main.label

    static var current: UnsafePointer<CChar>? {
        getLabel?(nil)
    }
}
