import RivuletTestSupport
import RxSwift
import RxTest
import Testing

/// The address path (see `ObserverBase`): `map`, `filter`, `scan` and
/// `subscribe(onNext:)` pass elements by address when every stage takes them so, from
/// `range` and from subjects. These tests run the same chains through that path and
/// through the generic one (a `TestScheduler` source, or an array), and compare.
@Suite("The address path: map, filter, scan and subscribe(onNext:) between range or a subject", .rxLeakCheck)
struct ElementAddressPathTests {
    /// Counts its live instances, to show that no element is leaked or released twice.
    private final class Counted: @unchecked Sendable {
        nonisolated(unsafe) static var live = 0
        let value: Int
        init(_ value: Int) {
            self.value = value
            Counted.live += 1
        }
        deinit { Counted.live -= 1 }
    }

    @Test("range → map → filter → scan → subscribe gives what the generic path gives")
    func chainMatchesGenericPath() {
        var viaRange: [Int] = []
        var viaArray: [Int] = []
        let chain = { (source: Observable<Int>) in
            source.map { $0 &* 3 }.filter { $0 % 2 == 0 }.scan(0) { $0 &+ $1 }.scan(into: [Int]()) { $0.append($1) }
        }
        chain(Observable.range(start: -50, count: 200)).subscribe(onNext: { viaRange = $0 }).dispose()
        chain(Observable.from(Array(-50..<150))).subscribe(onNext: { viaArray = $0 }).dispose()
        var expected: [Int] = []
        var total = 0
        for value in -50..<150 where (value * 3) % 2 == 0 {
            total += value * 3
            expected.append(total)
        }
        #expect(viaRange == expected)
        #expect(viaArray == expected)
    }

    @Test("reference-counted elements are neither leaked nor released twice")
    func referenceCountedElements() {
        Counted.live = 0
        var received: [Int] = []
        var completed = false
        Observable.range(start: 0, count: 1000)
            .map { Counted($0) }
            .filter { $0.value % 3 != 0 }
            .scan(Counted(0)) { Counted($0.value + $1.value) }
            .map { "\($0.value)" }
            .subscribe(onNext: { received.append(Int($0)!) }, onCompleted: { completed = true })
            .dispose()
        #expect(completed)
        #expect(received.count == 666)
        #expect(received.last == (0..<1000).filter { $0 % 3 != 0 }.reduce(0, +))
        #expect(Counted.live == 0)
    }

    @Test("an error thrown by map, filter or scan ends the sequence with it; nothing follows", arguments: ["map", "filter", "scan"])
    func thrownErrorEndsTheSequence(stage: String) {
        var received: [Int] = []
        var failure: Error?
        var completed = false
        Observable.range(start: 0, count: 10)
            .map { value in
                if stage == "map", value == 4 { throw TestError(code: value) }
                return value
            }
            .filter { value in
                if stage == "filter", value == 4 { throw TestError(code: value) }
                return true
            }
            .scan(0) { _, value in
                if stage == "scan", value == 4 { throw TestError(code: value) }
                return value
            }
            .subscribe(onNext: { received.append($0) }, onError: { failure = $0 }, onCompleted: { completed = true })
            .dispose()
        #expect(received == [0, 1, 2, 3])
        #expect(failure as? TestError == TestError(code: 4))
        #expect(!completed)
    }

    @Test("disposing from inside a closure stops the element being processed and all after it", arguments: ["map", "filter", "scan"])
    func disposalInsideAClosure(stage: String) {
        var received: [Int] = []
        let subscription = SingleAssignmentDisposable()
        // Inside a scheduled action, range starts emitting only after `subscribe`
        // returned, so the closure can reach the subscription. The last stage before
        // the subscriber is the one whose own check has to stop the element.
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            subscription.setDisposable(
                Observable.range(start: 0, count: 10)
                    .map { value -> Int in
                        if stage == "map", value == 3 { subscription.dispose() }
                        return value
                    }
                    .filter { value in
                        if stage == "filter", value == 3 { subscription.dispose() }
                        return true
                    }
                    .scan(0) { _, value in
                        if stage == "scan", value == 3 { subscription.dispose() }
                        return value
                    }
                    .subscribe(onNext: { received.append($0) })
            )
            return Disposables.create()
        }
        #expect(received == [0, 1, 2])
    }

    @Test("scan(into:) on the address path updates its state in place")
    func scanIntoInPlace() {
        var last: [Int] = []
        var count = 0
        Observable.range(start: 1, count: 5)
            .scan(into: [Int]()) { $0.append($1 * $1) }
            .subscribe(onNext: { last = $0; count += 1 })
            .dispose()
        #expect(count == 5)
        #expect(last == [1, 4, 9, 16, 25])
    }

    @Test("a subject delivers by address to chains that take it, and as before to other observers")
    func subjectMixesPaths() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let recorded = scheduler.createObserver(Int.self)
        var mapped: [Int] = []
        var plain: [Int] = []
        let bag = DisposeBag()
        subject.map { $0 * 10 }.subscribe(onNext: { mapped.append($0) }).disposed(by: bag)
        subject.subscribe(recorded).disposed(by: bag)
        subject.subscribe(onNext: { plain.append($0) }).disposed(by: bag)
        subject.filter { $0 > 1 }.map { $0 + 1 }.subscribe(recorded).disposed(by: bag)
        for value in 1...3 { subject.onNext(value) }
        subject.onCompleted()
        #expect(mapped == [10, 20, 30])
        #expect(plain == [1, 2, 3])
        #expect(recorded.events.map(\.value) == [.next(1), .next(2), .next(3), .next(3), .next(4), .completed, .completed])
    }

    @Test("virtual-time chains (the generic path) keep their times")
    func virtualTimeUnchanged() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let result = scheduler.start { source.map { $0 * 2 }.filter { $0 != 4 }.scan(0, accumulator: +) }
        #expect(result.events == [.next(210, 2), .next(230, 8), .completed(240)])
        #expect(source.subscriptions == [Subscription(200, 240)])
    }

    /// An observer with no direct path: map, filter and scan reach it through an adapter.
    private final class PlainObserver<Element>: ObserverType, @unchecked Sendable {
        var events: [Event<Element>] = []
        func on(_ event: Event<Element>) { events.append(event) }
    }

    @Test("map, filter and scan outermost over an endless synchronous source: take below them still stops it")
    func outermostOverEndlessSource() {
        var received: [Int] = []
        var completed = false
        Observable.repeatElement(1).take(4)
            .map { $0 * 2 }.filter { _ in true }.scan(0, accumulator: +)
            .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
            .dispose()
        #expect(received == [2, 4, 6, 8])
        #expect(completed)
    }

    @Test("an observer without a direct path gets every event of map, filter and scan, errors included")
    func observerWithoutDirectPath() {
        let observer = PlainObserver<Int>()
        Observable.from([1, 2, 3, 4]).map { $0 * 3 }.filter { $0 != 6 }.scan(into: 0) { $0 += $1 }
            .subscribe(observer).dispose()
        #expect(observer.events.map(\.element) == [3, 12, 24, nil])
        #expect(observer.events.last?.isCompleted == true)

        let failing = PlainObserver<String>()
        Observable.from([1, 2, 3]).map { value -> Int in
            if value == 3 { throw TestError(code: value) }
            return value
        }.map { "\($0)" }.subscribe(failing).dispose()
        #expect(failing.events.compactMap(\.element) == ["1", "2"])
        #expect(failing.events.last?.error as? TestError == TestError(code: 3))
    }

    @Test("the adapter for an observer without a direct path lets it go when the subscription ends")
    func adapterReleasesObserver() {
        weak var released: PlainObserver<Int>?
        let subject = PublishSubject<Int>()
        do {
            let observer = PlainObserver<Int>()
            released = observer
            let subscription = subject.map { $0 + 1 }.filter { $0 > 0 }.subscribe(observer)
            subject.onNext(1)
            #expect(observer.events.map(\.element) == [2])
            subscription.dispose()
        }
        #expect(released == nil)
    }
}
