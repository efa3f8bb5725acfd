import RivuletTestSupport
import RxSwift
import RxTest
import Testing

/// Fusion: a `map` or `filter` applied to another one runs in the same sink when the
/// observer below takes elements by address (`subscribe(onNext:)`, another `map`,
/// `filter` or `scan`). These tests hold the fused sink to what two sinks do: the
/// same elements in the same order, errors from either step, disposal between the
/// steps, and deliveries that re-enter the chain from inside the subscriber.
@Suite("Fused map and filter: one sink for two steps, the same events as two", .rxLeakCheck)
struct FusedStepsTests {
    /// The chains compared: every pair of map and filter, and longer runs.
    private static var chains: [(name: String, build: (Observable<Int>) -> Observable<Int>)] {
        [
        ("map.filter", { $0.map { $0 &* 3 }.filter { $0 % 2 == 0 } }),
        ("filter.map", { $0.filter { $0 % 3 != 0 }.map { $0 &- 7 } }),
        ("map.map", { $0.map { $0 &+ 1 }.map { $0 &* 5 } }),
        ("filter.filter", { $0.filter { $0 % 2 == 0 }.filter { $0 % 3 != 0 } }),
        ("map.filter.map", { $0.map { $0 &* 2 }.filter { $0 % 3 == 0 }.map { $0 &+ 100 } }),
        ("filter.map.filter.map", { $0.filter { $0 > -20 }.map { $0 &* $0 }.filter { $0 % 4 == 0 }.map { -$0 } }),
        ("map.scan.map.filter", { $0.map { $0 &+ 3 }.scan(0, accumulator: &+).map { $0 / 2 }.filter { $0 % 5 != 1 } }),
        ]
    }

    @Test("every run of map and filter gives the same events fused and unfused", arguments: 0..<7)
    func fusedMatchesUnfused(chainIndex: Int) {
        let (name, build) = Self.chains[chainIndex]
        let input = Array(-40..<60)
        let expected = build(Observable.from(input)).toArraySync()

        // Fused: subscribe(onNext:) takes addresses, from range and from a subject.
        var viaRange: [Int] = []
        var rangeCompleted = false
        build(Observable.range(start: -40, count: 100))
            .subscribe(onNext: { viaRange.append($0) }, onCompleted: { rangeCompleted = true })
            .dispose()
        let subject = PublishSubject<Int>()
        var viaSubject: [Int] = []
        let subscription = build(subject.asObservable()).subscribe(onNext: { viaSubject.append($0) })
        for value in input { subject.onNext(value) }
        subscription.dispose()

        // Unfused: a testable observer takes no addresses, so each operator keeps its sink.
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable(input.enumerated().map { .next(10 + $0.offset, $0.element) } + [.completed(200)])
        let observed = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { build(source.asObservable()) }

        #expect(expected.count > 0, "\(name) lets something through")
        #expect(viaRange == expected, "\(name) from range")
        #expect(rangeCompleted, "\(name) from range completes")
        #expect(viaSubject == expected, "\(name) from a subject")
        #expect(observed.events.compactMap(\.value.element) == expected, "\(name) in virtual time")
        #expect(observed.events.last == .completed(200), "\(name) completes at the source's time")
    }

    @Test("an error thrown by the first or the second step ends the sequence and releases the source", arguments: ["first", "second"])
    func errorInEitherStep(step: String) {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var failure: Error?
        var secondSaw: [Int] = []
        _ = subject
            .map { value -> Int in
                if step == "first", value == 3 { throw TestError(code: value) }
                return value &* 10
            }
            .filter { value in
                secondSaw.append(value)
                if step == "second", value == 30 { throw TestError(code: value) }
                return true
            }
            .subscribe(onNext: { received.append($0) }, onError: { failure = $0 })
        for value in 1...5 { subject.onNext(value) }
        #expect(received == [10, 20])
        #expect(failure as? TestError == TestError(code: step == "first" ? 3 : 30))
        #expect(secondSaw == (step == "first" ? [10, 20] : [10, 20, 30]))
        #expect(!subject.hasObservers, "the error disposed the subscription to the subject")
    }

    @Test("disposing inside the first step: the second step does not run for that element")
    func disposalInFirstStep() {
        let subject = PublishSubject<Int>()
        let subscription = SingleAssignmentDisposable()
        var secondSaw: [Int] = []
        var received: [Int] = []
        subscription.setDisposable(
            subject
                .map { value -> Int in
                    if value == 2 { subscription.dispose() }
                    return value
                }
                .map { value -> Int in
                    secondSaw.append(value)
                    return value
                }
                .subscribe(onNext: { received.append($0) })
        )
        for value in 1...4 { subject.onNext(value) }
        #expect(secondSaw == [1])
        #expect(received == [1])
        #expect(!subject.hasObservers)
    }

    @Test("disposing inside the second step: that element does not reach the subscriber")
    func disposalInSecondStep() {
        let subject = PublishSubject<Int>()
        let subscription = SingleAssignmentDisposable()
        var received: [Int] = []
        subscription.setDisposable(
            subject
                .filter { _ in true }
                .filter { value in
                    if value == 2 { subscription.dispose() }
                    return true
                }
                .subscribe(onNext: { received.append($0) })
        )
        for value in 1...4 { subject.onNext(value) }
        #expect(received == [1])
        #expect(!subject.hasObservers)
    }

    @Test("an element sent again from inside the subscriber goes through both steps (by address)")
    func reentrantDeliveryByAddress() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject
            .map { $0 + 1 }
            .map { $0 * 10 }
            .subscribe(onNext: { value in
                received.append(value)
                if value < 1000 { subject.onNext(value) }
            })
        subject.onNext(0)
        subscription.dispose()
        #expect(received == [10, 110, 1110])
    }

    @Test("an element sent again from inside the subscriber goes through both steps (from an operator without the address path)")
    func reentrantDeliveryByValue() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        // `take` passes elements by value, so the fused sink starts from its value path.
        let subscription = subject.take(100)
            .filter { $0 % 2 == 0 }
            .map { $0 + 1 }
            .subscribe(onNext: { value in
                received.append(value)
                // The odd value is dropped by the first step; the even one comes back
                // through both.
                if value < 20 {
                    subject.onNext(value)
                    subject.onNext(value + 1)
                }
            })
        subject.onNext(2)
        subscription.dispose()
        #expect(received == [3, 5, 7, 9, 11, 13, 15, 17, 19, 21])
    }

    @Test("completion passes through the fused sink once, after the last element")
    func completionOnce() {
        var events: [String] = []
        Observable.from([1, 2, 3])
            .map { $0 * 2 }
            .filter { $0 > 2 }
            .subscribe(onNext: { events.append("\($0)") }, onCompleted: { events.append("|") }, onDisposed: { events.append("disposed") })
            .dispose()
        #expect(events == ["4", "6", "|", "disposed"])
    }
}

/// Collects elements through `on(_:)` only: an observer with no address path, so no
/// operator above it is fused.
private final class Collector<Element>: ObserverType, @unchecked Sendable {
    var elements: [Element] = []
    func on(_ event: Event<Element>) {
        if case .next(let element) = event { elements.append(element) }
    }
}

private extension ObservableType {
    /// The elements of a synchronous sequence, collected without fusion.
    func toArraySync() -> [Element] {
        let collector = Collector<Element>()
        asObservable().subscribe(collector).dispose()
        return collector.elements
    }
}
