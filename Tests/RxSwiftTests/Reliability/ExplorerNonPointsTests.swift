import Dispatch
import Foundation
import RxBlocking
import RxSwift
import RxTest
import Testing

/// What synchronizes outside Rivulet's synchronization points (ARCHITECTURE.md, "What the
/// explorer does not see"): a thread blocked there makes the run stalled, reported as
/// such after the exploration's patience, and the test goes on; it never hangs.
@Suite struct ExplorerNonPointsTests {
    @Test func aBlockingWaitOfRxBlockingIsReportedAsAStall() throws {
        var exploration: ScheduleExploration?
        let reported = capturingFailures {
            exploration = exploreSchedules(.random(seed: 1), schedules: 1, patience: 0.5) { run in
                let subject = PublishSubject<Int>()
                run.thread("waiter") { _ = try? subject.toBlocking(timeout: 30).first() }
                run.thread("producer") { subject.onNext(1) }
            }
        }
        let failure = try #require(exploration?.failure)
        #expect(reported.count == 1)
        #expect(failure.contains("stalled: thread"))
        #expect(failure.contains("blocked outside Rivulet's synchronization points"))
    }

    @Test func awaitingAnAsyncBridgeIsReportedAsAStall() throws {
        var exploration: ScheduleExploration?
        let reported = capturingFailures {
            exploration = exploreSchedules(.random(seed: 1), schedules: 1, patience: 0.5) { run in
                let subject = PublishSubject<Int>()
                run.thread("awaiter") {
                    let done = DispatchSemaphore(value: 0)
                    let values = UnsafeTransfer(subject.values)
                    Task {
                        for try await _ in values.value { break }
                        done.signal()
                    }
                    _ = done.wait(timeout: .now() + 30)
                }
            }
        }
        let failure = try #require(exploration?.failure)
        #expect(reported.count == 1)
        #expect(failure.contains("stalled"))
    }
}
