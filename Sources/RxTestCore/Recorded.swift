import RxSwift

/// A virtual time of a `TestScheduler`.
public typealias TestTime = Int

/// A value recorded at a virtual time: `Recorded<Event<Int>>` is an event at a tick.
public struct Recorded<Value>: CustomDebugStringConvertible {
    /// When the value was recorded.
    public let time: TestTime
    /// The recorded value.
    public let value: Value
    /// The key the value was written with, when it was parsed from marbles; not part of
    /// its equality. A failure draws the value with it.
    package let marbleKey: MarbleKey?

    /// A value at `time`.
    @inline(__always)
    public init(time: TestTime, value: Value) {
        self.init(time: time, value: value, marbleKey: nil)
    }

    /// A value at `time`, parsed from marbles where it was written as `marbleKey`.
    @inline(__always)
    package init(time: TestTime, value: Value, marbleKey: MarbleKey?) {
        self.time = time
        self.value = value
        self.marbleKey = marbleKey
    }

    public var debugDescription: String {
        "\(value) @ \(time)"
    }
}

extension Recorded: Sendable where Value: Sendable {}

extension Recorded: Equatable where Value: Equatable {
    /// Equal times and values; the marble keys they were written with do not count.
    public static func == (lhs: Recorded, rhs: Recorded) -> Bool {
        lhs.time == rhs.time && lhs.value == rhs.value
    }
}

extension Recorded: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(time)
        hasher.combine(value)
    }
}

extension Recorded {
    /// A `next` event at `time`.
    public static func next<T>(_ time: TestTime, _ element: T) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .next(element))
    }

    /// A `completed` event at `time`.
    public static func completed<T>(_ time: TestTime, _ type: T.Type = T.self) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .completed)
    }

    /// An `error` event at `time`.
    public static func error<T>(_ time: TestTime, _ error: Swift.Error, _ type: T.Type = T.self) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .error(error))
    }

    /// The events as an array (reads well in assertions).
    public static func events<T>(_ recordedEvents: Recorded<Event<T>>...) -> [Recorded<Event<T>>] where Value == Event<T> {
        recordedEvents
    }

    /// The events as an array.
    public static func events<T>(_ recordedEvents: [Recorded<Event<T>>]) -> [Recorded<Event<T>>] where Value == Event<T> {
        recordedEvents
    }
}

/// A `next` event at `time` (the spelling of RxTest 3 and older code).
public func next<T>(_ time: TestTime, _ element: T) -> Recorded<Event<T>> {
    Recorded(time: time, value: .next(element))
}

/// A `completed` event at `time` (the spelling of RxTest 3 and older code).
public func completed<T>(_ time: TestTime, _ type: T.Type = T.self) -> Recorded<Event<T>> {
    Recorded(time: time, value: .completed)
}

/// An `error` event at `time` (the spelling of RxTest 3 and older code).
public func error<T>(_ time: TestTime, _ error: Swift.Error, _ type: T.Type = T.self) -> Recorded<Event<T>> {
    Recorded(time: time, value: .error(error))
}

/// When a testable observable was subscribed to and when that subscription was disposed.
public struct Subscription: Hashable, Sendable, CustomDebugStringConvertible {
    /// The subscription time.
    public let subscribe: TestTime
    /// The disposal time; `Int.max` while still subscribed.
    public let unsubscribe: TestTime

    /// A subscription that is still open.
    public init(_ subscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = Int.max
    }

    /// A subscription from `subscribe` to `unsubscribe`.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    public var debugDescription: String {
        let end = unsubscribe == Int.max ? "Infinity" : "\(unsubscribe)"
        return "(\(subscribe): \(end))"
    }
}

/// Subscriptions are equal when both their subscription and their disposal times are.
public func == (lhs: Subscription, rhs: Subscription) -> Bool {
    lhs.subscribe == rhs.subscribe && lhs.unsubscribe == rhs.unsubscribe
}
