import Foundation
import RxBlocking
import RxSwift
import RxTest
import XCTest

// This target builds in the Swift 5 language mode: code written against RxSwift in that
// mode — non-Sendable captures, main-actor view models handing closures to operators,
// mutable state captured by subscriptions — must keep compiling, warning-free.

@MainActor
final class LegacyViewModel {
    var multiplier = 2
    var lastValue = 0
    let disposeBag = DisposeBag()

    func bind(_ input: Observable<Int>) {
        // `unowned`: the subscription lives in this object's bag, so a strong capture
        // would be a retain cycle (the leak check caught one here).
        input
            .map { [unowned self] in $0 * self.multiplier }
            .subscribe(onNext: { [weak self] value in self?.lastValue = value })
            .disposed(by: disposeBag)
    }
}

final class MutableCounter {
    var count = 0
}

final class Swift5ModeTests: LeakCheckingTestCase {
    // The test method itself is not main-actor isolated: the test list SwiftPM generates
    // for Linux would then hand it across isolation. The view model is used on the main
    // actor, as a user's code would.
    func testLegacyViewModelCompilesAndRuns() async {
        await MainActor.run {
            let model = LegacyViewModel()
            let subject = PublishSubject<Int>()
            model.bind(subject)
            subject.onNext(21)
            XCTAssertEqual(model.lastValue, 42)
        }
    }

    func testNonSendableStateCapturedAcrossSchedulers() throws {
        let counter = MutableCounter()
        let values = try Observable.of(1, 2, 3)
            .observe(on: ConcurrentDispatchQueueScheduler(qos: .default))
            .map { value -> Int in
                counter.count += 1
                return value
            }
            .toBlocking(timeout: 5)
            .toArray()
        XCTAssertEqual(values, [1, 2, 3])
        XCTAssertEqual(counter.count, 3)
    }

    func testVirtualTimeInSwift5Mode() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
        let result = scheduler.start { xs.map { $0.uppercased() } }
        XCTAssertEqual(result.events, [.next(210, "A"), .completed(220)])
    }
}
