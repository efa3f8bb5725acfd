import Foundation
import RivuletTestSupport
@testable import RxSwift
import RxTest
import Testing

/// The lines `debug` wrote, without their timestamps (`yyyy-MM-dd HH:mm:ss.SSS: `).
private func withoutTimestamps(_ lines: LockedBox<[String]>) -> [String] {
    lines.value.map { String($0.dropFirst(25)) }
}

@Suite("debug", .rxLeakCheck)
struct DebugTests {
    @Test func logsSubscriptionEventsAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let lines = LockedBox<[String]>([])
        let res = scheduler.start { xs.debug("probe", trimOutput: false, output: lines.append) }
        #expect(withoutTimestamps(lines) == [
            "probe -> subscribed",
            "probe -> Event next(1)",
            "probe -> Event next(2)",
            "probe -> Event completed",
            "probe -> isDisposed",
        ])
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func linesStartWithATimestamp() throws {
        let lines = LockedBox<[String]>([])
        _ = Observable.just(1).debug("t", trimOutput: false, output: lines.append).subscribe()
        let first = try #require(lines.value.first)
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        let stamp = String(first.prefix(23))
        let date = try #require(formatter.date(from: stamp), "no timestamp in \(first)")
        #expect(abs(date.timeIntervalSinceNow) < 60)
        #expect(first.dropFirst(23).hasPrefix(": t -> subscribed"))
    }

    @Test func logsErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, testError, Int.self)])
        let lines = LockedBox<[String]>([])
        let res = scheduler.start { xs.debug("e", trimOutput: false, output: lines.append) }
        #expect(withoutTimestamps(lines) == ["e -> subscribed", "e -> Event error(\(testError))", "e -> isDisposed"])
        #expect(res.events == [.error(210, testError)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func logsDisposalBySubscriberOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        let lines = LockedBox<[String]>([])
        let res = scheduler.start(disposed: 250) { xs.debug("d", trimOutput: false, output: lines.append) }
        #expect(withoutTimestamps(lines) == ["d -> subscribed", "d -> Event next(1)", "d -> isDisposed"])
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func trimsLongEvents() {
        let long = String(repeating: "a", count: 30) + String(repeating: "z", count: 30)
        let lines = LockedBox<[String]>([])
        _ = Observable.just(long).debug("x", trimOutput: true, output: lines.append).subscribe()
        let text = "next(\(long))"
        #expect(withoutTimestamps(lines)[1] == "x -> Event " + String(text.prefix(20)) + "..." + String(text.suffix(20)))
        let untrimmed = LockedBox<[String]>([])
        _ = Observable.just(long).debug("x", trimOutput: false, output: untrimmed.append).subscribe()
        #expect(withoutTimestamps(untrimmed)[1] == "x -> Event \(text)")
        let short = LockedBox<[String]>([])
        _ = Observable.just("abc").debug("x", trimOutput: true, output: short.append).subscribe()
        #expect(withoutTimestamps(short)[1] == "x -> Event next(abc)")
    }

    @Test func defaultIdentifierNamesTheCallSite() {
        #expect(debugIdentifier(nil, file: "RxSwiftTests/DebugTests.swift", line: 12, function: "f()") == "DebugTests.swift:12 (f())")
        #expect(debugIdentifier("mine", file: "A/B.swift", line: 1, function: "g()") == "mine")
    }

    @Test func publicSpellingPassesEventsThrough() {
        var values: [Int] = []
        _ = Observable.of(1, 2).debug().subscribe(onNext: { values.append($0) })
        #expect(values == [1, 2])
    }
}
