import Dispatch
import Foundation
import RxBlocking
import RxSwift

// MARK: - 20. A blocking call on an asynchronous source

/// Where a blocking call waits: on the main thread (where XCTest runs a test on Linux,
/// and where RxBlocking serves the main run loop while it waits) or on a thread of its own.
enum BlockingCaller: String {
    case mainThread = "main thread"
    case otherThread = "another thread"

    /// Runs `body` on this caller's thread and returns what it returned.
    func run<T>(_ scenario: String, _ implementation: String, _ body: @escaping @Sendable () -> T) -> T {
        switch self {
        case .mainThread:
            precondition(Thread.isMainThread, "rivulet-bench: the main-thread blocking row must run on the main thread")
            return body()
        case .otherThread:
            let result = UncheckedBox<T?>(nil)
            runOnThreads([{ result.value = body() }], scenario: scenario, implementation: implementation)
            return result.value!
        }
    }
}

/// A value handed between threads whose hand-off something else orders (a thread's end).
final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A source that sends `value` and completes on a queue's thread, stamping the
/// monotonic time just before its completion (the moment a blocking `last()` can end).
func stampedSource(_ value: Int, on scheduler: ImmediateSchedulerType, stamp: UncheckedBox<UInt64>) -> Observable<Int> {
    Observable<Int>.create { observer in
        observer.onNext(value)
        stamp.value = monotonicNanoseconds()
        observer.onCompleted()
        return Disposables.create()
    }
    .subscribe(on: scheduler)
}

/// Rivulet's blocking call: `last()` of `stampedSource(value, ...)`, or -1 if it failed.
func rivuletBlockingCall(_ value: Int, on scheduler: ImmediateSchedulerType, stamp: UncheckedBox<UInt64>) -> Int {
    (try? stampedSource(value, on: scheduler, stamp: stamp).toBlocking().last()) ?? -1
}

/// The floor's hand-off: one `async` to a global queue, where the value is computed,
/// and a semaphore the caller waits on.
func floorBlockingCall(_ value: Int, stamp: UncheckedBox<UInt64>) -> Int {
    let done = DispatchSemaphore(value: 0)
    let result = UncheckedBox(0)
    DispatchQueue.global().async {
        result.value = value
        stamp.value = monotonicNanoseconds()
        done.signal()
    }
    done.wait()
    return result.value
}

/// 20 / 20b. `calls` blocking calls, one after the other, each on a source that sends
/// one value and completes on a concurrent queue's thread: `last()` (which ends with the
/// completion) on the main thread (20) or on another thread (20b). One unit is one call.
/// Order-sensitive check of the values returned. OpenCombine has no blocking operators.
func blockingCallScenario(calls: Int, caller: BlockingCaller) -> Scenario {
    let name = caller == .mainThread ? "20 blocking call, main thread" : "20b blocking call, another thread"
    let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
    return Scenario(
        name: name,
        unit: "call",
        units: calls,
        expected: Checksum(of: 0..<calls),
        rivulet: Variant {
            caller.run(name, "Rivulet") {
                let stamp = UncheckedBox<UInt64>(0)
                var checksum = Checksum()
                for index in 0..<hiddenInt(calls) {
                    checksum.add(rivuletBlockingCall(index, on: scheduler, stamp: stamp))
                }
                return checksum
            }
        },
        openCombine: nil,
        floor: Variant {
            caller.run(name, "floor") {
                let stamp = UncheckedBox<UInt64>(0)
                var checksum = Checksum()
                for index in 0..<hiddenInt(calls) {
                    checksum.add(floorBlockingCall(index, stamp: stamp))
                }
                return checksum
            }
        },
        openCombineMissing: "no blocking operators"
    )
}

/// How long after its source's completion each of `calls` blocking calls returned, on
/// each caller's thread: the median and the worst, for Rivulet and the floor.
func blockingLatencyReport(calls: Int) -> [String] {
    let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
    var lines: [String] = []
    for caller in [BlockingCaller.mainThread, .otherThread] {
        for implementation in ["Rivulet", "floor"] {
            let latencies = caller.run("blocking latency", implementation) { () -> [UInt64] in
                let stamp = UncheckedBox<UInt64>(0)
                var latencies: [UInt64] = []
                latencies.reserveCapacity(calls)
                for index in 0..<calls {
                    let value: Int
                    if implementation == "Rivulet" {
                        value = rivuletBlockingCall(index, on: scheduler, stamp: stamp)
                    } else {
                        value = floorBlockingCall(index, stamp: stamp)
                    }
                    let returned = monotonicNanoseconds()
                    if value != index {
                        print("CHECK FAILED: blocking latency (\(implementation), \(caller.rawValue)): call \(index) returned \(value)")
                        exit(2)
                    }
                    latencies.append(returned - stamp.value)
                }
                return latencies.sorted()
            }
            let median = Double(latencies[latencies.count / 2]) / 1000
            let worst = Double(latencies[latencies.count - 1]) / 1000
            lines.append("blocking call (\(implementation), \(caller.rawValue)): returned after its source's completion in \(formatMicroseconds(median)) µs median, \(formatMicroseconds(worst)) µs at worst, over \(calls) calls")
        }
    }
    return lines
}

/// Microseconds with one decimal.
private func formatMicroseconds(_ value: Double) -> String {
    String(format: "%.1f", value)
}
