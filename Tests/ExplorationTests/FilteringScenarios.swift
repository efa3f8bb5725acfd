import RivuletTestSupport
import RxSwift
import RxTest

/// Operators that gate, count, group or accumulate: a trigger's thread races the
/// source's, or two threads feed them through `merge`, which serialises what they send.
enum FilteringScenarios {
    static let all: [ExplorationScenario] = [
        ExplorationScenario("take(until:)", "elements against the trigger", seed: 301) { run in
            let source = PublishSubject<Int>()
            let trigger = PublishSubject<Void>()
            let observer = run.observe(source.take(until: trigger), as: "taken")
            run.thread("source", sends: "1 2", to: source)
            run.thread("trigger") { trigger.onNext(()) }
            run.expectEvents(observer, among: "|", "1 |", "1 2 |")
            run.expect({ !source.hasObservers && !trigger.hasObservers }) { "a source is still observed after the trigger" }
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("take(until:)", "the source's completion against the trigger", depth: 2, seed: 302) { run in
            let source = PublishSubject<Int>()
            let trigger = PublishSubject<Void>()
            let observer = run.observe(source.take(until: trigger), as: "taken")
            run.thread("source", sends: "1 |", to: source)
            run.thread("trigger") { trigger.onNext(()) }
            run.expectEvents(observer, among: "|", "1 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("skip(until:)", "elements against the trigger", seed: 303) { run in
            let source = PublishSubject<Int>()
            let trigger = PublishSubject<Void>()
            let observer = run.observe(source.skip(until: trigger), as: "skipped")
            run.thread("source", sends: "1 2 |", to: source)
            run.thread("trigger") { trigger.onNext(()) }
            // Without the trigger, the source's completion ends the subscription silently.
            run.expectEvents(observer, among: "", "|", "2 |", "1 2 |")
            run.expect({ !trigger.hasObservers }) { "the trigger is still observed after its first element" }
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("take(_:)", "two threads through merge against the count", seed: 304) { run in
            let (observer, left, right) = run.observe(as: "taken", left: "1 2", right: "10 20") { left, right in
                Observable.merge(left, right).take(2)
            }
            run.expectEvents(observer, among: spellings(interleavings([1, 2], [10, 20])) { $0.prefix(2).map(String.init) + ["|"] })
            run.expect({ !left.hasObservers && !right.hasObservers }) { "a source is still observed after the second element" }
        },
        ExplorationScenario("take(_:)", "a subject sent to from two threads at once", seed: 311) { run in
            // A source that breaks the grammar so: take still passes one element only.
            let subject = PublishSubject<Int>()
            let observer = run.observe(subject.take(1), as: "taken")
            run.thread("one", sends: "1", to: subject)
            run.thread("two", sends: "2", to: subject)
            run.expectEvents(observer, among: "1 |", "2 |")
        },
        ExplorationScenario("toArray", "a subject sent to from two threads at once", seed: 312) { run in
            // A source that breaks the grammar so: toArray loses no element.
            let subject = PublishSubject<Int>()
            let observer = run.observe(subject.toArray().asObservable(), as: "array")
            run.thread("one", sends: "1", to: subject)
            run.thread("two", sends: "2", to: subject)
            run.check { subject.onCompleted() }
            run.expectEvents(observer, among: "[1, 2] |", "[2, 1] |")
        },
        ExplorationScenario("toArray", "a subject's completion against an element sent at once", depth: 2, seed: 313) { run in
            let subject = PublishSubject<Int>()
            let observer = run.observe(subject.toArray().asObservable(), as: "array")
            run.thread("one", sends: "1", to: subject)
            run.thread("two", sends: "2 |", to: subject)
            // An element that comes after the completion is not in the array.
            run.expectEvents(observer, among: "[1, 2] |", "[2, 1] |", "[2] |")
        },
        ExplorationScenario("distinctUntilChanged", "two threads through merge", seed: 305) { run in
            let (observer, _, _) = run.observe(as: "distinct", left: "1 1", right: "1 2") { left, right in
                Observable.merge(left, right).distinctUntilChanged()
            }
            run.expectEvents(observer, among: spellings(interleavings([1, 1], [1, 2])) { merged in
                merged.enumerated().filter { $0.offset == 0 || merged[$0.offset - 1] != $0.element }.map { "\($0.element)" }
            })
        },
        ExplorationScenario("scan", "two threads through merge", seed: 306) { run in
            let (observer, _, _) = run.observe(as: "sums", left: "1 2", right: "10 20") { left, right in
                Observable.merge(left, right).scan(0, accumulator: +)
            }
            run.expectEvents(observer, among: spellings(interleavings([1, 2], [10, 20])) { merged in
                merged.indices.map { "\(merged[...$0].reduce(0, +))" }
            })
        },
        ExplorationScenario("enumerated", "two threads through merge", depth: 2, seed: 307) { run in
            let (observer, _, _) = run.observe(as: "indices", left: "1 2", right: "10") { left, right in
                Observable.merge(left, right).enumerated().map(\.index)
            }
            run.expectEvents(observer, among: "0 1 2")
        },
        ExplorationScenario("toArray", "two threads completing through merge", seed: 308) { run in
            let (observer, _, _) = run.observe(as: "array", left: "1 2 |", right: "10 |") { left, right in
                Observable.merge(left, right).toArray().asObservable()
            }
            run.expectEvents(observer, among: interleavings([1, 2], [10]).map { "\($0) |" })
        },
        ExplorationScenario("groupBy", "two keys from two threads", seed: 309) { run in
            let left = PublishSubject<Int>()
            let right = PublishSubject<Int>()
            let keys = run.observer("keys", of: Int.self)
            let groups = [run.observer("even", of: Int.self), run.observer("odd", of: Int.self)]
            _ = Observable.merge(left, right).groupBy { $0 % 2 }.subscribe(AnyObserver { event in
                if let group = event.element { _ = group.subscribe(groups[group.key]) }
                keys.on(event.map(\.key))
            })
            run.thread("left", sends: "1 3 |", to: left)
            run.thread("right", sends: "2 4 |", to: right)
            run.expectEvents(keys, among: "1 0 |", "0 1 |")
            run.expectEvents(groups[1], among: "1 3 |")
            run.expectEvents(groups[0], among: "2 4 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("groupBy", "disposing the outer subscription against a group's elements", seed: 310) { run in
            let source = PublishSubject<Int>()
            let group = run.observer("group", of: Int.self)
            let subscription = UnsafeTransfer(source.groupBy { $0 % 2 }.subscribe(onNext: { _ = $0.subscribe(group) }))
            run.thread("source", sends: "1 3", to: source)
            run.thread("disposer") { subscription.value.dispose() }
            run.expectEvents(group, among: "", "1", "1 3")
            // A group subscribed in time keeps the source alive after the outer
            // subscription left; one subscribed as the dispose is under way may still
            // see what was in flight, but not keep the source.
            run.expect({ !source.hasObservers || group.spelled == "1 3" }) {
                "the group received \"\(group.spelled)\" and the source is \(source.hasObservers ? "" : "not ")observed"
            }
        },
    ]
}
