import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import Testing
import RxTest

// Concurrency stress for subjects and stateful operators: many threads at once
// (emitting, subscribing, disposing), checking the Rx grammar on every observer (no
// overlapping deliveries, one terminal event, nothing after it), the order and
// completeness of what RxSwift guarantees to deliver, and that every wait is bounded.
// Sizes are kept so that each test takes a few seconds at most on two cores.

private let threads = 8

/// Elements emitted by one thread in order, and checked per observer: each observer
/// must see a strictly increasing run of them with no duplicates.
private func isStrictlyIncreasing(_ values: [Int]) -> Bool {
    zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
}

private func describeTerminal(_ event: Event<Int>?) -> String {
    switch event {
    case .completed?: return "completed"
    case .error(let error)?:
        if let rxError = error as? RxError, case .disposed = rxError { return "disposed" }
        return "error \(error)"
    case .next?, nil: return "none"
    }
}

/// Waits until everything `scheduler` had queued has run: a scheduled signal runs after it.
private func drain(_ scheduler: ImmediateSchedulerType) -> Bool {
    let done = DispatchSemaphore(value: 0)
    _ = scheduler.schedule(()) { _ in
        done.signal()
        return Disposables.create()
    }
    return done.wait(timeout: .now() + 10) == .success
}

@Suite("Stress: subjects and relays", .rxLeakCheck)
struct SubjectStressTests {
    @Test("one thread emits while eight threads subscribe and dispose: every observer sees an increasing run with the grammar kept",
          arguments: SubjectKind.allCases)
    func subscribeDisposeChurn(kind: SubjectKind) {
        let subject = kind.make(initial: -1)
        let emitted = 20_000
        let rounds = 200
        let observers = LockedBox<[GrammarCheckingObserver<Int>]>([])
        let emitter = UnsafeTransfer(subject.observer)
        let source = UnsafeTransfer(subject.observable)
        let stop = LockedBox(false)
        let emitterDone = DispatchSemaphore(value: 0)
        Thread {
            for value in 0..<emitted { emitter.value.onNext(value) }
            stop.value = true
            emitterDone.signal()
        }.start()
        let finished = runConcurrently(threads: threads) { _ in
            for _ in 0..<rounds {
                let observer = GrammarCheckingObserver<Int>()
                let subscription = source.value.subscribe(observer)
                observers.mutate { $0.append(observer) }
                subscription.dispose()
                if stop.value { break }
            }
        }
        #expect(finished)
        #expect(emitterDone.wait(timeout: .now() + 30) == .success)
        // A last observer that stays: it must see the completion exactly once.
        let last = GrammarCheckingObserver<Int>()
        _ = source.value.subscribe(last)
        emitter.value.onCompleted()
        #expect(last.waitForTerminal(seconds: 5))
        for observer in observers.value + [last] {
            let seen = observer.snapshot
            #expect(seen.overlaps == 0)
            #expect(seen.afterTerminal == 0)
            #expect(seen.terminals <= 1)
            #expect(isStrictlyIncreasing(seen.elements), "\(kind): out of order or duplicated: \(seen.elements.prefix(20))")
        }
        #expect(last.terminals == 1)
    }

    @Test("threads racing onNext, onCompleted, onError and dispose: each observer ends at most once and sees nothing after",
          arguments: SubjectKind.allCases)
    func terminalRace(kind: SubjectKind) {
        let iterations = 300
        for _ in 0..<iterations {
            let subject = kind.make(initial: -1)
            let observer = GrammarCheckingObserver<Int>()
            let subscription = UnsafeTransfer(subject.observable.subscribe(observer))
            let emitter = UnsafeTransfer(subject.observer)
            let finished = runConcurrently(threads: 4, seconds: 10) { index in
                switch index {
                case 0: for value in 0..<20 { emitter.value.onNext(value) }
                case 1: emitter.value.onCompleted()
                case 2: emitter.value.onError(testError)
                default: subscription.value.dispose()
                }
            }
            #expect(finished)
            let seen = observer.snapshot
            // Observers of a subject are called on the emitting threads, so with
            // concurrent emitters an element may still reach an observer next to or
            // after the terminal event (RxSwift leaves serialising emitters to the
            // caller). What the subject guarantees: one terminal event at most, nothing
            // delivered twice, and a later subscriber told the same ending.
            #expect(seen.terminals <= 1)
            #expect(Set(seen.elements).count == seen.elements.count)
            let late = GrammarCheckingObserver<Int>()
            _ = subject.observable.subscribe(late)
            if let terminal = seen.terminal, late.terminal != nil {
                #expect(describeTerminal(late.terminal) == describeTerminal(terminal) || describeTerminal(late.terminal) == "disposed")
            }
        }
    }

    @Test("a behavior subject's value under concurrent onNext is always one of the values sent")
    func behaviorValueUnderContention() throws {
        let subject = BehaviorSubject(value: -1)
        let perThread = 2_000
        let transfer = UnsafeTransfer(subject)
        let bad = LockedBox(0)
        let finished = runConcurrently(threads: threads) { index in
            for step in 0..<perThread {
                transfer.value.onNext(index * perThread + step)
                if let value = try? transfer.value.value(), value < -1 || value >= threads * perThread {
                    bad.mutate { $0 += 1 }
                }
            }
        }
        #expect(finished)
        #expect(bad.value == 0)
        let final = try subject.value()
        #expect(final >= 0 && final < threads * perThread)
    }
}

@Suite("Stress: observe(on:)", .rxLeakCheck)
struct ObserveOnStressTests {
    @Test("elements from eight threads, serialised by the caller, arrive once each, in emission order, one at a time",
          arguments: [false, true])
    func serialisedSourceManyThreads(concurrentScheduler: Bool) {
        let scheduler: ImmediateSchedulerType = concurrentScheduler
            ? ConcurrentDispatchQueueScheduler(qos: .default)
            : SerialDispatchQueueScheduler(qos: .default)
        let subject = PublishSubject<Int>()
        let observer = GrammarCheckingObserver<Int>()
        let subscription = subject.observe(on: scheduler).subscribe(observer)
        let perThread = 2_000
        // The Rx grammar asks the caller to serialise: a lock around onNext, taken by
        // eight threads at once; `order` is the order in which they got through.
        let gate = LockedBox<[Int]>([])
        let transfer = UnsafeTransfer(subject)
        let finished = runConcurrently(threads: threads) { index in
            for step in 0..<perThread {
                gate.mutate { order in
                    let value = index * perThread + step
                    order.append(value)
                    transfer.value.onNext(value)
                }
            }
        }
        #expect(finished)
        subject.onCompleted()
        #expect(observer.waitForTerminal(seconds: 20))
        let seen = observer.snapshot
        #expect(seen.overlaps == 0)
        #expect(seen.terminals == 1)
        #expect(seen.afterTerminal == 0)
        #expect(seen.elements == gate.value)
        subscription.dispose()
    }

    @Test("disposing from another thread while elements are in flight: nothing arrives once the queue has drained")
    func disposeWhileInFlight() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on-stress")
        for _ in 0..<50 {
            let subject = PublishSubject<Int>()
            let observer = GrammarCheckingObserver<Int>()
            let subscription = UnsafeTransfer(subject.observe(on: scheduler).subscribe(observer))
            let transfer = UnsafeTransfer(subject)
            let finished = runConcurrently(threads: 2, seconds: 10) { index in
                if index == 0 {
                    for value in 0..<500 { transfer.value.onNext(value) }
                } else {
                    subscription.value.dispose()
                }
            }
            #expect(finished)
            // Let whatever was already queued on the scheduler run.
            #expect(drain(scheduler))
            let count = observer.elements.count
            subject.onNext(1_000)
            subject.onCompleted()
            #expect(drain(scheduler))
            #expect(drain(scheduler))
            #expect(observer.elements.count == count)
            #expect(observer.terminals == 0)
            #expect(observer.overlaps == 0)
            #expect(isStrictlyIncreasing(observer.elements))
        }
    }
}
