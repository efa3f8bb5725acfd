import Dispatch
import Foundation
import RxBlocking
import RxSwift
import XCTest

/// XCTest runs its tests on the main thread, where a blocking operator waits by running
/// the main run loop: the end of the sequence must wake that wait at once.
final class MainThreadWaitTests: XCTestCase {
    func testABlockingCallOnTheMainThreadReturnsWhenTheSequenceEnds() throws {
        XCTAssertTrue(Thread.isMainThread)
        let background = ConcurrentDispatchQueueScheduler(qos: .default)
        let started = Date()
        for value in 0..<20 {
            let source = Observable.just(value).subscribe(on: background)
            XCTAssertEqual(try source.toBlocking().last(), value)
            XCTAssertEqual(try source.toBlocking().toArray(), [value])
        }
        // 40 calls. Were the end not to wake the run loop, each would wait out its
        // one-second slice: 40 s. Woken, each takes about as long as the dispatch.
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    func testTheMainQueueIsStillServedWhileTheMainThreadWaits() throws {
        // Delivered through the main queue, which only the waiting thread's run loop serves.
        let source = Observable.just(1).observe(on: MainScheduler.asyncInstance)
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [1])
    }
}
