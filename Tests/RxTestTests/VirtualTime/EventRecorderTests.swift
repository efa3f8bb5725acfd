import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("EventRecorder: pulling events in virtual time", .rxLeakCheck)
struct EventRecorderTests {
    @Test("expectNext runs the scheduler until the event arrives, and no further")
    func expectNextAdvancesToTheEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 3), .completed(300)])
        let recorder = scheduler.record(xs)
        #expect(scheduler.clock == 0)
        #expect(recorder.expectNext(0, at: 150))
        #expect(scheduler.clock == 150)
        #expect(recorder.expectNext(1))
        #expect(scheduler.clock == 210)
        #expect(recorder.expectNext(at: 230) == 3)
        #expect(recorder.expectCompleted(at: 300))
        #expect(scheduler.clock == 300)
        #expect(recorder.finish())
        #expect(xs.subscriptions == [Subscription(0, 300)])
    }

    @Test("expectNoEvents(for:) covers exactly [clock, clock + ticks) and leaves the clock at its end")
    func expectNoEventsIsExact() {
        let scheduler = TestScheduler(initialClock: 0)
        let input = PublishSubject<String>()
        let recorder = scheduler.record(input.debounce(.seconds(10), scheduler: scheduler))
        scheduler.advanceTo(100)
        input.onNext("a")
        #expect(recorder.expectNoEvents(for: 10))
        #expect(scheduler.clock == 110)
        #expect(recorder.expectNext("a", at: 110))
        input.onNext("b")
        input.onCompleted()
        #expect(recorder.expectNext("b", at: 110))
        #expect(recorder.expectCompleted(at: 110))
        recorder.finish()
    }

    @Test("expectNoEvents(for:) fails at the first event inside the window")
    func expectNoEventsFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .next(9, 2), .completed(12)])
        let recorder = scheduler.record(xs)
        let line = #line + 2
        let failures = capturingFailures {
            recorder.expectNoEvents(for: 10)
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message == """
            expectNoEvents(for: 10) (time 0 ..< 10) failed: got next(1) @ 5
            received: -1
                       ^ next(1) @ 5
            one column = 5 ticks, first column = time 0
            received events (1, 1 consumed): [next(1) @ 5]
            """)
        #expect(failures.first?.line == line)
        #expect(failures.first?.fileName == "EventRecorderTests.swift")
        #expect(scheduler.clock == 5)
        #expect(recorder.expectNext(2, at: 9))
        #expect(recorder.expectNoEvents(for: 3))
        #expect(scheduler.clock == 12)
        #expect(recorder.expectCompleted(at: 12))
        recorder.finish()
    }

    @Test("a different element is reported with the received timeline and a caret")
    func mismatchDrawsTheTimeline() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(300)])
        let recorder = scheduler.record(xs)
        recorder.expectNext(1)
        let line = #line + 2
        let failures = capturingFailures {
            #expect(!recorder.expectNext(2))
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message == """
            expectNext(2) failed: got next(3) @ 230
            received: ---------------------1-3
                                             ^ next(3) @ 230
            one column = 10 ticks, first column = time 0
            received events (2, 2 consumed): [next(1) @ 210, next(3) @ 230]
            """)
        #expect(failures.first?.line == line)
        recorder.expectCompleted()
        recorder.finish()
    }

    @Test("a wrong time is a failure")
    func wrongTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let recorder = scheduler.record(Observable<Int>.timer(.seconds(20), scheduler: scheduler))
        let failures = capturingFailures {
            recorder.expectNext(0, at: 10)
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("expectNext(0, at: 10) failed: got next(0) @ 20\n") == true)
        recorder.expectCompleted(at: 20)
        recorder.finish()
    }

    @Test("nothing arriving before the scheduler runs out of work fails, naming the clock")
    func schedulerRunsOut() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let recorder = scheduler.record(xs)
        recorder.expectNext(1)
        let failures = capturingFailures {
            #expect(recorder.expectNext() == nil)
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message == """
            expectNext() failed: nothing arrived, and the scheduler has no work left (clock at 210)
            received: -1
            one column = 210 ticks, first column = time 0
            received events (1, 1 consumed): [next(1) @ 210]
            """)
        recorder.finish()
    }

    @Test("after the terminal event nothing more is awaited, and the scheduler is not run")
    func afterTerminal() {
        let scheduler = TestScheduler(initialClock: 0)
        let recorder = scheduler.record(Observable.just(7))
        let other = scheduler.createHotObservable([.next(500, 1)])
        recorder.expectNext(7, at: 0)
        recorder.expectCompleted(at: 0)
        let failures = capturingFailures {
            recorder.expectNext(8)
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("expectNext(8) failed: nothing more can arrive, the sequence ended with completed @ 0\n") == true)
        #expect(scheduler.clock == 0)
        #expect(other.subscriptions.isEmpty)
        recorder.finish()
    }

    @Test("expectError: any, equal to a value, or matching a predicate")
    func errors() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(code: 4), Int.self)])
        scheduler.test(failing) { recorder in
            recorder.skip(1)
            #expect(recorder.expectError(TestError(code: 4), at: 20))
        }
        scheduler.test(failing) { recorder in
            recorder.skip(1)
            let error = recorder.expectError { ($0 as? TestError)?.code == 4 }
            #expect(error as? TestError == TestError(code: 4))
        }
        scheduler.test(failing) { recorder in
            recorder.skip(1)
            let failures = capturingFailures {
                recorder.expectError(TestError(code: 5))
            }
            #expect(failures.count == 1)
            #expect(failures.first?.message.hasPrefix("expectError(\(TestError(code: 5))) failed: got error(\(TestError(code: 4))) @ ") == true)
        }
        scheduler.test(failing) { recorder in
            let failures = capturingFailures {
                recorder.expectCompleted()
            }
            #expect(failures.count == 1)
            #expect(failures.first?.message.hasPrefix("expectCompleted() failed: got next(1) @ ") == true)
            #expect(recorder.expectError() != nil)
        }
    }

    @Test("expectNext(count:), expectNext(values:) and skip")
    func counts() {
        let scheduler = TestScheduler(initialClock: 0)
        let recorder = scheduler.record(Observable.from([1, 2, 3, 4, 5]))
        #expect(recorder.expectNext(count: 2) == [1, 2])
        recorder.skip(1)
        #expect(recorder.expectNext(values: [4, 5]))
        let failures = capturingFailures {
            #expect(recorder.expectNext(count: 1) == [])
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("expectNext(count: 1) (element 1) failed: got completed @ 0\n") == true)
        recorder.finish()
    }

    @Test("skip fails on a terminal event")
    func skipStopsAtTerminal() {
        let scheduler = TestScheduler(initialClock: 0)
        let recorder = scheduler.record(Observable.from([1]))
        let failures = capturingFailures {
            recorder.skip(2)
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("skip(2) failed: got completed @ 0\n") == true)
        recorder.finish()
    }

    @Test("finish fails on unconsumed events and marks the first of them")
    func finishWithUnconsumedEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "b"), .completed(230)])
        let recorder = scheduler.record(xs)
        recorder.expectNext("a")
        scheduler.start()
        let line = #line + 2
        let failures = capturingFailures {
            #expect(!recorder.finish())
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message == """
            finish() failed: 2 events were never consumed: next(b) @ 220, completed @ 230
            received: ---------------------ab|
                                            ^ first unconsumed: next(b) @ 220
            one column = 10 ticks, first column = time 0
            received events (3, 1 consumed): [next(a) @ 210, next(b) @ 220, completed @ 230]
            """)
        #expect(failures.first?.line == line)
        #expect(recorder.isFinished)
        #expect(recorder.finish())
    }

    @Test("a recorder released unfinished with unconsumed events fails at the line that created it")
    func releasedUnfinished() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let line = #line + 3
        let failures = capturingFailures {
            do {
                let recorder = scheduler.record(xs)
                recorder.expectNext(1)
                scheduler.start()
            }
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("EventRecorder created at RxTestTests/EventRecorderTests.swift:\(line) was released: 1 event was never consumed: next(2) @ 220\n") == true)
        #expect(failures.first?.line == line)
        #expect(xs.subscriptions == [Subscription(0, 220)])
    }

    @Test("cancel ignores what is left; expectNoEvents() checks only what is waiting")
    func cancelAndExpectNoEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let recorder = scheduler.record(xs)
        #expect(recorder.expectNoEvents())
        scheduler.advanceTo(215)
        let failures = capturingFailures {
            recorder.expectNoEvents()
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("expectNoEvents() failed: 1 event was never consumed: next(1) @ 210\n") == true)
        recorder.cancel()
        scheduler.start()
        #expect(recorder.events.count == 1)
        #expect(xs.subscriptions == [Subscription(0, 215)])
        let afterCancel = capturingFailures {
            recorder.expectNext(2)
        }
        #expect(afterCancel.map(\.message) == ["expectNext(2) failed: the recorder was already finished or cancelled."])
    }

    @Test("expectNoMoreEvents runs the remaining work and fails on a late event")
    func expectNoMoreEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(900, 2)])
        let quiet = scheduler.createHotObservable([.next(210, 1)])
        let late = scheduler.record(xs)
        let silent = scheduler.record(quiet)
        late.expectNext(1)
        silent.expectNext(1)
        let failures = capturingFailures {
            late.expectNoMoreEvents()
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("expectNoMoreEvents() failed: got next(2) @ 900\n") == true)
        #expect(silent.expectNoMoreEvents())
        late.finish()
        silent.finish()
    }

    @Test("a periodic timer that never leads to the awaited event exhausts the budget")
    func budget() {
        let scheduler = TestScheduler(initialClock: 0)
        let recorder = scheduler.record(Observable<Int>.interval(.seconds(1), scheduler: scheduler).filter { _ in false })
        recorder.actionBudget = 50
        let failures = capturingFailures {
            recorder.expectNext()
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message == """
            expectNext() failed: nothing arrived during 50 scheduled actions (clock at 50); a periodic timer that never leads to an event?
            received: nothing
            """)
        recorder.cancel()
    }

    @Test("an expectation from inside scheduled work is reported, not run")
    func calledWhileRunning() {
        let scheduler = TestScheduler(initialClock: 0)
        let recorder = scheduler.record(scheduler.createHotObservable([Recorded<Event<Int>>]()))
        scheduler.scheduleAt(10) {
            let failures = capturingFailures {
                recorder.expectNext(1)
            }
            #expect(failures.count == 1)
            #expect(failures.first?.message.hasPrefix("expectNext(1) failed: nothing has arrived, and it was called while the scheduler is running") == true)
        }
        scheduler.start()
        recorder.finish()
    }

    @Test("recording a Single and a value that is not Equatable")
    func traitsAndNonEquatable() {
        struct Token { let raw: String }
        let scheduler = TestScheduler(initialClock: 0)
        let single = Single<Token>.just(Token(raw: "x")).asObservable().delay(.seconds(5), scheduler: scheduler).asSingle()
        scheduler.test(single) { recorder in
            // delay sends the success at 5 and the completion a turn later, at 6 (as
            // RxSwift does); asSingle then sends both at 6.
            #expect(recorder.expectNext(at: 6)?.raw == "x")
            recorder.expectCompleted(at: 6)
        }
    }

    @Test("recorders in parallel tests keep their own clocks and failures", arguments: 0..<32)
    func parallel(value: Int) async {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(value + 1, value), .completed(value + 2)])
        let recorder = scheduler.record(xs)
        await Task.yield()
        let failures = capturingFailures {
            recorder.expectNext(value + 1)
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("expectNext(\(value + 1)) failed: got next(\(value)) @ \(value + 1)\n") == true)
        #expect(scheduler.clock == value + 1)
        #expect(recorder.expectCompleted(at: value + 2))
        #expect(recorder.finish())
    }
}
