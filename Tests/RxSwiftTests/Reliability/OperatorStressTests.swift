import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

// Stress for the stateful operators as a table: each case is one operator (or a short
// chain around it) over a few PublishSubjects, and two tests run every case:
//
// - `disposeRacingEmission`: four threads emit into the sources while a fifth disposes
//   the subscription part-way. The observer must see the grammar (no overlapping
//   deliveries, at most one terminal event, nothing after it); once the subscription is
//   disposed every source must have lost its observers, and once the work still queued
//   on the scheduler has run or been cancelled (`SettlingScheduler` counts it), further
//   emissions (and timers) must deliver nothing.
// - `everyElementDelivered` (the cases where RxSwift guarantees delivery): four threads
//   emit disjoint values and complete their source; the observer receives every value
//   exactly once, then one completion.
//
// Both also check that no delivery is made while the delivering thread holds one of
// Rivulet's locks (debug builds count them per thread, see `LockDiagnostics`).
//
// Sizes: `emitters` threads × `perThread` elements per iteration; `iterations` rounds
// per case for the dispose race. All waits are bounded: a deadlock fails the test.

private let emitters = 4
private let perThread = 100
private let iterations = 30

/// One operator under stress: `build` wires it to the given sources (they are
/// PublishSubjects, `sources` of them) with `scheduler` for the time-based ones.
struct StressCase: CustomTestStringConvertible, Sendable {
    let name: String
    let sources: Int
    /// RxSwift delivers every element of every source once all have completed.
    let lossless: Bool
    let build: @Sendable (_ sources: [PublishSubject<Int>], _ scheduler: SettlingScheduler) -> Observable<Int>

    var testDescription: String { name }

    init(_ name: String, sources: Int = emitters, lossless: Bool = false,
         _ build: @escaping @Sendable (_ sources: [PublishSubject<Int>], _ scheduler: SettlingScheduler) -> Observable<Int>) {
        self.name = name
        self.sources = sources
        self.lossless = lossless
        self.build = build
    }

    static let all: [StressCase] = [
        StressCase("merge", lossless: true) { s, _ in Observable.merge(s.map { $0.asObservable() }) },
        StressCase("merge(maxConcurrent: 2)") { s, _ in
            Observable.from(s.map { $0.asObservable() }).merge(maxConcurrent: 2)
        },
        StressCase("flatMap over inner subjects", lossless: true) { s, _ in
            Observable.from(Array(s.indices)).flatMap { s[$0] }
        },
        StressCase("flatMap with inner subscriptions made while others emit") { s, _ in
            s[0].flatMap { value in value % 25 == 0 ? s[1 + value % 3].asObservable() : .just(value) }
        },
        StressCase("concatMap with asynchronous inner sequences", lossless: true) { s, scheduler in
            Observable.merge(s.map { $0.asObservable() }).concatMap { Observable.just($0).observe(on: scheduler) }
        },
        StressCase("flatMapLatest") { s, _ in
            s[0].flatMapLatest { value in value % 2 == 0 ? s[1].asObservable() : s[2].asObservable() }
        },
        StressCase("flatMapFirst") { s, _ in s[0].flatMapFirst { _ in s[1].take(5) } },
        StressCase("switchLatest") { s, _ in
            s[0].map { value in value % 3 == 0 ? s[1].asObservable() : s[2 + value % 2].asObservable() }.switchLatest()
        },
        StressCase("concat") { s, _ in Observable.concat(s[0].take(20), s[1].asObservable(), s[2].asObservable()) },
        StressCase("combineLatest") { s, _ in Observable.combineLatest(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 } },
        StressCase("zip") { s, _ in Observable.zip(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 } },
        StressCase("withLatestFrom") { s, _ in
            Observable.merge(s[0].asObservable(), s[1].asObservable()).withLatestFrom(Observable.merge(s[2].asObservable(), s[3].asObservable())) { $0 + $1 }
        },
        StressCase("amb") { s, _ in s[0].amb(s[1]).amb(s[2]) },
        StressCase("sample") { s, _ in
            Observable.merge(s[0].asObservable(), s[1].asObservable()).sample(Observable.merge(s[2].asObservable(), s[3].asObservable()))
        },
        StressCase("take(until:)") { s, _ in
            Observable.merge(s[0].asObservable(), s[1].asObservable(), s[2].asObservable()).take(until: s[3].filter { $0 > 3 * perThread + 80 })
        },
        StressCase("skip(until:)") { s, _ in
            Observable.merge(s[0].asObservable(), s[1].asObservable(), s[2].asObservable()).skip(until: s[3])
        },
        StressCase("share() with two observers", lossless: true) { s, _ in
            let shared = Observable.merge(s.map { $0.asObservable() }).share()
            return Observable.merge(shared.filter { $0 % 2 == 0 }, shared.filter { $0 % 2 != 0 })
        },
        StressCase("share(replay: 1, scope: .forever) with two observers", lossless: true) { s, _ in
            let shared = Observable.merge(s.map { $0.asObservable() }).share(replay: 1, scope: .forever)
            return Observable.merge(shared.filter { $0 % 2 == 0 }, shared.filter { $0 % 2 != 0 })
        },
        StressCase("replay(2).refCount() with two observers", lossless: true) { s, _ in
            let shared = Observable.merge(s.map { $0.asObservable() }).replay(2).refCount()
            return Observable.merge(shared.filter { $0 % 2 == 0 }, shared.filter { $0 % 2 != 0 })
        },
        StressCase("publish().refCount() with two observers", lossless: true) { s, _ in
            let shared = Observable.merge(s.map { $0.asObservable() }).publish().refCount()
            return Observable.merge(shared.filter { $0 % 2 == 0 }, shared.filter { $0 % 2 != 0 })
        },
        StressCase("groupBy, every group merged", lossless: true) { s, _ in
            Observable.merge(s.map { $0.asObservable() }).groupBy { $0 % 5 }.flatMap { $0.asObservable() }
        },
        StressCase("buffer(timeSpan:count:)", lossless: true) { s, scheduler in
            Observable.merge(s.map { $0.asObservable() })
                .buffer(timeSpan: .microseconds(300), count: 7, scheduler: scheduler)
                .flatMap { Observable.from($0) }
        },
        StressCase("window(timeSpan:count:)", lossless: true) { s, scheduler in
            Observable.merge(s.map { $0.asObservable() })
                .window(timeSpan: .microseconds(300), count: 7, scheduler: scheduler)
                .flatMap { $0 }
        },
        StressCase("throttle(latest: true)") { s, scheduler in
            Observable.merge(s.map { $0.asObservable() }).throttle(.microseconds(200), latest: true, scheduler: scheduler)
        },
        StressCase("throttle(latest: false)") { s, scheduler in
            Observable.merge(s.map { $0.asObservable() }).throttle(.microseconds(200), latest: false, scheduler: scheduler)
        },
        StressCase("debounce") { s, scheduler in
            Observable.merge(s.map { $0.asObservable() }).debounce(.microseconds(200), scheduler: scheduler)
        },
        StressCase("timeout") { s, scheduler in
            Observable.merge(s.map { $0.asObservable() }).timeout(.milliseconds(2), scheduler: scheduler)
        },
        StressCase("timeout(other:)") { s, scheduler in
            Observable.merge(s[0].asObservable(), s[1].asObservable(), s[2].asObservable())
                .timeout(.milliseconds(2), other: s[3], scheduler: scheduler)
        },
        StressCase("delay", lossless: true) { s, scheduler in
            Observable.merge(s.map { $0.asObservable() }).delay(.microseconds(100), scheduler: scheduler)
        },
        StressCase("observe(on:) a concurrent scheduler", lossless: true) { s, scheduler in
            Observable.merge(s.map { $0.asObservable() }).observe(on: scheduler)
        },
        StressCase("subscribe(on:)") { s, scheduler in
            Observable.merge(s.map { $0.asObservable() }).subscribe(on: scheduler)
        },
    ]
}

@Suite("Stress: stateful operators, emission racing disposal and completion", .rxLeakCheck)
struct OperatorStressTests {
    /// 30 iterations × (4 threads × 100 elements, plus one thread disposing).
    @Test("4 emitting threads × 100 elements, a fifth disposing, 30 iterations: grammar kept, sources released, nothing after disposal",
          arguments: StressCase.all)
    func disposeRacingEmission(_ stress: StressCase) {
        let scheduler = SettlingScheduler(ConcurrentDispatchQueueScheduler(qos: .default))
        var runs: [(sources: [PublishSubject<Int>], observer: GrammarCheckingObserver<Int>)] = []
        for iteration in 0..<iterations {
            let sources = (0..<stress.sources).map { _ in PublishSubject<Int>() }
            let observer = GrammarCheckingObserver<Int>()
            let subscription = UnsafeTransfer(stress.build(sources, scheduler).subscribe(observer))
            // The disposing thread waits until the emitters have sent a number of
            // elements that differs per iteration, so that disposal lands at different
            // points of the emission.
            let disposeAfter = iteration * 13 % (emitters * perThread)
            let emitted = LockedBox(0)
            let finished = runConcurrently(threads: emitters + 1, seconds: 30) { index in
                if index == emitters {
                    let deadline = Date().addingTimeInterval(5)
                    while emitted.value < disposeAfter, Date() < deadline {
                        sched_yield()
                    }
                    subscription.value.dispose()
                } else {
                    let source = sources[index % sources.count]
                    for step in 0..<perThread {
                        source.onNext(index * perThread + step)
                        emitted.mutate { $0 += 1 }
                    }
                }
            }
            #expect(finished, "\(stress.name): threads did not finish in time")
            // Disposal releases every source, at once or (subscribe(on:)) on the scheduler.
            #expect(eventually { sources.allSatisfy { !$0.hasObservers } },
                    "\(stress.name): a source still has observers after disposal")
            runs.append((sources, observer))
        }
        // Every source has lost its observers and every emitting thread has returned, so
        // only work on the scheduler can still deliver: wait until none is left.
        #expect(scheduler.settles(), "\(stress.name): \(scheduler.outstandingWork) scheduled actions or timers still pending after disposal")
        let counts = runs.map { $0.observer.elements.count }
        for run in runs {
            for source in run.sources {
                source.onNext(-1)
                source.onCompleted()
            }
        }
        #expect(scheduler.settles(), "\(stress.name): \(scheduler.outstandingWork) scheduled actions or timers still pending")
        for (index, run) in runs.enumerated() {
            let seen = run.observer.snapshot
            #expect(seen.overlaps == 0, "\(stress.name): overlapping deliveries")
            #expect(run.observer.deliveriesUnderLock == 0, "\(stress.name): delivered while holding a lock")
            #expect(seen.terminals <= 1, "\(stress.name): more than one terminal event")
            #expect(seen.afterTerminal == 0, "\(stress.name): events after the terminal event")
            #expect(seen.elements.count == counts[index], "\(stress.name): elements arrived after disposal")
            #expect(!seen.elements.contains(-1), "\(stress.name): an element emitted after disposal arrived")
            if case .error(let error)? = seen.terminal {
                // Only timeout ends with an error here, and only with its own.
                #expect(stress.name.hasPrefix("timeout"), "\(stress.name): unexpected error \(error)")
            }
        }
    }

    /// 10 iterations × 4 threads × 100 elements, each thread completing its own source.
    @Test("4 threads × 100 elements then completion, 10 iterations: every element exactly once, then one completion",
          arguments: StressCase.all.filter(\.lossless))
    func everyElementDelivered(_ stress: StressCase) {
        let scheduler = SettlingScheduler(ConcurrentDispatchQueueScheduler(qos: .default))
        for _ in 0..<10 {
            let sources = (0..<stress.sources).map { _ in PublishSubject<Int>() }
            let observer = GrammarCheckingObserver<Int>()
            let subscription = stress.build(sources, scheduler).subscribe(observer)
            let finished = runConcurrently(threads: emitters, seconds: 30) { index in
                let source = sources[index % sources.count]
                for step in 0..<perThread { source.onNext(index * perThread + step) }
                source.onCompleted()
            }
            #expect(finished, "\(stress.name): threads did not finish in time")
            #expect(observer.waitForTerminal(seconds: 20), "\(stress.name): no completion in time")
            let seen = observer.snapshot
            #expect(seen.overlaps == 0, "\(stress.name): overlapping deliveries")
            #expect(observer.deliveriesUnderLock == 0, "\(stress.name): delivered while holding a lock")
            #expect(seen.terminals == 1)
            #expect(seen.terminal?.isCompleted == true, "\(stress.name): ended with \(String(describing: seen.terminal))")
            #expect(seen.afterTerminal == 0)
            #expect(seen.elements.sorted() == Array(0..<(emitters * perThread)),
                    "\(stress.name): \(seen.elements.count) elements instead of \(emitters * perThread), or duplicates")
            subscription.dispose()
            #expect(sources.allSatisfy { !$0.hasObservers })
        }
    }
}

@Suite("Stress: AsyncSubject", .rxLeakCheck)
struct AsyncSubjectStressTests {
    /// 200 iterations × 4 threads (two emitting 50 elements then completing, one failing,
    /// one subscribing late).
    @Test("4 threads racing onNext, onCompleted, onError and a late subscription, 200 iterations: every observer gets the same single ending")
    func terminalRace() {
        for _ in 0..<200 {
            let subject = AsyncSubject<Int>()
            let early = GrammarCheckingObserver<Int>()
            _ = subject.subscribe(early)
            let late = LockedBox<GrammarCheckingObserver<Int>?>(nil)
            let finished = runConcurrently(threads: 4, seconds: 10) { index in
                switch index {
                case 0, 1:
                    for value in 0..<50 { subject.onNext(index * 50 + value) }
                    subject.onCompleted()
                case 2:
                    subject.onError(testError)
                default:
                    let observer = GrammarCheckingObserver<Int>()
                    _ = subject.subscribe(observer)
                    late.value = observer
                }
            }
            #expect(finished)
            #expect(early.waitForTerminal(seconds: 5))
            guard let lateObserver = late.value else {
                Issue.record("the late observer was not subscribed")
                continue
            }
            #expect(lateObserver.waitForTerminal(seconds: 5))
            let after = GrammarCheckingObserver<Int>()
            _ = subject.subscribe(after)
            for observer in [early, lateObserver, after] {
                let seen = observer.snapshot
                #expect(seen.terminals == 1)
                #expect(seen.afterTerminal == 0)
                #expect(seen.elements.count <= 1)
                // Everyone sees the same outcome: one last element and completion, or the error.
                #expect(seen.elements == early.elements)
                #expect(seen.terminal?.isCompleted == early.terminal?.isCompleted)
            }
        }
    }
}

#if DEBUG
@Suite("Lock diagnostics", .rxLeakCheck)
struct LockDiagnosticsTests {
    @Test("debug builds count the locks a thread holds, and the grammar checker sees a delivery made under one")
    func countsHeldLocks() {
        let lock = Lock.make()
        #expect(LockDiagnostics.heldByCurrentThread == 0)
        let observer = GrammarCheckingObserver<Int>()
        lock.withLock {
            #expect(LockDiagnostics.heldByCurrentThread == 1)
            observer.on(.next(1))
        }
        #expect(LockDiagnostics.heldByCurrentThread == 0)
        observer.on(.next(2))
        #expect(observer.deliveriesUnderLock == 1)
        let value = LockedState(0)
        value.withLock { _ in #expect(LockDiagnostics.heldByCurrentThread == 1) }
        #expect(LockDiagnostics.heldByCurrentThread == 0)
    }
}
#endif
