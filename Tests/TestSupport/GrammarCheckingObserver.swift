import Dispatch
import Foundation
import RxSwift

/// Records what an observer receives from several threads and checks the Rx grammar as
/// it goes: no two deliveries overlap, at most one terminal event, nothing after it.
public final class GrammarCheckingObserver<Element>: ObserverType, @unchecked Sendable {
    private let lock = NSLock()
    private var inside = 0
    private var overlapCount = 0
    private var lateCount = 0
    private var terminalEvents = 0
    private var underLock = 0
    private var received: [Element] = []
    private var terminalEvent: Event<Element>?
    private let finished = DispatchSemaphore(value: 0)

    public init() {}

    public func on(_ event: Event<Element>) {
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
    public func waitForTerminal(seconds: Double = 10) -> Bool {
        finished.wait(timeout: .now() + seconds) == .success
    }

    public var elements: [Element] { lock.withLock { received } }
    public var terminal: Event<Element>? { lock.withLock { terminalEvent } }
    public var terminals: Int { lock.withLock { terminalEvents } }
    public var terminalCount: Int { terminals }
    public var overlaps: Int { lock.withLock { overlapCount } }
    public var eventsAfterTerminal: Int { lock.withLock { lateCount } }
    /// Deliveries made while the delivering thread held a Rivulet lock (counted in
    /// debug builds, where `Lock` keeps count per thread; always 0 in release builds).
    public var deliveriesUnderLock: Int { lock.withLock { underLock } }

    /// What arrived, as events: the elements, then the terminal event if there was one.
    public var events: [Event<Element>] {
        lock.withLock { received.map(Event.next) + (terminalEvent.map { [$0] } ?? []) }
    }

    public var isTerminated: Bool { terminals > 0 }

    /// Each breach of the grammar seen so far, described; empty when there was none.
    public var violations: [String] {
        lock.withLock {
            var problems: [String] = []
            if overlapCount > 0 { problems.append("\(overlapCount) overlapping deliveries") }
            if terminalEvents > 1 { problems.append("\(terminalEvents) terminal events") }
            if lateCount > 0 { problems.append("\(lateCount) events after the terminal event") }
            return problems
        }
    }

    public var snapshot: (elements: [Element], terminal: Event<Element>?, overlaps: Int, afterTerminal: Int, terminals: Int) {
        lock.withLock { (received, terminalEvent, overlapCount, lateCount, terminalEvents) }
    }
}
