import Dispatch
import OpenCombine
import OpenCombineDispatch
import RxSwift
import RxTest

/// 7. Events sent on the calling thread, delivered on a serial dispatch queue: one unit
/// is one element. The floor is one `queue.async` per element calling an opaque closure.
func observeOnScenario(count: Int) -> Scenario {
    let expected = Checksum(of: 0..<count)
    let name = "7 observe(on:) serial queue"
    let queue = DispatchQueue(label: "rivulet-bench.observe-on")
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rivulet-bench.observe-on.rx")
    return Scenario(
        name: name,
        unit: "element",
        units: count,
        expected: expected,
        rivulet: Variant {
            let sink = Accumulator()
            let done = DispatchSemaphore(value: 0)
            let subject = PublishSubject<Int>()
            let subscription = subject.observe(on: scheduler)
                .subscribe(onNext: { sink.add($0) }, onCompleted: { done.signal() })
            for value in 0..<hiddenInt(count) { subject.onNext(value) }
            subject.onCompleted()
            waitOrFail(done, name, "Rivulet")
            subscription.dispose()
            return sink.checksum
        },
        openCombine: Variant {
            let sink = Accumulator()
            let done = DispatchSemaphore(value: 0)
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.receive(on: queue.ocombine)
                .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { sink.add($0) })
            for value in 0..<hiddenInt(count) { subject.send(value) }
            subject.send(completion: .finished)
            waitOrFail(done, name, "OpenCombine")
            cancellable.cancel()
            return sink.checksum
        },
        floor: Variant {
            let sink = Accumulator()
            let done = DispatchSemaphore(value: 0)
            let consumer = hidden(Consumer { sink.add($0) })
            for value in 0..<hiddenInt(count) {
                queue.async { consumer.apply(value) }
            }
            queue.async { done.signal() }
            waitOrFail(done, name, "floor")
            return sink.checksum
        }
    )
}

/// 11. A TestScheduler run: `count` hot events through `map` into a TestableObserver.
/// One unit is one event; the time covers creating the hot observable, `start` and
/// reading the recorded events.
func testSchedulerScenario(count: Int) -> Scenario {
    let firstTime = 201
    let recorded = (0..<count).map { Recorded.next(firstTime + $0, $0) }
    var expected = Checksum()
    for index in 0..<count {
        expected.add(firstTime + index)
        expected.add(triple(index))
    }
    return Scenario(
        name: "11 TestScheduler hot/map/observer",
        unit: "event",
        units: count,
        expected: expected,
        rivulet: Variant {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable(recorded)
            let observer = scheduler.start(created: 100, subscribed: 200, disposed: firstTime + count + 1) {
                source.map { triple($0) }
            }
            var result = Checksum()
            for event in observer.events {
                guard case .next(let value) = event.value else { continue }
                result.add(event.time)
                result.add(value)
            }
            return result
        },
        openCombine: nil,
        floor: Variant {
            // The same work without a scheduler: map each element through an opaque
            // closure and record (time, value) pairs, then read them back.
            let map = hidden(Transform { triple($0) }).apply
            var events: [(Int, Int)] = []
            for item in recorded {
                guard case .next(let value) = item.value else { continue }
                events.append((item.time, map(value)))
            }
            var result = Checksum()
            for (time, value) in events {
                result.add(time)
                result.add(value)
            }
            return result
        },
        openCombineMissing: "no virtual-time scheduler"
    )
}
