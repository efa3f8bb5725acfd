import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

private struct SignInResponse: Equatable {
    let email: String
    let account: String
}

@Suite("parseEventsAndTimes: RxSwift's example timelines", .rxLeakCheck)
struct ParseEventsAndTimesTests {
    @Test("the sign-in example: multi-character keys sit at the tick of their first character")
    func signInTimelines() {
        let scheduler = TestScheduler(initialClock: 0)
        let signInButtonEnabled = ["b1": false, "b2": false, "b3": false, "b4": true]
        let enabled = scheduler.parseEventsAndTimes(timeline: "b1---b2--b3-b4--", values: signInButtonEnabled).first!
        #expect(enabled == [.next(0, false), .next(5, false), .next(9, false), .next(12, true)])

        let emails = ["e1": "test@", "e2": "test@example.com"]
        let emailEvents = scheduler.parseEventsAndTimes(timeline: "---e1----e2-----", values: emails).first!
        #expect(emailEvents == [.next(3, "test@"), .next(9, "test@example.com")])

        let passwords = ["p1": "asd", "p2": "Asd123!!"]
        let passwordEvents = scheduler.parseEventsAndTimes(timeline: "-----p1-----p2-----", values: passwords).first!
        #expect(passwordEvents == [.next(5, "asd"), .next(12, "Asd123!!")])

        let signInButtonTap = ["s1": ()]
        let tapEvents = scheduler.parseEventsAndTimes(timeline: "---------------------------s1-", values: signInButtonTap).first!
        #expect(tapEvents.map(\.time) == [27])
        #expect(tapEvents.count == 1 && tapEvents[0].value.element != nil)

        let responses = ["x1": SignInResponse(email: "test@example.com", account: "workable")]
        let responseEvents = scheduler.parseEventsAndTimes(timeline: "---------------------------------x1-", values: responses).first!
        #expect(responseEvents == [.next(33, SignInResponse(email: "test@example.com", account: "workable"))])
    }

    @Test("the unlabeled spelling and single-character keys")
    func unlabeledSpelling() {
        let scheduler = TestScheduler(initialClock: 0)
        let stringValues = ["e": "", "u1": "verysecret", "u2": "secret", "u3": "user", "p1": "pass", "p2": "word"]
        let username = scheduler.parseEventsAndTimes("e---u1----u2-----u3-----------------", values: stringValues).first!
        #expect(username == [.next(0, ""), .next(4, "verysecret"), .next(10, "secret"), .next(17, "user")])

        let booleans = ["t": true, "f": false]
        let enabled = scheduler.parseEventsAndTimes("f--------------------------------t---", values: booleans).first!
        #expect(enabled == [.next(0, false), .next(33, true)])

        let events = ["x": ()]
        let taps = scheduler.parseEventsAndTimes("------------------------------------", values: events)
        #expect(taps.count == 1)
        #expect(taps[0].isEmpty)
    }

    @Test("'|' completes and starts the next timeline; an error ends one without completion")
    func retryTimelines() throws {
        let values = ["a": 1, "b": 2]
        let timelines = try Marbles.parseEventsAndTimes(timeline: "-a-#|--b|", values: values)
        #expect(timelines == [
            [.next(1, 1), .error(3, MarbleDefaultError(key: "#"))],
            [.next(2, 2), .completed(3)],
        ])
        #expect(try Marbles.parseEventsAndTimes(timeline: "a|", values: values) == [[.next(0, 1), .completed(1)]])
        #expect(try Marbles.parseEventsAndTimes(timeline: "a||", values: values) == [[.next(0, 1), .completed(1)], [.completed(0)]])
        #expect(try Marbles.parseEventsAndTimes(timeline: "a|--", values: values) == [[.next(0, 1), .completed(1)], []])
        #expect(try Marbles.parseEventsAndTimes(timeline: "", values: values) == [[]])
    }

    @Test("errors come from the errors dictionary, '#' from its '#' entry or a default")
    func errorKeys() throws {
        let values = ["a": 1]
        let parsed = try Marbles.parseEventsAndTimes(timeline: "-a--x1", values: values, errors: ["x1": testError])
        #expect(parsed == [[.next(1, 1), .error(4, testError)]])
        let hash = try Marbles.parseEventsAndTimes(timeline: "--#", values: values, errors: ["#": testError])
        #expect(hash == [[.error(2, testError)]])
        let fallback = try Marbles.parseEventsAndTimes(timeline: "--#", values: values)
        #expect(fallback == [[.error(2, MarbleDefaultError(key: "#"))]])
        #expect("\(MarbleDefaultError(key: "#"))" == "MarbleDefaultError(#)")
    }

    @Test("an unknown key throws naming it and its position")
    func unknownKey() {
        #expect {
            try Marbles.parseEventsAndTimes(timeline: "---x1--", values: ["e1": 1])
        } throws: { error in
            guard let error = error as? MarbleError else { return false }
            return error.problem == .unknownKey && error.token == "x1" && error.position == 3
                && "\(error)" == "unknown key 'x1' at position 3 in \"---x1--\": it is in neither values nor errors"
        }
    }

    @Test("an event after an error in the same timeline throws")
    func eventAfterError() {
        #expect {
            try Marbles.parseEventsAndTimes(timeline: "-#-a|", values: ["a": 1])
        } throws: { error in
            "\(error)" == "event 'a' at position 3 in \"-#-a|\" comes after the terminal event at position 1"
        }
        #expect {
            try Marbles.parseEventsAndTimes(timeline: "-#-#", values: ["a": 1])
        } throws: { error in
            "\(error)" == "second terminal event '#' at position 3 in \"-#-#\": the sequence already ended at position 1"
        }
    }

    @Test("a bad timeline fails the test at the caller's line and returns one empty timeline")
    func reportsInsteadOfCrashing() {
        let scheduler = TestScheduler(initialClock: 0)
        var parsed: [[Recorded<Event<Int>>]] = [[.next(1, 1)]]
        let expectedLine = #line + 2
        let failures = capturingFailures {
            parsed = scheduler.parseEventsAndTimes(timeline: "--zz-", values: ["a": 1])
        }
        #expect(failures.map(\.message) == ["parseEventsAndTimes: unknown key 'zz' at position 2 in \"--zz-\": it is in neither values nor errors"])
        #expect(failures.first?.line == expectedLine)
        #expect(failures.first?.fileName == "ParseEventsAndTimesTests.swift")
        #expect(parsed.count == 1)
        #expect(parsed.first!.isEmpty)
    }

    @Test("parsed timelines feed hot and cold observables")
    func feedsTestableObservables() {
        let scheduler = TestScheduler(initialClock: 0)
        let values = ["a1": 1, "a2": 2]
        let hot = scheduler.createHotObservable(scheduler.parseEventsAndTimes(timeline: "--a1---a2--|", values: values).first!)
        let cold = scheduler.createColdObservable(scheduler.parseEventsAndTimes(timeline: "-a2|", values: values).first!)
        let hotObserver = scheduler.createObserver(Int.self)
        let coldObserver = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(0) {
            _ = hot.map { $0 * 10 }.subscribe(hotObserver)
        }
        scheduler.scheduleAt(5) {
            _ = cold.subscribe(coldObserver)
        }
        scheduler.start()
        let expected = scheduler.parseEventsAndTimes(timeline: "--x1---x2--|", values: ["x1": 10, "x2": 20]).first!
        #expect(hotObserver.events == expected)
        #expect(hotObserver.events == [.next(2, 10), .next(7, 20), .completed(11)])
        #expect(coldObserver.events == [.next(6, 2), .completed(8)])
        #expect(hot.subscriptions == [Subscription(0, 11)])
        #expect(cold.subscriptions == [Subscription(5)])
    }

    @Test("each subscription to an attempts observable plays the next timeline")
    func attempts() {
        let scheduler = TestScheduler(initialClock: 0)
        let timelines = scheduler.parseEventsAndTimes(timeline: "-a-#|--b|", values: ["a": 1, "b": 2])
        let source = scheduler.createColdObservable(attempts: timelines)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let third = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(10) { _ = source.subscribe(first) }
        scheduler.scheduleAt(20) { _ = source.subscribe(second) }
        scheduler.scheduleAt(30) { _ = source.subscribe(third) }
        scheduler.start()
        #expect(first.events == [.next(11, 1), .error(13, MarbleDefaultError(key: "#"))])
        #expect(second.events == [.next(22, 2), .completed(23)])
        #expect(third.events == [.next(32, 2), .completed(33)])
        #expect(source.subscriptions == [Subscription(10), Subscription(20), Subscription(30)])
        #expect(source.recordedEvents == timelines[0])
    }
}
