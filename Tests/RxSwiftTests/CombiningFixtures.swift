import Dispatch
import Foundation
import RxSwift
import RxTest

/// Errors used by the tests of the combining operators.
struct CombiningTestError: Error, CustomStringConvertible, Equatable {
    let id: Int
    var description: String { "CombiningTestError(\(id))" }
}

let combiningError = CombiningTestError(id: 0)
let combiningError1 = CombiningTestError(id: 1)
let combiningError2 = CombiningTestError(id: 2)

/// Records what an observer receives from several threads and checks the Rx grammar as
/// it goes: no two deliveries overlap, at most one terminal event, nothing after it.
final class GrammarCheckingObserver<Element>: ObserverType, @unchecked Sendable {
    private let lock = NSLock()
    private var inside = 0
    private(set) var overlaps = 0
    private(set) var eventsAfterTerminal = 0
    private(set) var terminalCount = 0
    private(set) var elements: [Element] = []
    private(set) var terminal: Event<Element>?
    private let finished = DispatchSemaphore(value: 0)

    func on(_ event: Event<Element>) {
        lock.lock()
        inside += 1
        if inside > 1 { overlaps += 1 }
        if terminalCount > 0 { eventsAfterTerminal += 1 }
        lock.unlock()

        // Widen the window in which an overlapping delivery would be caught.
        for _ in 0..<50 { _ = DispatchTime.now() }

        lock.lock()
        switch event {
        case .next(let element):
            elements.append(element)
        case .error, .completed:
            terminalCount += 1
            terminal = event
        }
        inside -= 1
        lock.unlock()
        if event.isStopEvent { finished.signal() }
    }

    /// Waits at most `seconds` for the terminal event; `false` on timeout.
    func waitForTerminal(seconds: Double = 10) -> Bool {
        finished.wait(timeout: .now() + seconds) == .success
    }

    var snapshot: (elements: [Element], terminal: Event<Element>?, overlaps: Int, afterTerminal: Int, terminals: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (elements, terminal, overlaps, eventsAfterTerminal, terminalCount)
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
