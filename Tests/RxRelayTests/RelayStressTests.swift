import Dispatch
import Foundation
import RivuletTestSupport
import RxRelay
import RxSwift
import RxTest
import Testing

// Relays under many threads at once. Relays never end, so what they guarantee is: every
// accepted element reaches every observer subscribed at the time, exactly once; a new
// subscriber gets the relay's state (nothing, the current value, the replay buffer) and
// then every later element with no gap and no repeat; no terminal event ever.

enum RelayKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case publish, behavior, replayOne, replayUnbound

    var testDescription: String { rawValue }

    /// The relay as (accept, observable).
    func make() -> (accept: @Sendable (Int) -> Void, subscribe: @Sendable (GrammarCheckingObserver<Int>) -> Disposable) {
        switch self {
        case .publish:
            let relay = PublishRelay<Int>()
            return ({ relay.accept($0) }, { relay.subscribe($0) })
        case .behavior:
            let relay = BehaviorRelay(value: -1)
            return ({ relay.accept($0) }, { relay.subscribe($0) })
        case .replayOne:
            let relay = ReplayRelay<Int>.create(bufferSize: 1)
            return ({ relay.accept($0) }, { relay.subscribe($0) })
        case .replayUnbound:
            let relay = ReplayRelay<Int>.createUnbound()
            return ({ relay.accept($0) }, { relay.subscribe($0) })
        }
    }
}

@Suite("Stress: relays", .rxLeakCheck)
struct RelayStressTests {
    /// 8 threads × 1,000 accepts, while 4 more threads subscribe and dispose 100 times each.
    @Test("8 threads × 1,000 accepts with 4 threads × 100 subscribe/dispose rounds: the steady observer gets every element once, no one ever ends",
          arguments: RelayKind.allCases)
    func acceptsWithChurn(kind: RelayKind) {
        let relay = kind.make()
        let steady = GrammarCheckingObserver<Int>()
        let steadySubscription = relay.subscribe(steady)
        let churned = LockedBox<[GrammarCheckingObserver<Int>]>([])
        let acceptors = 8, perThread = 1_000
        let finished = runConcurrently(threads: acceptors + 4) { index in
            if index < acceptors {
                for step in 0..<perThread { relay.accept(index * perThread + step) }
            } else {
                for _ in 0..<100 {
                    let observer = GrammarCheckingObserver<Int>()
                    let subscription = relay.subscribe(observer)
                    churned.append(observer)
                    subscription.dispose()
                }
            }
        }
        #expect(finished)
        steadySubscription.dispose()
        relay.accept(-2)
        let values = steady.elements.filter { $0 >= 0 }
        #expect(values.sorted() == Array(0..<(acceptors * perThread)))
        #expect(!steady.elements.contains(-2))
        #expect(steady.terminals == 0)
        for observer in churned.value {
            #expect(observer.terminals == 0)
            #expect(Set(observer.elements).count == observer.elements.count, "\(kind): an element arrived twice")
        }
    }

    /// One thread accepting 20,000 elements in order; 4 threads × 200 subscribe rounds.
    @Test("one thread accepting 20,000 elements in order while 4 threads × 200 rounds subscribe: each observer sees a gapless run after the relay's state",
          arguments: RelayKind.allCases)
    func subscribersSeeNoGap(kind: RelayKind) {
        let relay = kind.make()
        let emitted = 20_000
        let observers = LockedBox<[GrammarCheckingObserver<Int>]>([])
        let stop = LockedBox(false)
        let finished = runConcurrently(threads: 5) { index in
            if index == 0 {
                for value in 0..<emitted { relay.accept(value) }
                stop.value = true
            } else {
                for _ in 0..<200 where !stop.value {
                    let observer = GrammarCheckingObserver<Int>()
                    let subscription = relay.subscribe(observer)
                    // Stay subscribed while a few elements go by.
                    for _ in 0..<20 { sched_yield() }
                    subscription.dispose()
                    observers.append(observer)
                }
            }
        }
        #expect(finished)
        for observer in observers.value {
            let seen = observer.elements
            #expect(observer.terminals == 0)
            guard let first = seen.first else { continue }
            // A replay-all relay starts from the first element ever accepted; a behavior
            // relay starts with its current value (maybe the initial -1); then every
            // element follows without a gap or a repeat.
            if kind == .replayUnbound { #expect(first == 0) }
            #expect(seen == Array(first..<(first + seen.count)), "\(kind): gap or repeat in \(seen.prefix(12))…")
        }
    }

    /// 8 threads × 2,000 accepts, each reading `value` after accepting.
    @Test("BehaviorRelay: 8 threads × 2,000 accepts, each reading value back: always a value that was accepted")
    func behaviorValueUnderContention() {
        let relay = BehaviorRelay(value: -1)
        let outOfRange = LockedBox<[Int]>([])
        let perThread = 2_000
        let finished = runConcurrently(threads: 8) { index in
            for step in 0..<perThread {
                relay.accept(index * perThread + step)
                let value = relay.value
                if value < 0 || value >= 8 * perThread { outOfRange.append(value) }
            }
        }
        #expect(finished)
        #expect(outOfRange.value.isEmpty)
        #expect(relay.value >= 0 && relay.value < 8 * perThread)
    }
}

