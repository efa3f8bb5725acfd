import RivuletTestSupport
import RxSwift
import RxTest

/// Operators that go on after an error: the error's thread races a dispose, the trigger
/// of a retry or another source.
enum ErrorHandlingScenarios {
    static let all: [ExplorationScenario] = [
        ExplorationScenario("catch", "the source's error against dispose", depth: 2, seed: 401) { run in
            let tally = SubscriptionTally()
            let source = PublishSubject<Int>()
            let observer = run.observe(source.catch { _ in tally.source(9) }, as: "caught", disposedBy: "disposer")
            run.thread("source", sends: "1 #", to: source)
            run.expectEvents(observer, among: "", "1", "1 9")
            tally.expect(in: run, "the handler's sequence") { subscribed, disposed in subscribed <= 1 && subscribed == disposed }
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("catchAndReturn", "an error against the other source's elements through merge", seed: 402) { run in
            let (observer, _, right) = run.observe(as: "caught", left: "1 #", right: "2 3") { left, right in
                Observable.merge(left, right).catchAndReturn(9)
            }
            run.expectEvents(observer, among: spellings(interleavings(["1", "#"], ["2", "3"])) { merged in
                merged.prefix { $0 != "#" } + ["9", "|"]
            })
            expectUnobserved(right, in: run)
        },
        ExplorationScenario("retry(when:)", "the source's error against the trigger", seed: 403) { run in
            let tally = SubscriptionTally()
            let attempts = Attempts(first: PublishSubject<Int>(), then: tally.source(2))
            let trigger = PublishSubject<Void>()
            let observer = run.observe(attempts.source.retry(when: { (_: Observable<Swift.Error>) in trigger }), as: "retried")
            run.thread("source", sends: "1 #", to: attempts.first)
            run.thread("trigger") { trigger.onNext(()) }
            // A trigger before the error retries nothing: only a failed attempt listens.
            run.expectEvents(observer, among: "1", "1 2")
            run.expect({ (observer.spelled == "1 2") == (tally.subscribed == 1) }) {
                "received \"\(observer.spelled)\" with the second attempt subscribed \(tally.subscribed) times"
            }
        },
        ExplorationScenario("retry(when:)", "a failed subscription against a trigger sending twice", seed: 406) { run in
            let tally = SubscriptionTally()
            let attempts = Attempts(first: PublishSubject<Int>(), then: tally.source(2))
            attempts.first.onError(testError)
            let trigger = PublishSubject<Void>()
            let observer = run.observeLater(attempts.source.retry(when: { (_: Observable<Swift.Error>) in trigger }), as: "retried")
            run.thread("trigger") {
                trigger.onNext(())
                trigger.onNext(())
            }
            // The first attempt fails as it is subscribed; one trigger after that retries
            // once, and the second attempt does not fail: a second trigger retries nothing.
            run.expectEvents(observer, among: "", "2")
            run.expect({ tally.subscribed == (observer.spelled == "2" ? 1 : 0) }) {
                "received \"\(observer.spelled)\" with the second attempt subscribed \(tally.subscribed) times"
            }
        },
        ExplorationScenario("retry(when:)", "the source's error against dispose", depth: 2, seed: 404) { run in
            expectAttemptsDisposed(in: run) { $0.retry(when: { (errors: Observable<Swift.Error>) in errors }) }
        },
        ExplorationScenario("retry(_:)", "the source's error against dispose", depth: 2, seed: 405) { run in
            expectAttemptsDisposed(in: run) { $0.retry(3) }
        },
    ]

    /// Races the first attempt's error against disposing the retrying subscription made
    /// by `retrying`: the second attempt, if made, is disposed, and the first is left.
    private static func expectAttemptsDisposed(in run: ScheduleRun, _ retrying: (Observable<Int>) -> Observable<Int>) {
        let tally = SubscriptionTally()
        let attempts = Attempts(first: PublishSubject<Int>(), then: tally.source(2))
        let observer = run.observe(retrying(attempts.source), as: "retried", disposedBy: "disposer")
        run.thread("source", sends: "#", to: attempts.first)
        run.expectEvents(observer, among: "", "2")
        tally.expect(in: run, "the second attempt") { subscribed, disposed in subscribed <= 1 && subscribed == disposed }
        expectUnobserved(attempts.first, in: run)
        run.expectEverySubscriptionEnded()
    }

    /// A source whose first subscription gets `first`, and every later one `then`.
    private final class Attempts: Sendable {
        let first: PublishSubject<Int>
        let source: Observable<Int>

        init(first: PublishSubject<Int>, then: Observable<Int>) {
            self.first = first
            let count = LockedBox(0)
            source = Observable.deferred {
                count.withLock { count in
                    count += 1
                    return count == 1 ? first.asObservable() : then
                }
            }
        }
    }
}
