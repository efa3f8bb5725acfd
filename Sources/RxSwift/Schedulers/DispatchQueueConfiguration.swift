import Dispatch
import Foundation

/// The dispatch-queue machinery shared by the queue-based schedulers.
struct DispatchQueueConfiguration: @unchecked Sendable {
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval
    /// Whether the queue runs one item at a time, in order (what a schedule explorer
    /// keeps when it runs the queue's work; see `Interleaving`).
    let serial: Bool

    init(queue: DispatchQueue, leeway: DispatchTimeInterval, serial: Bool = true) {
        self.queue = queue
        self.leeway = leeway
        self.serial = serial
    }

    /// Runs `work` on the queue, or hands it to the schedule explorer running the caller.
    func async(_ work: @escaping @Sendable () -> Void) {
        if !Interleaving.takes(work, queue: queue, serial: serial) {
            queue.async(execute: work)
        }
    }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        let work = UnsafeTransfer((state, action))
        async {
            if cancel.isDisposed { return }
            cancel.setDisposable(work.value.1(work.value.0))
        }
        return cancel
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let deadline = DispatchTime.now() + dueTime
        let compositeDisposable = CompositeDisposable()
        let work = UnsafeTransfer((state, action))
        let fire: @Sendable () -> Void = {
            if compositeDisposable.isDisposed { return }
            _ = compositeDisposable.insert(work.value.1(work.value.0))
        }
        if Interleaving.takesTimer(fire, due: deadline, queue: queue, serial: serial) {
            return compositeDisposable
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: deadline, leeway: leeway)
        // The timer keeps the state alive until it fires or is cancelled.
        let timerReference = UnsafeTransfer<DispatchSourceTimer?>(timer)
        timer.setEventHandler {
            fire()
            timerReference.value?.cancel()
        }
        timer.resume()
        _ = compositeDisposable.insert(Disposables.create { timer.cancel() })
        return compositeDisposable
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        let initial = DispatchTime.now() + startAfter
        let timerState = LockedState(state)
        let work = UnsafeTransfer(action)
        let tick: @Sendable () -> Void = {
            let current = timerState.withLock { $0 }
            let next = work.value(current)
            timerState.withLock { $0 = next }
        }
        if Interleaving.isExploring {
            let cancel = BooleanDisposable()
            armExplored(tick, due: initial, period: period, until: cancel)
            return cancel
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: initial, repeating: period, leeway: leeway)
        let cancel = Disposables.create { timer.cancel() }
        timer.setEventHandler {
            if cancel.isDisposed { return }
            tick()
        }
        timer.resume()
        return cancel
    }

    /// Under a schedule explorer: arms the periodic timer's callback due at `due`, which
    /// runs `tick` and arms the next one, until `cancel` is disposed.
    private func armExplored(_ tick: @escaping @Sendable () -> Void, due: DispatchTime, period: RxTimeInterval, until cancel: BooleanDisposable) {
        let next: @Sendable () -> Void = { [self] in
            if cancel.isDisposed { return }
            tick()
            armExplored(tick, due: due + period, period: period, until: cancel)
        }
        _ = Interleaving.takesTimer(next, due: due, queue: queue, serial: serial)
    }
}
