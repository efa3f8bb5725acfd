import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest

/// What `apply` makes of a cold source of `events` on a scheduler of 0.1 s a tick, once
/// for each of `dueTimes`, each on a scheduler of its own: the events each run recorded.
func recordedAtTenthsOfASecond(
    _ events: [Recorded<Event<Int>>],
    dueTimes: [RxTimeInterval],
    _ apply: @escaping (Observable<Int>, RxTimeInterval, TestScheduler) -> Observable<Int>
) -> [[Recorded<Event<Int>>]] {
    dueTimes.map { dueTime in
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
        let xs = scheduler.createColdObservable(events)
        return scheduler.start { apply(xs.asObservable(), dueTime, scheduler) }.events
    }
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
