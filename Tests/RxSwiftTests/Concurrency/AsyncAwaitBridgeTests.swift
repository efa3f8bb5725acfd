import Dispatch
import Foundation
import RivuletTestSupport
import RxSwift
import RxTest
import Testing

/// Iterates `stream` with `for try await`, passing each element to `onElement`, and
/// says how the loop ended and after which elements: "ended after [1, 2]",
/// "cancelled after [1]" (it threw `CancellationError`) or "failed after [] with …".
private func loopOutcome(_ stream: AsyncThrowingStream<Int, Error>, onElement: (Int) -> Void = { _ in }) async -> String {
    var elements: [Int] = []
    do {
        for try await element in stream {
            elements.append(element)
            onElement(element)
        }
        return "ended after \(elements)"
    } catch is CancellationError {
        return "cancelled after \(elements)"
    } catch {
        return "failed after \(elements) with \(error)"
    }
}

@Suite("async/await bridges", .rxLeakCheck)
struct AsyncAwaitBridgeTests {
    @Test("values yields every element and finishes")
    func valuesCompletes() async throws {
        let collected = try await runBounded {
            var values: [Int] = []
            for try await value in Observable.of(1, 2, 3).values { values.append(value) }
            return values
        }
        #expect(collected == [1, 2, 3])
    }

    @Test("values throws the sequence's error after its elements")
    func valuesThrows() async throws {
        let outcome = try await runBounded { () -> [String] in
            var log: [String] = []
            do {
                let source = Observable<Int>.create { observer in
                    observer.onNext(1)
                    observer.onError(testError)
                    return Disposables.create()
                }
                for try await value in source.values { log.append("\(value)") }
                log.append("finished")
            } catch is TestError {
                log.append("error")
            }
            return log
        }
        #expect(outcome == ["1", "error"])
    }

    @Test("leaving the loop early disposes the subscription")
    func valuesEarlyExit() async throws {
        let disposed = BooleanDisposable()
        let endless = Observable<Int>.create { observer in
            for value in 0..<10 { observer.onNext(value) }
            return disposed
        }
        let first = try await runBounded { () -> [Int] in
            var values: [Int] = []
            for try await value in endless.values {
                values.append(value)
                if values.count == 3 { break }
            }
            return values
        }
        #expect(first == [0, 1, 2])
        #expect(await eventually { disposed.isDisposed })
    }

    @Test("cancelling the iterating task after some elements disposes the subscription and throws CancellationError")
    func valuesCancellation() async throws {
        let disposed = BooleanDisposable()
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            return disposed
        }
        let received = LockedBox<[Int]>([])
        let consumer = Task {
            await loopOutcome(source.values) { value in received.mutate { $0.append(value) } }
        }
        #expect(await eventually { received.value == [1, 2] })
        consumer.cancel()
        let ending = try await runBounded { await consumer.value }
        #expect(ending == "cancelled after [1, 2]")
        #expect(disposed.isDisposed)
    }

    @Test("a task cancelled before any element throws CancellationError from values")
    func valuesCancelledWithoutEvents() async throws {
        let disposed = BooleanDisposable()
        let subscribed = BooleanDisposable()
        let source = Observable<Int>.create { _ in
            subscribed.dispose()
            return disposed
        }
        let consumer = Task { await loopOutcome(source.values) }
        #expect(await eventually { subscribed.isDisposed })
        consumer.cancel()
        let ending = try await runBounded { await consumer.value }
        #expect(ending == "cancelled after []")
        #expect(disposed.isDisposed)
    }

    @Test("a task already cancelled when it starts iterating throws CancellationError")
    func valuesInsideCancelledTask() async throws {
        let ending = try await runBounded { () -> String in
            withUnsafeCurrentTask { $0?.cancel() }
            return await loopOutcome(Observable<Int>.never().values)
        }
        #expect(ending == "cancelled after []")
    }

    @Test("a sequence that completed before the cancellation ends normally, buffered elements first")
    func valuesCompletedThenCancelled() async throws {
        let ending = try await runBounded { () -> String in
            // Accessing `values` subscribes: both elements and the completion are
            // buffered before the task is cancelled and the loop starts.
            let stream = Observable.of(1, 2).values
            withUnsafeCurrentTask { $0?.cancel() }
            return await loopOutcome(stream)
        }
        #expect(ending == "ended after [1, 2]")
    }

    @Test("several consumers of values at once, elements from other threads")
    func valuesConcurrentConsumers() async throws {
        let source = Observable.range(start: 0, count: 500)
            .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .userInitiated))
        let results = try await runBounded { () -> [[Int]] in
            try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var values: [Int] = []
                        for try await value in source.values { values.append(value) }
                        return values
                    }
                }
                var all: [[Int]] = []
                for try await values in group { all.append(values) }
                return all
            }
        }
        #expect(results.count == 8)
        for values in results { #expect(values == Array(0..<500)) }
    }

    @Test("Infallible.values yields every element and finishes; cancelling disposes")
    func infallibleValues() async throws {
        let collected = try await runBounded {
            var values: [Int] = []
            for await value in Infallible.of(4, 5, 6).values { values.append(value) }
            return values
        }
        #expect(collected == [4, 5, 6])

        let disposed = BooleanDisposable()
        let endless = Infallible<Int>.create { observer in
            observer(.next(1))
            return disposed
        }
        let seen = LockedBox(0)
        let consumer = Task {
            var count = 0
            for await _ in endless.values {
                count += 1
                seen.value = count
            }
            return count
        }
        #expect(await eventually { seen.value == 1 })
        consumer.cancel()
        let count = try await runBounded { await consumer.value }
        #expect(count == 1)
        #expect(await eventually { disposed.isDisposed })
    }

    @Test("Single.value, Maybe.value and Completable.value report the outcome")
    func primitiveValues() async throws {
        #expect(try await runBounded { try await Single.just(1).value } == 1)
        await #expect(throws: TestError.self) {
            try await runBounded { try await Single<Int>.error(testError).value }
        }
        #expect(try await runBounded { try await Maybe.just(2).value } == 2)
        #expect(try await runBounded { try await Maybe<Int>.empty().value } == nil)
        await #expect(throws: TestError.self) {
            try await runBounded { try await Maybe<Int>.error(testError).value }
        }
        try await runBounded { try await Completable.empty().value }
        await #expect(throws: TestError.self) {
            try await runBounded { try await Completable.error(testError).value }
        }
        let background = ConcurrentDispatchQueueScheduler(qos: .default)
        #expect(try await runBounded { try await Single.just(3).subscribe(on: background).value } == 3)
    }

    @Test("cancelling a task awaiting value disposes the subscription and throws CancellationError")
    func valueCancellation() async throws {
        let disposed = BooleanDisposable()
        let subscribed = BooleanDisposable()
        let single = Single<Int>.create { _ in
            subscribed.dispose()
            return disposed
        }
        let waiter = Task { try await single.value }
        #expect(await eventually { subscribed.isDisposed })
        waiter.cancel()
        let outcome = try await runBounded { await waiter.result }
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(disposed.isDisposed)

        let early = Task { () -> Void in
            withUnsafeCurrentTask { $0?.cancel() }
            try await Completable.never().value
        }
        let earlyOutcome = try await runBounded { await early.result }
        #expect(throws: CancellationError.self) { try earlyOutcome.get() }
    }

    @Test("outcome racing cancellation: each wait resumes exactly once")
    func valueRace() async throws {
        let queue = DispatchQueue(label: "race", attributes: .concurrent)
        let outcomes = try await runBounded(seconds: 20) { () -> [String] in
            try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<300 {
                    let single = Single<Int>.create { observer in
                        nonisolated(unsafe) let deliver = observer
                        queue.async { deliver(.success(index)) }
                        return Disposables.create()
                    }
                    let waiter = Task { try await single.value }
                    group.addTask {
                        if index % 2 == 0 { waiter.cancel() }
                        switch await waiter.result {
                        case .success(let value): return value == index ? "value" : "wrong"
                        case .failure(let error): return error is CancellationError ? "cancelled" : "other"
                        }
                    }
                }
                var all: [String] = []
                for try await outcome in group { all.append(outcome) }
                return all
            }
        }
        #expect(outcomes.count == 300)
        #expect(outcomes.allSatisfy { $0 == "value" || $0 == "cancelled" })
        #expect(outcomes.filter { $0 == "value" }.count >= 150)
    }

    @Test("many tasks awaiting the same single at once")
    func valueConcurrentAwaiters() async throws {
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        let single = subject.take(1).asSingle()
        let values = try await runBounded { () -> [Int] in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 { group.addTask { try await single.value } }
                DispatchQueue.global().async { subject.onNext(42) }
                var all: [Int] = []
                for try await value in group { all.append(value) }
                return all
            }
        }
        #expect(values == Array(repeating: 42, count: 50))
    }

    @Test("Single.create with async work: success and failure")
    func singleCreateAsync() async throws {
        #expect(try await runBounded { try await Single<Int>.create(work: { 5 }).value } == 5)
        await #expect(throws: TestError.self) {
            try await runBounded { try await Single<Int>.create(work: { throw testError }).value }
        }
        #expect(try await runBounded { try await Single<Int>.create(detached: true, priority: .high, work: { 6 }).value } == 6)
    }

    @Test("Single.create with async work: disposing cancels the work, and nothing is delivered after")
    func singleCreateAsyncDisposal() async throws {
        // In virtual time the work's task runs on the scheduler's executor, so advancing
        // waits until it has done all it can: no quiet period to guess.
        try await withVirtualTime { scheduler in
            let started = BooleanDisposable()
            let cancelled = BooleanDisposable()
            let slow = Single<Int>.create(work: {
                started.dispose()
                do {
                    try await suspendUntilCancelled()
                } catch {
                    cancelled.dispose()
                    throw error
                }
                return 1
            })
            let received = LockedBox<[String]>([])
            let subscription = slow.subscribe(onSuccess: { _ in received.mutate { $0.append("success") } },
                                              onFailure: { _ in received.mutate { $0.append("failure") } })
            await scheduler.advance(byTicks: 0)
            #expect(started.isDisposed)
            #expect(!cancelled.isDisposed)
            subscription.dispose()
            await scheduler.advance(byTicks: 0)
            #expect(cancelled.isDisposed)
            #expect(received.value == [])
        }
    }

    // The blocking helpers of RxBlocking would hold a thread of the cooperative pool
    // the tasks under test need, so these tests await `values` instead.
    @Test("Observable.create with async work emits, completes and fails")
    func observableCreateAsync() async throws {
        let values = try await runBounded {
            try await Observable<Int>.create(work: { observer in
                for value in 1...3 { observer(value) }
            }).toArray().value
        }
        #expect(values == [1, 2, 3])
        await #expect(throws: TestError.self) {
            try await runBounded {
                try await Observable<Int>.create(work: { observer in
                    observer(1)
                    throw testError
                }).toArray().value
            }
        }
    }

    @Test("AsyncSequence.asObservable emits, fails, and cancels on disposal")
    func asyncSequenceAsObservable() async throws {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        #expect(try await runBounded { try await stream.asObservable().toArray().value } == [1, 2, 3])

        let failing = AsyncThrowingStream<Int, Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: testError)
        }
        let log = try await runBounded { () -> [String] in
            var log: [String] = []
            do {
                for try await value in failing.asObservable().values { log.append("\(value)") }
            } catch is TestError {
                log.append("error")
            }
            return log
        }
        #expect(log == ["1", "error"])

        let terminated = BooleanDisposable()
        let endless = AsyncStream<Int> { continuation in
            continuation.onTermination = { _ in terminated.dispose() }
            continuation.yield(7)
        }
        let received = LockedBox<[Int]>([])
        let completed = BooleanDisposable()
        let subscription = endless.asObservable().subscribe(
            onNext: { value in received.mutate { $0.append(value) } },
            onCompleted: { completed.dispose() }
        )
        #expect(await eventually { received.value == [7] })
        subscription.dispose()
        #expect(await eventually { terminated.isDisposed })
    }
}
