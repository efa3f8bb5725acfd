import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("Equality of the traits' events and the assertions on them")
struct TraitEventAssertionTests {
    @Test("maybe and completable events compare elements, and errors by domain, code and description")
    func equality() {
        #expect(MaybeEvent.success(1) == MaybeEvent.success(1))
        #expect(MaybeEvent.success(1) != MaybeEvent.success(2))
        #expect(MaybeEvent<Int>.completed == MaybeEvent<Int>.completed)
        #expect(MaybeEvent<Int>.completed != MaybeEvent.success(1))
        #expect(MaybeEvent<Int>.error(TestError(code: 1)) == MaybeEvent<Int>.error(TestError(code: 1)))
        #expect(MaybeEvent<Int>.error(TestError(code: 1)) != MaybeEvent<Int>.error(TestError(code: 2)))
        #expect(CompletableEvent.completed == CompletableEvent.completed)
        #expect(CompletableEvent.error(TestError(code: 1)) == CompletableEvent.error(TestError(code: 1)))
        #expect(CompletableEvent.error(TestError(code: 1)) != CompletableEvent.completed)
        #expect(Subscription(200, 300) == Subscription(200, 300))
        #expect(!(Subscription(200, 300) == Subscription(200, 301)))
    }

    @Test("equal arrays of single, maybe and completable events pass, recorded in virtual time")
    func equalArraysPass() {
        let scheduler = TestScheduler(initialClock: 0)
        var singles: [SingleEvent<Int>] = []
        var maybes: [MaybeEvent<Int>] = []
        var completables: [CompletableEvent] = []
        let source = scheduler.createHotObservable([.next(210, 4), .completed(220)])
        _ = scheduler.scheduleAbsoluteVirtual((), time: 200) { _ in
            Disposables.create(
                source.asSingle().subscribe { singles.append($0) },
                source.asMaybe().subscribe { maybes.append($0) },
                source.ignoreElements().asCompletable().subscribe { completables.append($0) }
            )
        }
        scheduler.start()
        XCTAssertEqual(singles, [.success(4)])
        XCTAssertEqual(maybes, [.success(4)])
        XCTAssertEqual(completables, [.completed])
        XCTAssertEqual([SingleEvent<Int>.failure(TestError(code: 3))], [.failure(TestError(code: 3))])
    }

    @Test("a different single event fails the assertion, naming the index and both events")
    func singleMismatch() {
        let line = #line + 2
        let failures = capturingFailures {
            XCTAssertEqual([SingleEvent<Int>.success(1)], [.success(2)])
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("Events differ at index 0: expected success(2), got success(1)") == true)
        #expect(failures.first?.line == line)
    }

    @Test("a missing maybe event and a different completable event fail their assertions")
    func maybeAndCompletableMismatch() {
        let failures = capturingFailures {
            XCTAssertEqual([MaybeEvent<Int>.success(1)], [.success(1), .completed])
            XCTAssertEqual([CompletableEvent.error(TestError(code: 1))], [.completed])
        }
        #expect(failures.count == 2)
        #expect(failures.first?.message.hasPrefix("Events differ at index 1: expected completed, got nothing") == true)
        #expect(failures.last?.message.hasPrefix("Events differ at index 0: expected completed, got error(") == true)
    }

    @Test("recorded events with optional elements compare with their times")
    func optionalElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1 as Int?), .next(220, nil), .completed(230)])
        let result = scheduler.start { source.asObservable() }
        XCTAssertEqual(result.events, [.next(210, 1), .next(220, nil), .completed(230)])
        let failures = capturingFailures {
            XCTAssertEqual(result.events, [.next(210, 1), .next(221, nil), .completed(230)])
        }
        #expect(failures.map { $0.message.prefix { $0 != "\n" } } == ["Recorded events differ at index 1: expected next(nil) @ 221, got next(nil) @ 220"])
    }
}
