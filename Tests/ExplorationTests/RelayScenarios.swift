import RivuletTestSupport
import RxRelay
import RxSwift
import RxTest

/// Relays: an accepting thread races a subscriber, or two threads accept at once (the
/// contract lets deliveries overlap then, but every element still reaches every
/// observer exactly once, and a new subscriber misses nothing and sees nothing twice).
enum RelayScenarios {
    static let all: [ExplorationScenario] = [
        ExplorationScenario("PublishRelay", "elements against a subscriber", depth: 2, seed: 701) { run in
            let relay = PublishRelay<Int>()
            run.thread("producer", accepts: 1, 2, into: relay)
            run.expectEvents(run.observeLater(relay), among: "", "2", "1 2")
        },
        ExplorationScenario("PublishRelay", "two threads accepting", seed: 702) { run in
            let relay = PublishRelay<Int>()
            let received = record(relay)
            run.thread("one", accepts: 1, into: relay)
            run.thread("two", accepts: 2, into: relay)
            expect(received, in: run, toBe: [1, 2])
        },
        ExplorationScenario("BehaviorRelay", "elements against a subscriber", seed: 703) { run in
            let relay = BehaviorRelay(value: 0)
            run.thread("producer", accepts: 1, 2, into: relay)
            run.expectEvents(run.observeLater(relay), among: "0 1 2", "1 2", "2")
            run.expect({ relay.value == 2 }) { "the value is \(relay.value)" }
        },
        ExplorationScenario("BehaviorRelay", "two threads accepting against a subscriber", seed: 704) { run in
            let relay = BehaviorRelay(value: 0)
            let early = record(relay)
            run.thread("one", accepts: 1, into: relay)
            run.thread("two", accepts: 2, into: relay)
            let late = LockedBox([Int]())
            run.thread("subscriber") { _ = relay.subscribe(onNext: late.append) }
            expect(early, in: run, toBe: [0, 1, 2])
            run.expect({ [1, 2].contains(relay.value) }) { "the value is \(relay.value)" }
            // The value when it subscribed, then the elements accepted later: none twice.
            run.expect({ late.value.count == Set(late.value).count && Set(late.value).isSuperset(of: [relay.value]) }) {
                "the late subscriber received \(late.value) with the value \(relay.value)"
            }
        },
        ExplorationScenario("ReplayRelay", "elements against a subscriber", seed: 705) { run in
            let relay = ReplayRelay<Int>.create(bufferSize: 2)
            relay.accept(0)
            run.thread("producer", accepts: 1, 2, into: relay)
            run.expectEvents(run.observeLater(relay), among: "0 1 2", "1 2")
        },
        ExplorationScenario("ReplayRelay", "two threads accepting against a subscriber", seed: 706) { run in
            let relay = ReplayRelay<Int>.createUnbound()
            run.thread("one", accepts: 1, into: relay)
            run.thread("two", accepts: 2, into: relay)
            let late = LockedBox([Int]())
            run.thread("subscriber") { _ = relay.subscribe(onNext: late.append) }
            expect(late, in: run, toBe: [1, 2])
        },
    ]

    /// What `relay` delivers to an observer subscribed now, from any thread.
    private static func record<Relay: ObservableType>(_ relay: Relay) -> LockedBox<[Int]> where Relay.Element == Int {
        let received = LockedBox([Int]())
        _ = relay.subscribe(onNext: received.append)
        return received
    }

    /// Checks, once every thread of `run` finished, that `received` holds each of
    /// `elements` exactly once, in any order.
    private static func expect(_ received: LockedBox<[Int]>, in run: ScheduleRun, toBe elements: [Int]) {
        run.expect({ received.value.sorted() == elements.sorted() }) { "received \(received.value), expected each of \(elements) once" }
    }
}

/// A relay of `Int` that a thread of a scenario accepts elements into.
protocol Accepting: Sendable {
    func accept(_ event: Int)
}

extension PublishRelay: Accepting where Element == Int {}
extension BehaviorRelay: Accepting where Element == Int {}
extension ReplayRelay: Accepting where Element == Int {}

extension ScheduleRun {
    /// Starts a thread that accepts `elements` into `relay`, in order.
    func thread(_ name: String, accepts elements: Int..., into relay: some Accepting) {
        thread(name) {
            for element in elements { relay.accept(element) }
        }
    }
}
