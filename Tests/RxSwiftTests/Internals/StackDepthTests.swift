import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

// 100,000 steps of work that RxSwift runs in a loop rather than by recursion (its
// trampoline, its virtual-time queue) must not grow the stack with the step count.
// Each scenario runs on a thread with a 4 MiB stack and a bounded wait: an
// implementation that recursed once per step would overflow it (a crash of the test
// process) long before 100,000.

private let depth = 100_000

/// Runs `body` on a thread with a 4 MiB stack; `nil` if it did not finish in time.
private func onSmallStack<T: Sendable>(seconds: Double = 60, _ body: @escaping @Sendable () -> T) -> T? {
    let result = LockedBox<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        result.value = body()
        done.signal()
    }
    thread.stackSize = 4 << 20
    thread.start()
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return result.value
}

@Suite("Stack depth of long synchronous work", .rxLeakCheck)
struct StackDepthTests {
    @Test("scheduleRecursive 100,000 times on CurrentThreadScheduler")
    func currentThreadRecursion() {
        let count = onSmallStack { () -> Int in
            var runs = 0
            let disposable = CurrentThreadScheduler.instance.scheduleRecursive(0) { step, recurse in
                runs += 1
                if step < depth { recurse(step + 1) }
            }
            disposable.dispose()
            return runs
        }
        #expect(count == depth + 1)
    }

    @Test("scheduleRecursive 100,000 times on CurrentThreadScheduler from inside a running trampoline")
    func currentThreadRecursionNested() {
        let count = onSmallStack { () -> Int in
            var runs = 0
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                #expect(!CurrentThreadScheduler.isScheduleRequired)
                return CurrentThreadScheduler.instance.scheduleRecursive(0) { step, recurse in
                    runs += 1
                    if step < depth { recurse(step + 1) }
                }
            }
            return runs
        }
        #expect(count == depth + 1)
    }

    @Test("scheduleRecursive 100,000 times on a TestScheduler, one tick apart")
    func virtualTimeRecursion() {
        let result = onSmallStack { () -> [Int] in
            let scheduler = TestScheduler(initialClock: 0)
            var times: [Int] = []
            times.reserveCapacity(depth + 1)
            let disposable = scheduler.scheduleRecursive(0, dueTime: .seconds(1)) { step, recurse in
                times.append(scheduler.clock)
                if step < depth { recurse(step + 1, .seconds(1)) }
            }
            scheduler.start()
            disposable.dispose()
            return times
        }
        #expect(result?.count == depth + 1)
        #expect(result?.first == 1)
        #expect(result?.last == depth + 1)
    }

    @Test("scheduleRecursive 100,000 times on a TestScheduler without a due time")
    func virtualTimeImmediateRecursion() {
        let result = onSmallStack { () -> (runs: Int, clock: Int) in
            let scheduler = TestScheduler(initialClock: 0)
            var runs = 0
            let disposable = scheduler.scheduleRecursive(0) { (step: Int, recurse: (Int) -> Void) in
                runs += 1
                if step < depth { recurse(step + 1) }
            }
            scheduler.start()
            disposable.dispose()
            return (runs, scheduler.clock)
        }
        #expect(result?.runs == depth + 1)
        // Work due now runs one tick later (simulateProcessingDelay).
        #expect(result?.clock == depth + 1)
    }

    /// Each step runs as a new action on the queue, so the stack stays flat, unless the
    /// recursive action grows with each step (as a function value stored generically
    /// and passed `inout` does: two thunks more per step).
    @Test("scheduleRecursive 100,000 times on a dispatch queue scheduler")
    func dispatchQueueRecursion() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let runs = LockedBox(0)
        let done = DispatchSemaphore(value: 0)
        let disposable = scheduler.scheduleRecursive(0) { step, recurse in
            runs.mutate { $0 += 1 }
            if step < depth {
                recurse(step + 1)
            } else {
                done.signal()
            }
        }
        #expect(done.wait(timeout: .now() + 120) == .success)
        disposable.dispose()
        #expect(runs.value == depth + 1)
    }

    @Test("range, from and repeatElement emit 100,000 elements through a chain without recursion")
    func longSynchronousSources() {
        let result = onSmallStack { () -> [Int] in
            var counts: [Int] = []
            var sum = 0
            _ = Observable.range(start: 0, count: depth).map { $0 + 1 }.filter { _ in true }
                .subscribe(onNext: { sum += $0 })
            counts.append(sum)
            var fromCount = 0
            _ = Observable.from(Array(0..<depth)).subscribe(onNext: { _ in fromCount += 1 })
            counts.append(fromCount)
            var repeated = 0
            _ = Observable.repeatElement(1).take(depth).subscribe(onNext: { repeated += $0 })
            counts.append(repeated)
            return counts
        }
        #expect(result == [depth * (depth + 1) / 2, depth, depth])
    }

    @Test("retry over 100,000 synchronous failures, then a success")
    func retryManySynchronousFailures() {
        let result = onSmallStack { () -> [Event<Int>] in
            var attempts = 0
            let source = Observable<Int>.create { observer in
                attempts += 1
                if attempts <= depth {
                    observer.onError(testError)
                } else {
                    observer.onNext(attempts)
                    observer.onCompleted()
                }
                return Disposables.create()
            }
            var events: [Event<Int>] = []
            _ = source.retry(depth + 1).subscribe { events.append($0) }
            return events
        }
        #expect(result == [.next(depth + 1), .completed])
    }

    @Test("retry gives up after 100,000 synchronous failures with the last error")
    func retryExhausted() {
        let result = onSmallStack { () -> [Event<Int>] in
            var events: [Event<Int>] = []
            _ = Observable<Int>.error(testError).retry(depth).subscribe { events.append($0) }
            return events
        }
        #expect(result == [.error(testError)])
    }

    @Test("catch(sequence:) over 100,000 synchronously failing sources")
    func catchSequenceManySources() {
        let result = onSmallStack { () -> [Event<Int>] in
            let failing = Array(repeating: Observable<Int>.error(testError), count: depth)
            var events: [Event<Int>] = []
            _ = Observable.catch(sequence: failing + [Observable.just(7)]).subscribe { events.append($0) }
            return events
        }
        #expect(result == [.next(7), .completed])
    }
}
