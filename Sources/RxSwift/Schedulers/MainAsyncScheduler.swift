import Dispatch
import Foundation

/// that schedules work while it substitutes the main schedulers.
final class MainAsyncScheduler: SerialDispatchQueueScheduler, @unchecked Sendable {
    override var deliversInBatches: Bool { false }

    override func dispatch(_ work: @escaping @Sendable () -> Void) {
        if let substitution = SchedulerSubstitution.current {
            substitution.asyncInstance.dispatch(work)
            return
        }
        super.dispatch(work)
    }

    override var now: RxTime {
        SchedulerSubstitution.current?.scheduler.now ?? Date()
    }

    override func scheduleInternal<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if let substitution = SchedulerSubstitution.current {
            return substitution.asyncInstance.scheduleInternal(state, action: action)
        }
        return super.scheduleInternal(state, action: action)
    }

    override func scheduleRelativeInternal<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        if let substitution = SchedulerSubstitution.current {
            return substitution.scheduler.scheduleRelative(state, dueTime: dueTime, action: action)
        }
        return super.scheduleRelativeInternal(state, dueTime: dueTime, action: action)
    }

    override func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        if let substitution = SchedulerSubstitution.current {
            return substitution.scheduler.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
        }
        return super.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
