import Dispatch
import RivuletTestSupport
import RxBlocking
import RxSwift
import Testing

@Suite("RxBlocking")
struct BlockingTests {
    @Test("first and last of an empty sequence are nil")
    func emptySequence() throws {
        #expect(try Observable<Int>.empty().toBlocking().first() == nil)
        #expect(try Observable<Int>.empty().toBlocking().last() == nil)
    }

    @Test("single throws for none and for more than one")
    func single() throws {
        #expect(try Observable.just(3).toBlocking().single() == 3)
        #expect(throws: RxError.self) { try Observable<Int>.empty().toBlocking().single() }
        #expect(throws: RxError.self) { try Observable.of(1, 2).toBlocking().single() }
        #expect(try Observable.of(1, 2, 3).toBlocking().single { $0 == 2 } == 2)
    }

    @Test("waits for elements delivered on a background queue")
    func backgroundDelivery() throws {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let values = try Observable.of(1, 2, 3)
            .observe(on: scheduler)
            .toBlocking(timeout: 5)
            .toArray()
        #expect(values == [1, 2, 3])
    }

    @Test("a timeout throws RxError.timeout")
    func timeout() {
        #expect(throws: RxError.self) {
            _ = try Observable<Int>.never().toBlocking(timeout: 0.05).toArray()
        }
    }

    @Test("toArray rethrows the sequence's error")
    func errorIsThrown() {
        #expect(throws: TestError.self) {
            _ = try Observable<Int>.error(testError).toBlocking().toArray()
        }
    }
}
