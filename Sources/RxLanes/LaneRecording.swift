/// What a ``LaneRecorder`` saw, taken at one moment: every lane, the threads events
/// arrived on, and the entries still in the lanes' rings, in the order they were
/// recorded.
///
/// A recording is plain data: it can be saved in the lanes file format
/// (``fileText``), read back (``init(fileText:)``), drawn with `rxmarbles lanes FILE`,
/// and turned into a test.
public struct LaneRecording: Equatable, Sendable {
    /// The version of the file format that ``fileText`` writes and ``init(fileText:)`` reads.
    public static let formatVersion = 1

    /// One named lane: what the `recordLane` operators of that name saw.
    public struct Lane: Equatable, Sendable {
        /// The name given to `recordLane`.
        public var name: String
        /// The Swift type of the lane's elements (`String`, `Bool`, `SignInResponse`).
        public var elementType: String
        /// How many entries the lane's ring keeps; older ones are dropped.
        public var capacity: Int
        /// How many entries the ring dropped because it was full (the oldest ones).
        public var dropped: Int

        /// A lane.
        public init(name: String, elementType: String, capacity: Int, dropped: Int = 0) {
            self.name = name
            self.elementType = elementType
            self.capacity = capacity
            self.dropped = dropped
        }
    }

    /// What one entry records.
    public enum Kind: Equatable, Sendable {
        /// A subscription to the lane began.
        case subscribed
        /// An element, as the lane's `describe` closure wrote it.
        case next(String)
        /// A failure, with the error's description; it ends the subscription.
        case error(String)
        /// The completion; it ends the subscription.
        case completed
        /// The subscription was disposed before any terminal event: its end.
        case disposed

        /// Whether this ends its subscription.
        public var endsSubscription: Bool {
            switch self {
            case .subscribed, .next: return false
            case .error, .completed, .disposed: return true
            }
        }
    }

    /// One recorded moment of one subscription of a lane.
    public struct Entry: Equatable, Sendable {
        /// Nanoseconds since the recorder started, from a monotonic clock.
        public var time: UInt64
        /// The index of the lane in ``LaneRecording/lanes``.
        public var lane: Int
        /// The subscription it belongs to, counted from 1 within the lane.
        public var subscription: Int
        /// The index of the thread it arrived on in ``LaneRecording/threads``.
        public var thread: Int
        /// What happened.
        public var kind: Kind

        /// An entry.
        public init(time: UInt64, lane: Int, subscription: Int, thread: Int, kind: Kind) {
            self.time = time
            self.lane = lane
            self.subscription = subscription
            self.thread = thread
            self.kind = kind
        }
    }

    /// The lanes, in the order they were first used.
    public var lanes: [Lane]
    /// The threads events arrived on: a dispatch queue's label (`main` for the main
    /// queue on the main thread), with `#2`, `#3`... when several threads ran one label.
    public var threads: [String]
    /// The entries still held, in the order they were recorded (across lanes too).
    public var entries: [Entry]

    /// A recording.
    public init(lanes: [Lane] = [], threads: [String] = [], entries: [Entry] = []) {
        self.lanes = lanes
        self.threads = threads
        self.entries = entries
    }

    /// The entries of lane `lane`, in order.
    public func entries(ofLane lane: Int) -> [Entry] {
        entries.filter { $0.lane == lane }
    }

    /// The index of the lane named `name`, if there is one.
    public func lane(named name: String) -> Int? {
        lanes.firstIndex { $0.name == name }
    }
}
