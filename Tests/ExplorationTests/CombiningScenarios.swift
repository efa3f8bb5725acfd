import RivuletTestSupport
import RxSwift
import RxTest

/// Operators that combine several sources: each source's thread races the others, a
/// dispose, or the operator's own selector.
enum CombiningScenarios {
    static let all: [ExplorationScenario] = [
        ExplorationScenario("zip", "two sources sending and completing on two threads", seed: 101) { run in
            let (observer, _, _) = run.observe(as: "zipped", left: "1 2 |", right: "10 20 |") { left, right in
                Observable.zip(left, right) { $0 + $1 }
            }
            run.expectEvents(observer, among: "11 22 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("zip", "an error against the delivery of a pair", seed: 116) { run in
            let (observer, left, right) = run.observe(as: "zipped", left: "1 #", right: "10") { left, right in
                Observable.zip(left, right) { $0 + $1 }
            }
            run.expectEvents(observer, among: "#", "11 #")
            expectUnobserved(left, right, in: run)
        },
        ExplorationScenario("zip", "an element against dispose", depth: 2, seed: 102) { run in
            let left = PublishSubject<Int>()
            let right = PublishSubject<Int>()
            let observer = run.observe(Observable.zip(left, right) { $0 + $1 }, as: "zipped", disposedBy: "disposer")
            run.thread("left", sends: "1", to: left)
            run.thread("right", sends: "10", to: right)
            run.expectEvents(observer, among: "", "11")
            expectUnobserved(left, right, in: run)
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("zip (collection)", "the last element against the other source's completion", seed: 103) { run in
            let (observer, _, _) = run.observe(as: "zipped", left: "1 |", right: "10 20") { left, right in
                Observable.zip([left, right])
            }
            // The collection form completes when 20 arrives after the left completed.
            run.expectEvents(observer, among: "[1, 10]", "[1, 10] |")
        },
        ExplorationScenario("withLatestFrom", "an element against the other source's first value", depth: 2, seed: 104) { run in
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            let observer = run.observe(first.withLatestFrom(second) { $0 + $1 }, as: "combined")
            run.thread("first", sends: "1 2", to: first)
            run.thread("second", sends: "10", to: second)
            run.expectEvents(observer, among: "", "12", "11 12")
        },
        ExplorationScenario("withLatestFrom", "a selector emitting into the other source against an element", seed: 105) { run in
            let one = PublishSubject<Int>()
            let two = PublishSubject<Int>()
            let second = BehaviorSubject(value: 10)
            let combined = Observable.merge(one, two).withLatestFrom(second) { element, latest in
                if element == 1 { second.onNext(20) }
                return element + latest
            }
            let observer = run.observe(combined, as: "combined")
            run.thread("one", sends: "1", to: one)
            run.thread("two", sends: "2", to: two)
            // 1 goes first with 10 and makes 20 the latest for 2; or 2 goes first with 10.
            run.expectEvents(observer, among: "11 22", "12 11")
        },
        ExplorationScenario("withLatestFrom", "the first source's completion against the second's error", seed: 106) { run in
            let first = PublishSubject<Int>()
            let second = BehaviorSubject(value: 10)
            let observer = run.observe(first.withLatestFrom(second), as: "combined")
            run.thread("first", sends: "1 |", to: first)
            run.thread("second", sends: "#", to: second)
            run.expectEvents(observer, among: "10 |", "#", "10 #")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("withLatestFrom", "the first source's completion against the second's error, nothing delivered before", depth: 2, seed: 118) { run in
            let first = PublishSubject<Int>()
            let second = BehaviorSubject(value: 10)
            let observer = run.observe(first.withLatestFrom(second), as: "combined")
            run.thread("first", sends: "|", to: first)
            run.thread("second", sends: "#", to: second)
            run.expectEvents(observer, among: "|", "#")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("withLatestFrom", "an element against a new latest and an error of the second", seed: 119) { run in
            let first = PublishSubject<Int>()
            let second = BehaviorSubject(value: 10)
            let observer = run.observe(first.withLatestFrom(second), as: "combined")
            run.thread("first", sends: "1", to: first)
            run.thread("second", sends: "20 #", to: second)
            // The element goes with the latest of its moment, unless the error came first.
            run.expectEvents(observer, among: "10 #", "20 #", "#")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("combineLatest", "an element against the other source's error", seed: 120) { run in
            let left = BehaviorSubject(value: 1)
            let right = BehaviorSubject(value: 10)
            let observer = run.observe(Observable.combineLatest(left, right) { $0 + $1 }, as: "combined")
            run.thread("left", sends: "2", to: left)
            run.thread("right", sends: "#", to: right)
            run.expectEvents(observer, among: "11 12 #", "11 #")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("combineLatest", "elements from two threads", seed: 117) { run in
            let (observer, left, right) = run.observe(as: "combined", left: "1 2", right: "10 20") { left, right in
                Observable.combineLatest(left, right) { $0 + $1 }
            }
            // For each order of the four elements, the sum of the latest of each side,
            // from the moment both have one.
            run.expectEvents(observer, among: spellings(interleavings([1, 2], [10, 20])) { merged in
                var latest = (left: 0, right: 0)
                return merged.compactMap { element in
                    if element < 10 { latest.left = element } else { latest.right = element }
                    return latest.left == 0 || latest.right == 0 ? nil : "\(latest.left + latest.right)"
                }
            })
        },
        ExplorationScenario("combineLatest", "an element against dispose", depth: 2, seed: 107) { run in
            let left = BehaviorSubject(value: 1)
            let right = PublishSubject<Int>()
            let combined = Observable.combineLatest(left, right) { $0 + $1 }
            let observer = run.observe(combined, as: "combined", disposedBy: "disposer")
            run.thread("right", sends: "10 20", to: right)
            run.expectEvents(observer, among: "", "11", "11 21")
            expectUnobserved(left, right, in: run)
        },
        ExplorationScenario("merge", "an error against the other source's element", seed: 108) { run in
            let (observer, _, right) = run.observe(as: "merged", left: "1 #", right: "2 |") { left, right in
                Observable.merge(left, right)
            }
            run.expectEvents(observer, among: "1 #", "1 2 #", "2 1 #")
            expectUnobserved(right, in: run)
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("merge", "subscribing against a source's element and completion", seed: 121) { run in
            let left = PublishSubject<Int>()
            let right = PublishSubject<Int>()
            let observer = run.observeLater(Observable.merge(left, right), as: "merged")
            run.thread("left", sends: "1 |", to: left)
            run.thread("right", sends: "|", to: right)
            // Whatever the sources sent before their subscription is not seen; the merge
            // completes once both completed after it.
            run.expectEvents(observer, among: "", "1", "1 |", "|")
        },
        ExplorationScenario("merge", "elements of two sources queued behind each other's deliveries", seed: 122) { run in
            let (observer, _, _) = run.observe(as: "merged", left: "1 2 3", right: "10 20 30") { left, right in
                Observable.merge(left, right)
            }
            run.expectEvents(observer, among: spellings(interleavings([1, 2, 3], [10, 20, 30])) { $0.map(String.init) })
        },
        ExplorationScenario("merge(maxConcurrent:)", "an inner completion against the next inner arriving", seed: 109) { run in
            let outer = PublishSubject<Observable<Int>>()
            let first = PublishSubject<Int>()
            let observer = run.observe(outer.merge(maxConcurrent: 1), as: "merged")
            outer.onNext(first)
            run.thread("inner", sends: "1 |", to: first)
            run.thread("outer") {
                outer.onNext(.just(2))
                outer.onCompleted()
            }
            // The second inner waits for the first, queued or arriving after it.
            run.expectEvents(observer, among: "1 2 |")
        },
        ExplorationScenario("amb", "the first elements of two sources", seed: 110) { run in
            let (observer, left, right) = run.observe(as: "winner", left: "1 2", right: "10 20") { left, right in
                left.amb(right)
            }
            run.expectEvents(observer, among: "1 2", "10 20")
            run.expect({ left.hasObservers != right.hasObservers }) { "amb should observe the winner only" }
        },
        ExplorationScenario("amb", "a completion against the other source's element", depth: 2, seed: 111) { run in
            let (observer, _, _) = run.observe(as: "winner", left: "|", right: "10 |") { left, right in
                Observable.amb([left, right])
            }
            run.expectEvents(observer, among: "|", "10 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("concat", "subscribing against the first source's completion", seed: 123) { run in
            let tally = SubscriptionTally()
            let first = PublishSubject<Int>()
            let observer = run.observeLater(Observable.concat(first, tally.source(2)), as: "concatenated")
            run.thread("first", sends: "|", to: first)
            // Whether the first source completed before or after its subscription, the
            // second is subscribed once.
            run.expectEvents(observer, among: "2")
            tally.expect(in: run, "the second source") { subscribed, _ in subscribed == 1 }
        },
        ExplorationScenario("concat", "the first source's completion against the second's events", seed: 112) { run in
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            let observer = run.observe(first.concat(second), as: "concatenated")
            run.thread("first", sends: "1 |", to: first)
            run.thread("second", sends: "2 |", to: second)
            // 2 before the move to the second source is not seen; its completion always is.
            run.expectEvents(observer, among: "1 |", "1 2 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("concat", "dispose against the move to the next source", depth: 2, seed: 113) { run in
            let tally = SubscriptionTally()
            let first = PublishSubject<Int>()
            let concatenated = Observable.concat([first.asObservable(), tally.source(2)])
            let observer = run.observe(concatenated, as: "concatenated", disposedBy: "disposer")
            run.thread("first", sends: "|", to: first)
            run.expectEvents(observer, among: "", "2")
            tally.expect(in: run, "the second source") { subscribed, disposed in subscribed <= 1 && disposed == subscribed }
            // The second source may be subscribed and disposed before it sends 2.
            run.expect({ observer.spelled != "2" || tally.subscribed == 1 }) { "2 delivered without the second source subscribed" }
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("sample", "an element against a tick", depth: 2, seed: 114) { run in
            let source = PublishSubject<Int>()
            let sampler = PublishSubject<Void>()
            let observer = run.observe(source.sample(sampler), as: "sampled")
            run.thread("source", sends: "1 2", to: source)
            run.thread("sampler") { sampler.onNext(()) }
            run.expectEvents(observer, among: "", "1", "2")
        },
        ExplorationScenario("sample", "the source's completion against two ticks", seed: 115) { run in
            let source = PublishSubject<Int>()
            let sampler = PublishSubject<Void>()
            let observer = run.observe(source.sample(sampler), as: "sampled")
            run.thread("source", sends: "1 |", to: source)
            run.thread("sampler") {
                sampler.onNext(())
                sampler.onNext(())
            }
            // It completes at the first tick after the source completed, with the element
            // not sampled yet.
            run.expectEvents(observer, among: "", "1", "1 |")
        },
    ]
}
