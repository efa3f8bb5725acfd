import Foundation
import RxSwift
import RxTest
import XCTest

// Marble test helpers written the way RxSwift's RxExample tests have them, and many apps
// copied them: a global `resolution` (seconds per marble frame) that an
// `extension TestScheduler` reads without `self`, from an escaping closure, and an
// `advance(by:)` helper of the app's own. They compile only if `TestScheduler` has no
// visible member of those names that the compiler would pick instead.

let resolution: TimeInterval = 0.2 // seconds

extension TestScheduler {
    /// An observable that sends each event at its frame: frame `n` is `n * resolution`
    /// seconds after the subscription.
    func createObservable<T>(_ events: [Recorded<Event<T>>]) -> Observable<T> {
        Observable.create { observer in
            let scheduled = events.map { event in
                self.scheduleRelative((), dueTime: .milliseconds(Int((resolution * 1000).rounded()) * event.time)) { _ in
                    observer.on(event.value)
                    return Disposables.create()
                }
            }
            return Disposables.create(scheduled)
        }
    }

    /// Moves the clock on by `seconds` of marble time, synchronously.
    func advance(by seconds: TimeInterval = 1.0) {
        advanceTo(clock + Int((seconds / resolution).rounded()))
    }
}

final class MarbleHelpersTests: XCTestCase {
    func testTheHelpersReadTheGlobalResolution() {
        // 0.1 s a tick: frame n of 0.2 s lands at tick 2n.
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
        let observer = scheduler.createObserver(String.self)
        _ = scheduler.createObservable([.next(1, "a"), .next(3, "b"), .completed(4)]).subscribe(observer)
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(2, "a"), .next(6, "b"), .completed(8)])
    }

    func testAnAsyncTestCallsTheAppsOwnAdvance() async {
        let scheduler = TestScheduler(initialClock: 0)
        var fired = false
        scheduler.scheduleAt(4) { fired = true }
        // A number, in an async function: the app's synchronous advance(by:) (1 s is 5
        // frames of 0.2 s), not an asynchronous one of the test kit.
        scheduler.advance(by: 1)
        XCTAssertEqual(scheduler.clock, 5)
        XCTAssertTrue(fired)
    }
}
