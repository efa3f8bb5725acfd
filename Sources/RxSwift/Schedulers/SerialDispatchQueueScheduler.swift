import Dispatch
import Foundation

/// Runs work on a serial dispatch queue; `observe(on:)` on it takes a faster path.
public class SerialDispatchQueueScheduler: SchedulerType, @unchecked Sendable {
    /// The type of an absolute time on this scheduler.
    public typealias Time = Date
    /// The type of a time interval on this scheduler, in seconds.
    public typealias TimeInterval = Foundation.TimeInterval

    let configuration: DispatchQueueConfiguration

    public var now: RxTime { Date() }

    init(serialQueue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueConfiguration(queue: serialQueue, leeway: leeway)
    }

    /// A scheduler on a new serial queue configured by `serialQueueConfiguration`.
    public convenience init(
        internalSerialQueueName: String,
        serialQueueConfiguration: ((DispatchQueue) -> Void)? = nil,
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        let queue = DispatchQueue(label: internalSerialQueueName, attributes: [])
        serialQueueConfiguration?(queue)
        self.init(serialQueue: queue, leeway: leeway)
    }

    /// A scheduler on a new serial queue that targets `queue`.
    public convenience init(
        queue: DispatchQueue,
        internalSerialQueueName: String,
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        let serialQueue = DispatchQueue(label: internalSerialQueueName, attributes: [], target: queue)
        self.init(serialQueue: serialQueue, leeway: leeway)
    }

    /// A scheduler on a new serial queue that targets the global queue of `qos`.
    public convenience init(
        qos: DispatchQoS,
        internalSerialQueueName: String = "rx.global_dispatch_queue.serial",
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        self.init(
            queue: DispatchQueue.global(qos: qos.qosClass),
            internalSerialQueueName: internalSerialQueueName,
            leeway: leeway
        )
    }

    public final func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleInternal(state, action: action)
    }

    func scheduleInternal<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        configuration.schedule(state, action: action)
    }

    /// Runs `work` on the queue, with no disposable; the main scheduler runs it at once
    /// when it can, as `schedule` does.
    func dispatch(_ work: @escaping @Sendable () -> Void) {
        configuration.async(work)
    }

    /// Runs `target.deliverWaiting()` as `dispatch` runs work (`observe(on:)` delivers
    /// its events through here). A separate entry so that the main scheduler can run it
    /// at once without a closure being built.
    func dispatchDelivery(_ target: any SerialQueueDelivery) {
        dispatch { target.deliverWaiting() }
    }

    /// Whether `observe(on:)` may deliver the events waiting in batches, one dispatch
    /// for all of them. The main schedulers say no: each event takes its own turn there
    /// (and on the main thread may run at once), as in RxSwift.
    var deliversInBatches: Bool { true }

    public final func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelativeInternal(state, dueTime: dueTime, action: action)
    }

    func scheduleRelativeInternal<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        configuration.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        configuration.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
