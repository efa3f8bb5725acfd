import Foundation
import RxSwift

/// The outcome of a sequence run to its end by `materialize()`.
public enum MaterializedSequenceResult<T> {
    /// The sequence completed after these elements.
    case completed(elements: [T])
    /// The sequence failed with `error` after these elements.
    case failed(elements: [T], error: Error)
}

extension ObservableConvertibleType {
    /// A blocking view of the sequence: its operators wait for the sequence, at most
    /// `timeout` seconds (then they throw `RxError.timeout`).
    ///
    /// On the main thread the wait runs the main run loop, so sources that deliver on
    /// `MainScheduler` (Drivers, Signals) make progress.
    public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
        BlockingObservable(timeout: timeout, source: asObservable())
    }
}

/// Blocks the calling thread until the sequence yields what an operator needs.
/// Meant for tests and command-line tools, never for app code.
public struct BlockingObservable<Element> {
    let timeout: TimeInterval?
    let source: Observable<Element>
}

extension BlockingObservable {
    /// All elements; throws the sequence's error.
    public func toArray() throws -> [Element] {
        let result = run(stopAfter: nil)
        if let error = result.error { throw error }
        return result.elements
    }

    /// The first element, or `nil` for an empty sequence.
    public func first() throws -> Element? {
        let result = run(stopAfter: 1)
        if let error = result.error { throw error }
        return result.elements.first
    }

    /// The last element, or `nil` for an empty sequence.
    public func last() throws -> Element? {
        let result = run(stopAfter: nil)
        if let error = result.error { throw error }
        return result.elements.last
    }

    /// The only element; throws `RxError.noElements` or `RxError.moreThanOneElement` otherwise.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// The only element satisfying `predicate`; throws `RxError.noElements` or
    /// `RxError.moreThanOneElement` otherwise.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        let result = run(stopAfter: 2, filter: predicate)
        if let error = result.error { throw error }
        switch result.elements.count {
        case 0: throw RxError.noElements
        case 1: return result.elements[0]
        default: throw RxError.moreThanOneElement
        }
    }

    /// The elements and how the sequence ended; a timeout is reported as `.failed`.
    public func materialize() -> MaterializedSequenceResult<Element> {
        let result = run(stopAfter: nil)
        if let error = result.error {
            return .failed(elements: result.elements, error: error)
        }
        return .completed(elements: result.elements)
    }

    private func run(stopAfter limit: Int?, filter: ((Element) throws -> Bool)? = nil) -> (elements: [Element], error: Error?) {
        let state = BlockingState<Element>()
        let subscription = source.subscribe { event in
            state.receive(event, limit: limit, filter: filter)
        }
        let finished = state.wait(timeout: timeout)
        subscription.dispose()
        return state.result(timedOut: !finished)
    }
}

private final class BlockingState<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var elements: [Element] = []
    private var error: Error?
    private var done = false
    /// The main thread waits, running its run loop: the end of the sequence wakes it.
    private var mainThreadWaits = false

    func receive(_ event: Event<Element>, limit: Int?, filter: ((Element) throws -> Bool)?) {
        condition.lock()
        let ended = record(event, limit: limit, filter: filter)
        let wakesMainThread = ended && mainThreadWaits
        condition.unlock()
        // After unlocking: a waiter woken while this thread still held the lock would
        // find it taken and sleep again until the unlock, a second wake-up on every
        // call (a blocking call off the main thread returned 28-35 µs after its
        // source's completion, against a semaphore's 5).
        if ended { condition.broadcast() }
        // An empty block on the main queue: the main run loop, which serves that queue,
        // returns from `run(mode:before:)` to see that the sequence is done.
        if wakesMainThread { DispatchQueue.main.async {} }
    }

    /// Records `event` under the lock; whether it ended the wait.
    private func record(_ event: Event<Element>, limit: Int?, filter: ((Element) throws -> Bool)?) -> Bool {
        if done { return false }
        switch event {
        case .next(let element):
            do {
                if try filter?(element) ?? true {
                    elements.append(element)
                }
            } catch {
                self.error = error
                done = true
            }
            if let limit, elements.count >= limit { done = true }
        case .error(let error):
            self.error = error
            done = true
        case .completed:
            done = true
        }
        return done
    }

    /// Waits until the sequence is done; `false` on timeout.
    func wait(timeout: TimeInterval?) -> Bool {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        if Thread.isMainThread {
            // The run loop returns as soon as it served anything, the wake-up at the
            // sequence's end included; the slice only bounds a wait nothing interrupts.
            while !mainThreadWaitEnded() {
                if let deadline, Date() >= deadline { return false }
                let slice = Date().addingTimeInterval(1)
                _ = RunLoop.current.run(mode: .default, before: deadline.map { min($0, slice) } ?? slice)
            }
            return true
        }
        condition.lock()
        defer { condition.unlock() }
        while !done {
            if let deadline {
                if !condition.wait(until: deadline) { return done }
            } else {
                condition.wait()
            }
        }
        return true
    }

    /// Whether the sequence is done; if not, marks the main thread as waiting, so that
    /// its end wakes the run loop.
    private func mainThreadWaitEnded() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        mainThreadWaits = !done
        return done
    }

    func result(timedOut: Bool) -> (elements: [Element], error: Error?) {
        condition.lock()
        defer { condition.unlock() }
        if timedOut {
            done = true
            return (elements, RxError.timeout)
        }
        return (elements, error)
    }
}
