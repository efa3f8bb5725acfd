import RivuletTestSupport
import RxSwift
import RxTest

/// Operators that flatten a sequence of sequences: an inner sequence's thread races the
/// outer one, another inner or a dispose.
enum FlatteningScenarios {
    static let all: [ExplorationScenario] = [
        ExplorationScenario("flatMapLatest", "an inner element against the switch to the next inner", seed: 201) { run in
            let outer = PublishSubject<Int>()
            let inners = [PublishSubject<Int>(), PublishSubject<Int>()]
            let observer = run.observe(outer.flatMapLatest { inners[$0] }, as: "latest")
            run.thread("outer") {
                outer.onNext(0)
                outer.onNext(1)
                inners[1].onNext(20)
            }
            run.thread("first inner", sends: "10", to: inners[0])
            run.expectEvents(observer, among: "20", "10 20")
            run.expect({ !inners[0].hasObservers && inners[1].hasObservers }) { "the first inner should be left, the second observed" }
        },
        ExplorationScenario("flatMapLatest", "the switch to the next inner against the current inner's element", depth: 2, seed: 209) { run in
            let outer = PublishSubject<Int>()
            let inners = [PublishSubject<Int>(), PublishSubject<Int>()]
            let observer = run.observe(outer.flatMapLatest { inners[$0] }, as: "latest")
            outer.onNext(0)
            run.thread("outer") { outer.onNext(1) }
            run.thread("first inner", sends: "10", to: inners[0])
            run.check { inners[1].onNext(20) }
            // The first inner's element counts only before the switch.
            run.expectEvents(observer, among: "20", "10 20")
        },
        ExplorationScenario("switchLatest", "an inner completion against the outer completion", seed: 202) { run in
            let (outer, inner, observer) = flattened(as: "latest", in: run) { $0.switchLatest() }
            run.thread("inner", sends: "1 |", to: inner)
            run.thread("outer") { outer.onCompleted() }
            run.expectEvents(observer, among: "1 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("flatMapLatest", "dispose against the switch to a new inner", depth: 2, seed: 203) { run in
            expectInnersDisposed(in: run) { outer, tally in outer.flatMapLatest { tally.source($0) } }
        },
        ExplorationScenario("flatMap", "inner completions against the outer completion", seed: 204) { run in
            let (outer, inner, observer) = flattened(as: "merged", in: run) { $0.flatMap { $0 } }
            run.thread("inner", sends: "1 |", to: inner)
            run.thread("outer") {
                outer.onNext(.just(2))
                outer.onCompleted()
            }
            run.expectEvents(observer, among: "1 2 |", "2 1 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("flatMap", "dispose against a new inner subscription", depth: 2, seed: 205) { run in
            expectInnersDisposed(in: run) { outer, tally in outer.flatMap { tally.source($0) } }
        },
        ExplorationScenario("flatMapFirst", "an inner completion against the next outer element", seed: 206) { run in
            let tally = SubscriptionTally()
            let (outer, inner, observer) = flattened(as: "first", in: run) { $0.flatMapFirst { $0 } }
            run.thread("inner", sends: "1 |", to: inner)
            run.thread("outer") { outer.onNext(tally.source(2)) }
            // The second inner is dropped while the first is live, taken after it ended.
            run.expectEvents(observer, among: "1", "1 2")
            run.expect({ (observer.spelled == "1 2") == (tally.subscribed == 1) }) {
                "received \(observer.spelled) with the second inner subscribed \(tally.subscribed) times"
            }
        },
        ExplorationScenario("flatMapFirst", "the outer completion against the inner's", seed: 207) { run in
            let (outer, inner, observer) = flattened(as: "first", in: run) { $0.flatMapFirst { $0 } }
            run.thread("inner", sends: "1 |", to: inner)
            run.thread("outer") {
                outer.onNext(.just(2))
                outer.onCompleted()
            }
            // 2 is dropped while the first inner is live; either way one completion, last.
            run.expectEvents(observer, among: "1 |", "1 2 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("concatMap", "an inner completion against the next inners arriving", seed: 208) { run in
            let (outer, inner, observer) = flattened(as: "concatenated", in: run) { $0.concatMap { $0 } }
            run.thread("inner", sends: "1 |", to: inner)
            run.thread("outer") {
                outer.onNext(.just(2))
                outer.onNext(.just(3))
                outer.onCompleted()
            }
            run.expectEvents(observer, among: "1 2 3 |")
            run.expectEverySubscriptionEnded()
        },
    ]

    /// An outer subject flattened by `flatten` into a new observer named `name`, with a
    /// first inner subject already sent.
    private static func flattened(
        as name: String,
        in run: ScheduleRun,
        _ flatten: (PublishSubject<Observable<Int>>) -> Observable<Int>
    ) -> (outer: PublishSubject<Observable<Int>>, inner: PublishSubject<Int>, observer: ScheduleObserver<Int>) {
        let outer = PublishSubject<Observable<Int>>()
        let inner = PublishSubject<Int>()
        let observer = run.observe(flatten(outer), as: name)
        outer.onNext(inner)
        return (outer, inner, observer)
    }

    /// Races two outer elements, each mapped by `flatten` to a counted inner, against
    /// disposing the subscription: every inner subscribed is disposed.
    private static func expectInnersDisposed(
        in run: ScheduleRun,
        _ flatten: (PublishSubject<Int>, SubscriptionTally) -> Observable<Int>
    ) {
        let tally = SubscriptionTally()
        let outer = PublishSubject<Int>()
        _ = run.observe(flatten(outer, tally), as: "flattened", disposedBy: "disposer")
        run.thread("outer", sends: "1 2", to: outer)
        tally.expect(in: run, "the inners") { subscribed, disposed in subscribed == disposed }
        run.expectEverySubscriptionEnded()
    }
}
