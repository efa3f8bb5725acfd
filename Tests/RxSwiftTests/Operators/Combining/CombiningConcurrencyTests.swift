import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import Testing
import RxTest

/// Several threads emitting at once into the combining operators: the observer must see
/// the Rx grammar (no overlapping deliveries, one terminal event, nothing after it), and
/// every wait is bounded so that a deadlock fails instead of hanging.
@Suite("combining operators under concurrent emission", .rxLeakCheck)
struct CombiningConcurrencyTests {
    static let threads = 4
    static let perThread = 2_000

    @Test("combineLatest: serialised deliveries, per-source order kept, one completion")
    func combineLatestConcurrent() {
        let subjects = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let observer = GrammarCheckingObserver<[Int]>()
        let subscription = Observable.combineLatest(subjects).subscribe(observer)
        let finished = runConcurrently(threads: Self.threads) { index in
            for value in 0..<Self.perThread {
                subjects[index].onNext(value)
            }
            subjects[index].onCompleted()
        }
        #expect(finished, "the emitting threads did not finish in time")
        #expect(observer.waitForTerminal(), "no terminal event arrived in time")
        let result = observer.snapshot
        #expect(result.overlaps == 0)
        #expect(result.afterTerminal == 0)
        #expect(result.terminals == 1)
        #expect(result.terminal?.isCompleted == true)
        #expect(!result.elements.isEmpty)
        #expect(result.elements.count <= Self.threads * Self.perThread)
        #expect(result.elements.last == [Int](repeating: Self.perThread - 1, count: Self.threads))
        // Each source's values only grow, so each slot must never go backwards.
        var previous = [Int](repeating: -1, count: Self.threads)
        var ordered = true
        for combination in result.elements {
            for slot in 0..<Self.threads where combination[slot] < previous[slot] {
                ordered = false
            }
            previous = combination
        }
        #expect(ordered, "deliveries were reordered")
        subscription.dispose()
    }

    @Test("combineLatest with a result selector, four fixed sources")
    func combineLatestArityConcurrent() {
        let s = (0..<4).map { _ in PublishSubject<Int>() }
        let observer = GrammarCheckingObserver<Int>()
        let subscription = Observable.combineLatest(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }.subscribe(observer)
        let finished = runConcurrently(threads: 4) { index in
            for value in 0..<Self.perThread {
                s[index].onNext(value)
            }
            s[index].onCompleted()
        }
        #expect(finished)
        #expect(observer.waitForTerminal())
        let result = observer.snapshot
        #expect(result.overlaps == 0)
        #expect(result.afterTerminal == 0)
        #expect(result.terminals == 1)
        #expect(result.elements.last == 4 * (Self.perThread - 1))
        subscription.dispose()
    }

    @Test("zip: every position zipped once, in order, one completion")
    func zipConcurrent() {
        let subjects = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let observer = GrammarCheckingObserver<[Int]>()
        let subscription = Observable.zip(subjects).subscribe(observer)
        let finished = runConcurrently(threads: Self.threads) { index in
            for value in 0..<Self.perThread {
                subjects[index].onNext(value)
            }
            subjects[index].onCompleted()
        }
        #expect(finished)
        #expect(observer.waitForTerminal())
        let result = observer.snapshot
        #expect(result.overlaps == 0)
        #expect(result.afterTerminal == 0)
        #expect(result.terminals == 1)
        // The collection zip may complete as soon as the last position is zipped and all
        // but one source are done; every position must still be there, in order.
        #expect(result.elements.count == Self.perThread)
        #expect(result.elements == (0..<Self.perThread).map { [Int](repeating: $0, count: Self.threads) })
        subscription.dispose()
    }

    @Test("zip of two fixed sources under concurrent emission")
    func zipArityConcurrent() {
        let left = PublishSubject<Int>()
        let right = PublishSubject<String>()
        let observer = GrammarCheckingObserver<String>()
        let subscription = Observable.zip(left, right) { "\($0)-\($1)" }.subscribe(observer)
        let finished = runConcurrently(threads: 2) { index in
            for value in 0..<Self.perThread {
                if index == 0 { left.onNext(value) } else { right.onNext("\(value)") }
            }
            if index == 0 { left.onCompleted() } else { right.onCompleted() }
        }
        #expect(finished)
        #expect(observer.waitForTerminal())
        let result = observer.snapshot
        #expect(result.overlaps == 0)
        #expect(result.terminals == 1)
        #expect(result.elements == (0..<Self.perThread).map { "\($0)-\($0)" })
        subscription.dispose()
    }

    @Test("an error racing with elements is the last thing delivered")
    func errorRace() {
        for _ in 0..<20 {
            let subjects = (0..<3).map { _ in PublishSubject<Int>() }
            let observer = GrammarCheckingObserver<Int>()
            let subscription = Observable.combineLatest(subjects) { $0.reduce(0, +) }.subscribe(observer)
            let finished = runConcurrently(threads: 3) { index in
                for value in 0..<300 {
                    subjects[index].onNext(value)
                    if index == 2 && value == 150 {
                        subjects[index].onError(testError)
                        return
                    }
                }
                subjects[index].onCompleted()
            }
            #expect(finished)
            #expect(observer.waitForTerminal())
            let result = observer.snapshot
            #expect(result.overlaps == 0)
            #expect(result.afterTerminal == 0)
            #expect(result.terminals == 1)
            #expect(result.terminal?.error != nil)
            subscription.dispose()
        }
    }

    // MARK: merge, flatMap, switchLatest

    @Test("merge: every element of every source, per-source order kept, one completion")
    func mergeConcurrent() {
        let subjects = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let observer = GrammarCheckingObserver<Int>()
        let subscription = Observable.merge(subjects.map { $0.asObservable() }).subscribe(observer)
        let finished = runConcurrently(threads: Self.threads) { index in
            for value in 0..<Self.perThread {
                subjects[index].onNext(index * 1_000_000 + value)
            }
            subjects[index].onCompleted()
        }
        #expect(finished)
        #expect(observer.waitForTerminal())
        let result = observer.snapshot
        #expect(result.overlaps == 0)
        #expect(result.afterTerminal == 0)
        #expect(result.terminals == 1)
        #expect(result.terminal?.isCompleted == true)
        #expect(result.elements.count == Self.threads * Self.perThread)
        for source in 0..<Self.threads {
            let own = result.elements.filter { $0 / 1_000_000 == source }.map { $0 % 1_000_000 }
            #expect(own == Array(0..<Self.perThread), "source \(source) reordered or lost elements")
        }
        subscription.dispose()
    }

    @Test("flatMap: inner sequences emitting on a concurrent queue")
    func flatMapOnConcurrentQueue() {
        let count = 500
        let scheduler = ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "flatMap.inner", attributes: .concurrent))
        let observer = GrammarCheckingObserver<Int>()
        let subscription = Observable.range(start: 0, count: count)
            .flatMap { value in Observable.of(value, value + 100_000).subscribe(on: scheduler) }
            .subscribe(observer)
        #expect(observer.waitForTerminal(seconds: 20))
        let result = observer.snapshot
        #expect(result.overlaps == 0)
        #expect(result.afterTerminal == 0)
        #expect(result.terminals == 1)
        #expect(result.terminal?.isCompleted == true)
        #expect(result.elements.sorted() == (0..<count).flatMap { [$0, $0 + 100_000] }.sorted())
        subscription.dispose()
    }

    @Test("flatMap: inner subjects driven from several threads")
    func flatMapConcurrentInners() {
        let subjects = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let observer = GrammarCheckingObserver<Int>()
        let subscription = Observable.from(subjects).flatMap { $0 }.subscribe(observer)
        let finished = runConcurrently(threads: Self.threads) { index in
            for value in 0..<Self.perThread {
                subjects[index].onNext(value)
            }
            if index == 0 {
                subjects[index].onError(testError)
            } else {
                subjects[index].onCompleted()
            }
        }
        #expect(finished)
        #expect(observer.waitForTerminal())
        let result = observer.snapshot
        #expect(result.overlaps == 0)
        #expect(result.afterTerminal == 0)
        #expect(result.terminals == 1)
        #expect(result.terminal?.error != nil)
        subscription.dispose()
    }

    @Test("merge(maxConcurrent:) never runs more inner sequences than allowed")
    func mergeLimitedConcurrent() {
        let limit = 2
        let count = 200
        let scheduler = ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "merge.limited", attributes: .concurrent))
        let gauge = LockedState((active: 0, maximum: 0))
        // An inner sequence runs from its subscription to its completion, which is what
        // lets merge subscribe the next one, on another thread of the queue: the count
        // goes down before `onCompleted`. (Counted down by the disposable `create`
        // returns, after `onCompleted`, the next one could count up first: a maximum of 3
        // once in a full run on a loaded 2-core machine.)
        let inners = (0..<count).map { value in
            Observable<Int>.create { observer in
                gauge.withLock { $0.active += 1; $0.maximum = max($0.maximum, $0.active) }
                observer.onNext(value)
                gauge.withLock { $0.active -= 1 }
                observer.onCompleted()
                return Disposables.create()
            }.subscribe(on: scheduler)
        }
        let observer = GrammarCheckingObserver<Int>()
        let subscription = Observable.from(inners).merge(maxConcurrent: limit).subscribe(observer)
        #expect(observer.waitForTerminal(seconds: 20))
        let result = observer.snapshot
        #expect(result.overlaps == 0)
        #expect(result.terminals == 1)
        #expect(result.terminal?.isCompleted == true)
        #expect(result.elements.sorted() == Array(0..<count))
        #expect(gauge.current.maximum <= limit)
        #expect(gauge.current.maximum >= 1)
        subscription.dispose()
    }

    @Test("switchLatest: stale inner sequences racing with the latest one")
    func switchLatestConcurrent() {
        let inners = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let outer = PublishSubject<Observable<Int>>()
        let observer = GrammarCheckingObserver<Int>()
        let subscription = outer.switchLatest().subscribe(observer)
        outer.onNext(inners[0])
        // Every inner emits from its own thread while the outer switches to the last one.
        let finished = runConcurrently(threads: Self.threads + 1) { index in
            if index == Self.threads {
                for next in 1..<Self.threads { outer.onNext(inners[next]) }
                return
            }
            for value in 0..<Self.perThread {
                inners[index].onNext(index * 1_000_000 + value)
            }
        }
        #expect(finished)
        // Now only the latest inner is heard; it completes, then the outer does.
        let last = Self.threads - 1
        inners[last].onNext(last * 1_000_000 + Self.perThread)
        inners[last].onCompleted()
        outer.onCompleted()
        #expect(observer.waitForTerminal())
        let result = observer.snapshot
        #expect(result.overlaps == 0)
        #expect(result.afterTerminal == 0)
        #expect(result.terminals == 1)
        #expect(result.terminal?.isCompleted == true)
        #expect(result.elements.last == last * 1_000_000 + Self.perThread)
        // Each inner's elements arrive in order, and once a newer inner was heard, no
        // element of an older one follows.
        var newestHeard = -1
        var ordered = true
        var previousOfSource = [Int](repeating: -1, count: Self.threads)
        for element in result.elements {
            let source = element / 1_000_000
            if source < newestHeard || element % 1_000_000 <= previousOfSource[source] { ordered = false }
            newestHeard = max(newestHeard, source)
            previousOfSource[source] = element % 1_000_000
        }
        #expect(ordered)
        subscription.dispose()
    }
}
