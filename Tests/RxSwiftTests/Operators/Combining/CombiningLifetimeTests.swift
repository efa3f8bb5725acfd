import RivuletTestSupport
import RxSwift
import Testing
import RxTest

/// An observer whose deallocation the tests watch: a subscription that leaks (a retain
/// cycle between a sink and its inputs, say) keeps it alive.
private final class WatchedObserver: ObserverType, @unchecked Sendable {
    private(set) var events: [Event<Int>] = []
    func on(_ event: Event<Int>) {
        events.append(event)
    }
}

/// How a subscription ends in these tests.
enum SubscriptionEnd: CaseIterable, Sendable { case completion, error, disposal }

@Suite("combining operators release their subscriptions", .rxLeakCheck)
struct CombiningLifetimeTests {
    /// Subscribes a `WatchedObserver` to the sequence `make` builds from two subjects, ends
    /// the subscription as `end` says, drops everything, and reports whether the observer
    /// was released.
    private func isReleased(
        _ end: SubscriptionEnd,
        _ make: (PublishSubject<Int>, PublishSubject<Int>) -> Observable<Int>
    ) -> (released: Bool, events: [Event<Int>]) {
        weak var watched: WatchedObserver?
        var events: [Event<Int>] = []
        do {
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            let observer = WatchedObserver()
            watched = observer
            let subscription = make(first, second).subscribe(observer)
            first.onNext(1)
            second.onNext(2)
            switch end {
            case .completion:
                first.onCompleted()
                second.onCompleted()
            case .error:
                first.onError(testError)
            case .disposal:
                subscription.dispose()
            }
            events = observer.events
        }
        return (watched == nil, events)
    }

    @Test("combineLatest", arguments: SubscriptionEnd.allCases)
    func combineLatest(end: SubscriptionEnd) {
        let result = isReleased(end) { Observable.combineLatest($0, $1) { $0 + $1 } }
        #expect(result.released)
        #expect(result.events.first == .next(3))
        #expect(isReleased(end) { Observable.combineLatest([$0, $1]).map { $0.reduce(0, +) } }.released)
    }

    @Test("zip", arguments: SubscriptionEnd.allCases)
    func zip(end: SubscriptionEnd) {
        let result = isReleased(end) { Observable.zip($0, $1).map { $0 + $1 } }
        #expect(result.released)
        #expect(result.events.first == .next(3))
        #expect(isReleased(end) { Observable.zip([$0, $1]) { $0.reduce(0, +) } }.released)
    }

    @Test("merge and flatMap", arguments: SubscriptionEnd.allCases)
    func merge(end: SubscriptionEnd) {
        let result = isReleased(end) { Observable.merge($0, $1) }
        #expect(result.released)
        #expect(result.events.prefix(2) == [.next(1), .next(2)])
        #expect(isReleased(end) { first, second in Observable.of(first, second).flatMap { $0 } }.released)
        #expect(isReleased(end) { first, second in Observable.of(first, second).merge(maxConcurrent: 1) }.released)
        #expect(isReleased(end) { first, second in first.flatMapFirst { _ in second } }.released)
    }

    @Test("switchLatest and concat", arguments: SubscriptionEnd.allCases)
    func switchAndConcat(end: SubscriptionEnd) {
        #expect(isReleased(end) { first, second in first.flatMapLatest { _ in second } }.released)
        let concatenated = isReleased(end) { first, second in first.concat(second) }
        #expect(concatenated.released)
        #expect(concatenated.events.first == .next(1))
    }

    @Test("withLatestFrom and amb", arguments: SubscriptionEnd.allCases)
    func withLatestFromAndAmb(end: SubscriptionEnd) {
        #expect(isReleased(end) { first, second in second.withLatestFrom(first) { $0 + $1 } }.released)
        let raced = isReleased(end) { first, second in first.amb(second) }
        #expect(raced.released)
        #expect(raced.events.first == .next(1))
    }
}
