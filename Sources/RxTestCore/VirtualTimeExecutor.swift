import Dispatch
import Foundation
import RxSwift

/// The task executor of one `TestScheduler`: the jobs of the tasks that prefer it (a
/// virtual-time test's body, its child tasks, the actors they call and Rivulet's async
/// bridges started inside it) run here, one at a time, on a private serial queue.
///
/// It knows when it is *idle*: no job is queued and none is running. That is the moment
/// every task it runs has either finished or suspended on something that is not runnable
/// yet (a virtual sleep, an element that has not arrived, real I/O). `TestScheduler`'s
/// asynchronous `advance` waits for that moment after each action it runs, so the code
/// an action resumed has done all it can before the clock moves on.
package final class VirtualTimeExecutor: @unchecked Sendable {
    /// The jobs queued and whether one is running, and who waits for idleness.
    private struct Work {
        var jobs = SerialDelivery<UnownedJob>()
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let work = LockedState(Work())
    private let queue = DispatchQueue(label: "Rivulet.VirtualTimeExecutor")

    package init() {}

    /// Queues a job and starts draining when the executor was idle.
    func enqueue(unowned job: UnownedJob) {
        if work.withLock({ $0.jobs.enqueueStartingDrain(job) }) {
            queue.async { self.drain() }
        }
    }

    private enum Step {
        case run(UnownedJob)
        case idle([CheckedContinuation<Void, Never>])
    }

    /// Runs jobs until none is left, then resumes whoever waits for idleness (resuming
    /// them may queue jobs here again, which starts a new drain).
    private func drain() {
        while true {
            let step = work.withLock { work -> Step in
                if let job = work.jobs.next() {
                    return .run(job)
                }
                defer { work.idleWaiters.removeAll() }
                return .idle(work.idleWaiters)
            }
            switch step {
            case .run(let job):
                run(job)
            case .idle(let waiters):
                for waiter in waiters {
                    waiter.resume()
                }
                return
            }
        }
    }

    private func run(_ job: UnownedJob) {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
            job.runSynchronously(on: asUnownedTaskExecutor())
        } else {
            rxFatalError("VirtualTimeExecutor runs jobs only where task executors exist (macOS 15, iOS 18 and later).")
        }
    }

    /// Returns once the executor has been idle at some moment after the call: no job
    /// queued, none running.
    package func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = work.withLock { work -> Bool in
                if !work.jobs.isBusy { return true }
                work.idleWaiters.append(continuation)
                return false
            }
            if idle {
                continuation.resume()
            }
        }
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
extension VirtualTimeExecutor: TaskExecutor {
    package func enqueue(_ job: consuming ExecutorJob) {
        enqueue(unowned: UnownedJob(job))
    }
}
