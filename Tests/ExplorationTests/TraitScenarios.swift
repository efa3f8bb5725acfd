import RivuletTestSupport
import RxCocoa
import RxRelay
import RxSwift
import RxTest

/// Traits: Driver and Signal hand every element to the main queue (the explorer runs
/// that queue's work as threads of the run, in order); Single ends once; a Binder applies
/// elements on its scheduler.
///
/// `drive` insists on the main thread, which no thread of a run is: the Drivers here are
/// subscribed through `asObservable()`, which is what `drive` subscribes.
enum TraitScenarios {
    static let all: [ExplorationScenario] = [
        ExplorationScenario("Driver", "elements handed to the main queue against a second subscriber", seed: 1001) { run in
            let source = PublishSubject<Int>()
            let driver = source.asDriver(onErrorJustReturn: -1)
            let first = run.observe(driver, as: "first")
            run.thread("producer", sends: "1 2", to: source)
            let second = run.observeLater(driver.asObservable(), as: "second")
            run.expectEvents(first, among: "1 2")
            // The latest element delivered on the main queue, then every later one.
            run.expectEvents(second, among: "1 2", "2")
        },
        ExplorationScenario("Driver", "a BehaviorRelay's accepts against a subscriber leaving", seed: 1002) { run in
            let relay = BehaviorRelay(value: 0)
            let observer = run.observe(relay.asDriver(), as: "leaving", disposedBy: "disposer")
            run.thread("producer", accepts: 1, 2, into: relay)
            run.expectEvents(observer, among: "", "0", "0 1", "0 1 2")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("Signal", "elements handed to the main queue against a second subscriber", seed: 1003) { run in
            let relay = PublishRelay<Int>()
            let signal = relay.asSignal()
            let first = run.observer("first", of: Int.self)
            let second = run.observer("second", of: Int.self)
            _ = signal.emit(to: first)
            run.thread("producer", accepts: 1, 2, into: relay)
            run.thread("subscriber") { _ = signal.emit(to: second) }
            run.expectEvents(first, among: "1 2")
            // No replay: what is delivered on the main queue after it joined.
            run.expectEvents(second, among: "", "2", "1 2")
        },
        ExplorationScenario("Single", "success against dispose", depth: 2, seed: 1004) { run in
            let calls = CallCount()
            let succeed = LockedBox<((SingleEvent<Int>) -> Void)?>(nil)
            let single = Single<Int>.create { observer in
                succeed.value = observer
                return calls.disposable("single")
            }
            let observer = run.observe(single, as: "single", disposedBy: "disposer")
            let send = UnsafeTransfer(succeed.value)
            run.thread("producer") { send.value?(.success(1)) }
            // The dispose may come between the element and the completion.
            run.expectEvents(observer, among: "", "1", "1 |")
            calls.expect(in: run, ["single"], calledTimes: 1)
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("asSingle", "the only element against the other source's completion through merge", depth: 2, seed: 1005) { run in
            let (observer, _, _) = run.observe(as: "single", left: "1 |", right: "|") { left, right in
                Observable.merge(left, right).asSingle().asObservable()
            }
            run.expectEvents(observer, among: "1 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("Binder", "two threads binding through a serial queue", seed: 1006) { run in
            let target = LockedBox([Int]())
            let binder = UnsafeTransfer(Binder(target, scheduler: serialQueue()) { target, element in
                target.append(element)
            })
            run.thread("one") { binder.value.onNext(1) }
            run.thread("two") { binder.value.onNext(2) }
            run.expect({ target.value.sorted() == [1, 2] }) { "the target received \(target.value)" }
        },
        ExplorationScenario("asSingle", "a subject sent to from two threads at once", depth: 2, seed: 1007) { run in
            // A source that breaks the grammar so: the single still ends once, failing.
            let subject = PublishSubject<Int>()
            let observer = run.observe(subject.asSingle().asObservable(), as: "single")
            run.thread("one", sends: "1", to: subject)
            run.thread("two", sends: "2", to: subject)
            run.check { subject.onCompleted() }
            run.expectEvents(observer, among: "#")
        },
        ExplorationScenario("asSingle", "a subject's completion against an element sent at once", depth: 2, seed: 1008) { run in
            let subject = PublishSubject<Int>()
            let observer = run.observe(subject.asSingle().asObservable(), as: "single")
            run.thread("one", sends: "1", to: subject)
            run.thread("two", sends: "2 |", to: subject)
            // Two elements before the completion fail it; one after it is dropped.
            run.expectEvents(observer, among: "#", "2 |")
        },
    ]
}
