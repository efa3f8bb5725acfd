import Dispatch
import Foundation

/// The dispatch-queue machinery shared by the queue-based schedulers.
struct DispatchQueueConfiguration: @unchecked Sendable {
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        let work = UnsafeTransfer((state, action))
        queue.async {
            if cancel.isDisposed { return }
            cancel.setDisposable(work.value.1(work.value.0))
        }
        return cancel
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let deadline = DispatchTime.now() + dueTime
        let compositeDisposable = CompositeDisposable()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let work = UnsafeTransfer((state, action))
        timer.schedule(deadline: deadline, leeway: leeway)
        // The timer keeps the state alive until it fires or is cancelled.
        let timerReference = UnsafeTransfer<DispatchSourceTimer?>(timer)
        timer.setEventHandler {
            if compositeDisposable.isDisposed { return }
            _ = compositeDisposable.insert(work.value.1(work.value.0))
            timerReference.value?.cancel()
        }
        timer.resume()
        _ = compositeDisposable.insert(Disposables.create { timer.cancel() })
        return compositeDisposable
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        let initial = DispatchTime.now() + startAfter
        let timerState = LockedState(state)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let work = UnsafeTransfer(action)
        timer.schedule(deadline: initial, repeating: period, leeway: leeway)
        let cancel = Disposables.create { timer.cancel() }
        timer.setEventHandler {
            if cancel.isDisposed { return }
            let current = timerState.withLock { $0 }
            let next = work.value(current)
            timerState.withLock { $0 = next }
        }
        timer.resume()
        return cancel
    }
}
