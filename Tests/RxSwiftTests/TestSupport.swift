import Dispatch
import Foundation
import RxSwift

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

    func mutate(_ body: (inout Value) -> Void) {
        lock.withLock { body(&stored) }
    }
}

/// Records what an observer receives from several threads and checks the Rx grammar as
/// it goes: no two deliveries overlap, at most one terminal event, nothing after it.
final class GrammarCheckingObserver<Element>: ObserverType, @unchecked Sendable {
    private let lock = NSLock()
    private var inside = 0
    private var overlapCount = 0
    private var lateCount = 0
    private var terminalEvents = 0
    private var underLock = 0
    private var received: [Element] = []
    private var terminalEvent: Event<Element>?
    private let finished = DispatchSemaphore(value: 0)

    func on(_ event: Event<Element>) {
        lock.lock()
        inside += 1
        if inside > 1 { overlapCount += 1 }
        if terminalEvents > 0 { lateCount += 1 }
        #if DEBUG
        if LockDiagnostics.heldByCurrentThread > 0 { underLock += 1 }
        #endif
        lock.unlock()

        // Widen the window in which an overlapping delivery would be caught.
        for _ in 0..<50 { _ = DispatchTime.now() }

        lock.lock()
        switch event {
        case .next(let element):
            received.append(element)
        case .error, .completed:
            terminalEvents += 1
            terminalEvent = event
        }
        inside -= 1
        lock.unlock()
        if event.isStopEvent { finished.signal() }
    }

    /// Waits at most `seconds` for the terminal event; `false` on timeout.
    func waitForTerminal(seconds: Double = 10) -> Bool {
        finished.wait(timeout: .now() + seconds) == .success
    }

    var elements: [Element] { lock.withLock { received } }
    var terminal: Event<Element>? { lock.withLock { terminalEvent } }
    var terminals: Int { lock.withLock { terminalEvents } }
    var terminalCount: Int { terminals }
    var overlaps: Int { lock.withLock { overlapCount } }
    var eventsAfterTerminal: Int { lock.withLock { lateCount } }
    /// Deliveries made while the delivering thread held a Rivulet lock (counted in
    /// debug builds, where `Lock` keeps count per thread; always 0 in release builds).
    var deliveriesUnderLock: Int { lock.withLock { underLock } }

    var snapshot: (elements: [Element], terminal: Event<Element>?, overlaps: Int, afterTerminal: Int, terminals: Int) {
        lock.withLock { (received, terminalEvent, overlapCount, lateCount, terminalEvents) }
    }
}

/// Runs `work` on `threads` threads at once (they start together, after a barrier) and
/// waits at most `seconds` for all of them; returns `false` when they did not finish in
/// time (a deadlock fails, never hangs).
func runConcurrently(threads: Int, seconds: Double = 20, _ work: @escaping @Sendable (Int) -> Void) -> Bool {
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
