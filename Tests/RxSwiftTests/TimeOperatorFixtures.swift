import Dispatch
import Foundation
import RxSwift
import RxTest

/// The error the time-based and error-handling operator tests send.
struct TimeOpsError: Error, Equatable, CustomStringConvertible {
    let code: Int
    var description: String { "TimeOpsError(\(code))" }
}

let timeOpsError = TimeOpsError(code: 1)
let timeOpsError2 = TimeOpsError(code: 2)

/// An observer that checks the Rx grammar while several threads feed an operator:
/// it counts deliveries that overlap (a second one starts before the first returns),
/// terminal events, and events after the terminal one.
final class GrammarCheckingObserver<Element>: ObserverType, @unchecked Sendable {
    private let lock = NSLock()
    private var inside = false
    private var receivedElements: [Element] = []
    private var terminalCount = 0
    private var overlapCount = 0
    private var lateCount = 0
    private let terminated = DispatchSemaphore(value: 0)

    func on(_ event: Event<Element>) {
        lock.lock()
        if inside { overlapCount += 1 }
        inside = true
        if terminalCount > 0 { lateCount += 1 }
        if case .next(let element) = event { receivedElements.append(element) }
        lock.unlock()
        // Widen the window in which an overlapping delivery would be caught.
        for _ in 0..<50 { _ = DispatchTime.now() }
        lock.lock()
        inside = false
        if event.isStopEvent { terminalCount += 1 }
        lock.unlock()
        if event.isStopEvent { terminated.signal() }
    }

    /// Waits (bounded) for the terminal event; `false` on timeout.
    func waitForTerminal(seconds: Double = 10) -> Bool {
        terminated.wait(timeout: .now() + seconds) == .success
    }

    var elements: [Element] { lock.withLock { receivedElements } }
    var terminals: Int { lock.withLock { terminalCount } }
    var overlaps: Int { lock.withLock { overlapCount } }
    var eventsAfterTerminal: Int { lock.withLock { lateCount } }
}

/// Runs `work` on `threads` threads at once and waits (bounded) for all of them.
func runConcurrently(threads: Int, seconds: Double = 10, _ work: @escaping @Sendable (Int) -> Void) -> Bool {
    let group = DispatchGroup()
    for index in 0..<threads {
        group.enter()
        Thread.detachNewThread {
            work(index)
            group.leave()
        }
    }
    return group.wait(timeout: .now() + seconds) == .success
}

/// Records what every window of a `window(...)` result receives, as "index element"
/// strings, the way RxSwift's tests do with `enumerated().map { ... }.merge()`.
final class WindowRecorder: @unchecked Sendable {
    let observer: TestableObserver<String>
    private let subscriptions = CompositeDisposable()
    private let lock = NSLock()
    private var index = 0
    private var stopped = false

    init(scheduler: TestScheduler) {
        observer = scheduler.createObserver(String.self)
    }

    /// Subscribes to `windows` and to each window it sends. Like `merge`, it records
    /// the first error only, and the completion of the sequence of windows.
    func subscribe(_ windows: Observable<Observable<Int>>) {
        subscriptions.insert(windows.subscribe { [self] event in
            switch event {
            case .next(let window):
                let current = lock.withLock { () -> Int in
                    defer { index += 1 }
                    return index
                }
                subscriptions.insert(window.subscribe { [self] inner in
                    switch inner {
                    case .next(let element): record(.next("\(current) \(element)"))
                    case .error(let error): record(.error(error))
                    case .completed: break
                    }
                })
            case .error(let error):
                record(.error(error))
            case .completed:
                record(.completed)
            }
        })
    }

    private func record(_ event: Event<String>) {
        let accepted = lock.withLock { () -> Bool in
            if stopped { return false }
            if event.isStopEvent { stopped = true }
            return true
        }
        if accepted { observer.on(event) }
    }

    /// Disposes the result's subscription and every window's.
    func dispose() {
        subscriptions.dispose()
    }
}

/// A value shared between threads in tests.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&stored) }
    }
}
