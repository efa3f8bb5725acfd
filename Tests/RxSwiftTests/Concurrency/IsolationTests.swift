import Dispatch
import Foundation
import RxBlocking
import RxSwift
import Testing
import RxTest

/// A view model written the way Swift 6 code inside a `@MainActor` type is: the
/// closures it hands to operators are inferred to be main-actor isolated.
@MainActor
final class MainActorViewModel {
    let factor = 3
    var received: [Int] = []

    func scaled(_ source: Observable<Int>) -> Observable<Int> {
        source.map { $0 * self.factor }.filter { _ in self.factor > 0 }
    }

    func collect(_ source: Observable<Int>, scheduler: ImmediateSchedulerType, done: DispatchSemaphore) -> Disposable {
        source
            .observe(on: scheduler)
            .map { $0 + self.factor }
            .subscribe(onNext: { _ in }, onCompleted: { done.signal() })
    }
}

@Suite("Swift 6 isolation", .rxLeakCheck)
struct IsolationTests {
    @Test("main-actor closures run by operators on a background scheduler do not trap")
    @MainActor
    func mainActorClosuresOnBackgroundScheduler() throws {
        let model = MainActorViewModel()
        let background = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let values = try model.scaled(Observable.of(1, 2, 3).observe(on: background))
            .toBlocking(timeout: 5)
            .toArray()
        #expect(values == [3, 6, 9])

        let done = DispatchSemaphore(value: 0)
        let subscription = model.collect(Observable.of(1, 2), scheduler: background, done: done)
        #expect(done.wait(timeout: .now() + 5) == .success)
        subscription.dispose()
    }
}
