import Dispatch
import Foundation

/// Runs `work` on `threads` threads at once (they start together, after a barrier) and
/// waits at most `seconds` for all of them; returns `false` when they did not finish in
/// time (a deadlock fails, never hangs).
public func runConcurrently(threads: Int, seconds: Double = 30, _ work: @escaping @Sendable (Int) -> Void) -> Bool {
    let group = DispatchGroup()
    let ready = DispatchGroup()
    let go = DispatchSemaphore(value: 0)
    for index in 0..<threads {
        group.enter()
        ready.enter()
        let thread = Thread {
            ready.leave()
            _ = go.wait(timeout: .now() + seconds)
            work(index)
            group.leave()
        }
        thread.start()
    }
    guard ready.wait(timeout: .now() + seconds) == .success else { return false }
    for _ in 0..<threads { go.signal() }
    return group.wait(timeout: .now() + seconds) == .success
}

/// Runs `body` on another thread and returns its result; `nil` when it did not finish
/// within `seconds` (a deadlock then fails the test instead of hanging it).
public func runBounded<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () -> T) -> T? {
    let done = DispatchSemaphore(value: 0)
    let result = LockedBox<T?>(nil)
    DispatchQueue.global().async {
        result.value = body()
        done.signal()
    }
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return result.value
}

/// Polls `condition` until it holds, for at most `seconds`, blocking the calling thread.
public func eventually(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.002)
    }
    return condition()
}

/// Polls `condition` until it holds, for at most `seconds`, suspending between polls.
public func eventually(seconds: Double = 30, _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return condition()
}

/// Thrown by the asynchronous `runBounded` when its body did not finish in time.
public struct BoundedWaitTimedOut: Error, CustomStringConvertible {
    public let seconds: Double
    public var description: String { "did not finish within \(seconds) s" }
}

/// Runs `body` in its own task and gives up after `seconds`: a hang fails the test with
/// `BoundedWaitTimedOut` instead of blocking the run (the hung task is cancelled and left
/// behind). The default limit is generous because it only guards against hangs: the suite
/// shares a cooperative pool as wide as the machine has cores, and its blocking stress
/// tests can hold those threads for many seconds on a loaded machine.
public func runBounded<T: Sendable>(
    seconds: Double = 30,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = LockedBox<CheckedContinuation<T, Error>?>(nil)
    let finish: @Sendable (Result<T, Error>) -> Void = { result in
        let continuation = outcome.withLock { stored -> CheckedContinuation<T, Error>? in
            defer { stored = nil }
            return stored
        }
        continuation?.resume(with: result)
    }
    return try await withCheckedThrowingContinuation { continuation in
        outcome.value = continuation
        let work = Task {
            do {
                finish(.success(try await body()))
            } catch {
                finish(.failure(error))
            }
        }
        Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            finish(.failure(BoundedWaitTimedOut(seconds: seconds)))
            work.cancel()
        }
    }
}

/// Suspends the calling task until it is cancelled, then throws `CancellationError`: work
/// that never ends on its own, for tests of cancellation, without a long timer standing
/// in for it.
public func suspendUntilCancelled() async throws {
    struct Waiter {
        var continuation: CheckedContinuation<Void, Never>?
        var cancelled = false
    }
    let waiter = LockedBox(Waiter())
    await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            let alreadyCancelled = waiter.withLock { state -> Bool in
                if !state.cancelled { state.continuation = continuation }
                return state.cancelled
            }
            if alreadyCancelled { continuation.resume() }
        }
    } onCancel: {
        let continuation = waiter.withLock { state -> CheckedContinuation<Void, Never>? in
            state.cancelled = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
    throw CancellationError()
}

/// Pauses the calling thread for about `microseconds`. Stress tests call it between the
/// steps of the threads they race, so that those threads interleave in more ways than
/// tight loops give; it only varies the schedule, and no test relies on it for an event
/// to have happened.
public func jitter(microseconds: Int) {
    Thread.sleep(forTimeInterval: Double(microseconds) / 1_000_000)
}
