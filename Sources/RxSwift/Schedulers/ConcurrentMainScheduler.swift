import Dispatch
import Foundation

/// Runs work on the main thread: at once when already there, otherwise on the main queue.
public final class ConcurrentMainScheduler: SchedulerType, @unchecked Sendable {
    /// The type of an absolute time on this scheduler.
    public typealias Time = Date
    /// The type of a time interval on this scheduler, in seconds.
    public typealias TimeInterval = Foundation.TimeInterval

    private let mainScheduler: MainScheduler
    private let mainQueue = DispatchQueueConfiguration(queue: .main, leeway: .nanoseconds(0))

    /// The shared instance.
    public static let instance = ConcurrentMainScheduler(mainScheduler: MainScheduler())

    private init(mainScheduler: MainScheduler) {
        self.mainScheduler = mainScheduler
    }

    public var now: RxTime { mainScheduler.now }

    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if let substitution = SchedulerSubstitution.current {
            return substitution.mainInstance.schedule(state, action: action)
        }
        if isOnMainThread {
            return action(state)
        }
        return mainQueue.schedule(state, action: action)
    }

    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        mainScheduler.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        mainScheduler.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
