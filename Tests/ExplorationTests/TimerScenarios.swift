import Foundation
import RxSwift
import RxTest

/// The timer operators on a real dispatch scheduler. Under the explorer each timer's
/// callback is a thread of the run (`Interleaving.takesTimer`), so it fires before, between
/// or after the producer's events and a dispose, in every order the strategy reaches,
/// whatever the due time says. What each may deliver is every outcome of those orders.
enum TimerScenarios {
    /// A due time long enough that, without the explorer, the timer would never fire
    /// within the run: what fires is what the explorer chose.
    private static let long = RxTimeInterval.seconds(60)

    /// A producer thread sends `spelled` into a subject through the operator `make`
    /// builds; the observer, named `name`, must receive one of `allowed`. With `disposed`,
    /// a disposer thread disposes the subscription meanwhile; without, every
    /// subscription must have ended.
    private static func expect(
        _ run: ScheduleRun, _ name: String, sends spelled: String, disposed: Bool = false, among allowed: [String],
        _ make: (PublishSubject<Int>) -> Observable<Int>
    ) {
        let source = PublishSubject<Int>()
        let observer = disposed ? run.observe(make(source), as: name, disposedBy: "disposer") : run.observe(make(source), as: name)
        run.thread("producer", sends: spelled, to: source)
        run.expectEvents(observer, among: allowed)
        if !disposed { run.expectEverySubscriptionEnded() }
    }

    static let all: [ExplorationScenario] = [
        ExplorationScenario("debounce", "the timer against the next element and completion", seed: 701) { run in
            expect(run, "debounced", sends: "1 2 |", among: ["1 2 |", "2 |"]) { $0.debounce(long, scheduler: serialQueue()) }
        },
        ExplorationScenario("debounce", "the timer against dispose", seed: 702) { run in
            expect(run, "debounced", sends: "1 2", disposed: true, among: ["", "1", "2", "1 2"]) { $0.debounce(long, scheduler: serialQueue()) }
        },
        ExplorationScenario("throttle (latest)", "the window's end against the next element and completion", seed: 703) { run in
            expect(run, "throttled", sends: "1 2 |", among: ["1 2 |"]) { $0.throttle(long, latest: true, scheduler: serialQueue()) }
        },
        ExplorationScenario("throttle (first)", "the window's end against the next element", seed: 704) { run in
            expect(run, "throttled", sends: "1 2 |", among: ["1 |", "1 2 |"]) { $0.throttle(long, latest: false, scheduler: serialQueue()) }
        },
        ExplorationScenario("delay", "the timers of two elements and completion", seed: 705) { run in
            expect(run, "delayed", sends: "1 2 |", among: ["1 2 |"]) { $0.delay(long, scheduler: serialQueue()) }
        },
        ExplorationScenario("delay", "the timers against dispose", seed: 706) { run in
            expect(run, "delayed", sends: "1 2 |", disposed: true, among: ["", "1", "1 2", "1 2 |"]) { $0.delay(long, scheduler: serialQueue()) }
        },
        ExplorationScenario("timeout", "the timer against the element and completion", seed: 707) { run in
            expect(run, "guarded", sends: "1 |", among: ["1 |", "#", "1 #"]) { $0.timeout(long, scheduler: serialQueue()) }
        },
        ExplorationScenario("buffer (time and count)", "the period against the elements", seed: 708) { run in
            let source = PublishSubject<Int>()
            let observer = run.observe(source.buffer(timeSpan: long, count: 2, scheduler: serialQueue()), as: "buffers")
            run.thread("producer", sends: "1 2 3 |", to: source)
            run.expect({
                let buffers = observer.elements
                return buffers.joined().elementsEqual([1, 2, 3]) && buffers.allSatisfy { $0.count <= 2 }
                    && observer.events.last?.isCompleted == true
            }) { "buffer delivered \(observer.events)" }
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("window (time and count)", "the period against the elements", seed: 709) { run in
            let source = PublishSubject<Int>()
            let windows = source.window(timeSpan: long, count: 2, scheduler: serialQueue()).flatMap { $0 }
            let observer = run.observe(windows, as: "windowed")
            run.thread("producer", sends: "1 2 3 |", to: source)
            run.expectEvents(observer, among: "1 2 3 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("take(for:)", "the end of the duration against the elements", seed: 710) { run in
            expect(run, "taken", sends: "1 2 |", among: ["|", "1 |", "1 2 |"]) { $0.take(for: long, scheduler: serialQueue()) }
        },
        ExplorationScenario("skip(_:scheduler:)", "the end of the duration against the elements", seed: 711) { run in
            expect(run, "skipped", sends: "1 2 |", among: ["|", "2 |", "1 2 |"]) { $0.skip(long, scheduler: serialQueue()) }
        },
        ExplorationScenario("interval", "three ticks against take(3)'s disposal", seed: 712) { run in
            let ticks = Observable<Int>.interval(.milliseconds(1), scheduler: serialQueue()).take(3)
            let observer = run.observe(ticks, as: "ticks")
            run.expectEvents(observer, among: "0 1 2 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("interval", "the ticks against dispose", seed: 713) { run in
            let ticks = Observable<Int>.interval(.milliseconds(1), scheduler: serialQueue())
            let observer = run.observe(ticks, as: "ticks", disposedBy: "disposer")
            run.expect({ observer.elements == Array(0..<observer.elements.count) && observer.events.allSatisfy { !$0.isStopEvent } }) {
                "interval delivered \(observer.events)"
            }
        },
        ExplorationScenario("timer", "the timer against dispose", seed: 714) { run in
            let observer = run.observe(Observable<Int>.timer(long, scheduler: serialQueue()), as: "timer", disposedBy: "disposer")
            run.expectEvents(observer, among: "", "0", "0 |")
        },
        // Random choices: a lost timer needs the dispose to stop between its read of the
        // slot and its write exactly while the producer stores a timer, or the reverse.
        ExplorationScenario(part: "debounce", race: "a timer stored against dispose", strategy: .random(seed: 715), schedules: ExplorationScenario.fullRun) { run in
            let scheduler = WatchedScheduler(serialQueue())
            expect(run, "debounced", sends: "1 2", disposed: true, among: ["", "1", "2", "1 2"]) { $0.debounce(long, scheduler: scheduler) }
            scheduler.expectEveryDisposal(of: .timer, in: run)
        },
        // window's timer is disposed with the group its windows keep, in a section of its
        // own: each element (count 1) opens a window whose timer the producer stores.
        ExplorationScenario(part: "window (time and count)", race: "a timer stored against dispose", strategy: .random(seed: 716), schedules: ExplorationScenario.fullRun) { run in
            let scheduler = WatchedScheduler(serialQueue())
            expect(run, "windowed", sends: "1 2", disposed: true, among: ["", "1", "1 2"]) {
                $0.window(timeSpan: long, count: 1, scheduler: scheduler).flatMap { $0 }
            }
            scheduler.expectEveryDisposal(of: .timer, in: run)
        },
    ]
}
