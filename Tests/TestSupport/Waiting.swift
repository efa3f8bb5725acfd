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
