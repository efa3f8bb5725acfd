import RivuletTestSupport
import RxSwift
import Testing

/// A result selector that sends into one of its own sources. The selector runs under
/// the sink's lock, which is not recursive: the event it sends must wait for the
/// selector to return rather than take the lock again. Each run is bounded, so a
/// deadlock fails the test instead of hanging it.
@Suite("combining operators: a result selector that emits into its own sources")
struct SelectorReentrancyTests {
    @Test("combineLatest: the set the selector makes due goes out after the one being made")
    func combineLatestSelectorSendsElement() {
        let received = runBounded(seconds: 10) { () -> [Int] in
            let left = PublishSubject<Int>()
            let right = PublishSubject<Int>()
            var received: [Int] = []
            let subscription = Observable.combineLatest(left, right) { a, b -> Int in
                if a == 1, b == 1 { left.onNext(2) }
                return a * 10 + b
            }
            .subscribe(onNext: { received.append($0) })
            left.onNext(1)
            right.onNext(1)
            right.onNext(3)
            subscription.dispose()
            return received
        }
        #expect(received == [11, 21, 23], "a deadlock leaves nil")
    }

    @Test("zip: pairs the selector completes go out after the one being made, in order")
    func zipSelectorSendsElements() {
        let received = runBounded(seconds: 10) { () -> [String] in
            let left = PublishSubject<Int>()
            let right = PublishSubject<String>()
            var received: [String] = []
            let subscription = Observable.zip(left, right) { a, b -> String in
                if a == 1 {
                    left.onNext(2)
                    right.onNext("b")
                    left.onNext(3)
                }
                return "\(a)\(b)"
            }
            .subscribe(onNext: { received.append($0) })
            left.onNext(1)
            right.onNext("a")
            right.onNext("c")
            subscription.dispose()
            return received
        }
        #expect(received == ["1a", "2b", "3c"], "a deadlock leaves nil")
    }

    @Test("a source the selector completes or fails ends the sequence after the result being made")
    func selectorEndsASource() {
        let events = runBounded(seconds: 10) { () -> [String] in
            let left = PublishSubject<Int>()
            let right = PublishSubject<Int>()
            var events: [String] = []
            let subscription = Observable.zip(left, right) { a, b -> Int in
                if a == 1 {
                    left.onNext(5)
                    right.onNext(5)
                    right.onError(testError)
                }
                return a + b
            }
            .subscribe(onNext: { events.append("\($0)") }, onError: { _ in events.append("error") }, onCompleted: { events.append("completed") })
            left.onNext(1)
            right.onNext(1)
            left.onNext(7)
            right.onNext(7)
            subscription.dispose()
            return events
        }
        #expect(events == ["2", "10", "error"], "a deadlock leaves nil")
    }

    @Test("the collection form: a selector that emits into a source does not deadlock")
    func collectionSelectorSendsElement() {
        let received = runBounded(seconds: 10) { () -> [[Int]] in
            let sources = [PublishSubject<Int>(), PublishSubject<Int>()]
            var received: [[Int]] = []
            let subscription = Observable.combineLatest(sources) { values -> [Int] in
                if values == [1, 1] { sources[0].onNext(2) }
                return values
            }
            .subscribe(onNext: { received.append($0) })
            for source in sources { source.onNext(1) }
            subscription.dispose()
            return received
        }
        #expect(received == [[1, 1], [2, 1]], "a deadlock leaves nil")
    }
}
