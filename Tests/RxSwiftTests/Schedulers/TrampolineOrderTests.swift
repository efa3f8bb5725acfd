import RxSwift
import Testing

/// Synchronous sequences on the current-thread scheduler emit in RxSwift's order: each
/// element is one step of the trampoline, so sequences started together take turns, and
/// work scheduled by a downstream runs before the next element.
@Suite("Synchronous sequences take turns on the trampoline, as in RxSwift", .rxLeakCheck, .timeLimit(.minutes(1)))
struct TrampolineOrderTests {
    private static var sources: [(name: String, make: ([Int]) -> Observable<Int>)] {
        [
            ("of", { Observable.from($0) }),
            ("range", { Observable.range(start: $0[0], count: $0.count) }),
        ]
    }

    @Test("merge of two synchronous sequences interleaves them", arguments: 0..<2)
    func mergeInterleaves(source: Int) {
        let make = Self.sources[source].make
        var received: [Int] = []
        var completed = false
        Observable.merge(make([1, 2, 3]), make([4, 5, 6]))
            .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
            .dispose()
        #expect(received == [1, 4, 2, 5, 3, 6])
        #expect(completed)
    }

    @Test("combineLatest of two synchronous sequences sees every pairing RxSwift sees")
    func combineLatestTakesTurns() {
        var received: [String] = []
        Observable.combineLatest(Observable.of(1, 2), Observable.of(3, 4)) { "\($0)\($1)" }
            .subscribe(onNext: { received.append($0) })
            .dispose()
        #expect(received == ["13", "23", "24"])
    }

    @Test("a sequence subscribed inside onNext takes turns with the running one", arguments: 0..<2)
    func downstreamWorkRunsFirst(source: Int) {
        let make = Self.sources[source].make
        var log: [Int] = []
        let bag = DisposeBag()
        // map and subscribe(onNext:) take elements by address from range: both paths of
        // the loop let the waiting subscription go first.
        make([0, 1, 2]).map { $0 }
            .subscribe(onNext: { value in
                log.append(value)
                if value == 0 {
                    Observable.of(100, 101).subscribe(onNext: { log.append($0) }).disposed(by: bag)
                }
            })
            .disposed(by: bag)
        #expect(log == [0, 100, 1, 101, 2])
    }

    @Test("flatMap over synchronous inners takes turns between them")
    func flatMapTakesTurns() {
        var received: [Int] = []
        Observable.of(1, 2)
            .flatMap { Observable.of($0 * 10, $0 * 10 + 1) }
            .subscribe(onNext: { received.append($0) })
            .dispose()
        #expect(received == [10, 11, 20, 21])
    }

    @Test("a lone sequence still emits everything and completes; disposal stops it between turns")
    func loneSequenceAndDisposal() {
        var received: [Int] = []
        Observable.range(start: 0, count: 1000).subscribe(onNext: { received.append($0) }).dispose()
        #expect(received == Array(0..<1000))

        var taken: [Int] = []
        Observable.merge(Observable.range(start: 0, count: 1000), Observable.of(-1, -2, -3))
            .take(4)
            .subscribe(onNext: { taken.append($0) })
            .dispose()
        #expect(taken == [0, -1, 1, -2])
    }
}
