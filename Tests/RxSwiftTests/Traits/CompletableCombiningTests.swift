import RivuletTestSupport
import RxSwift
import RxTest
import Testing

/// `Completable.concat` runs completables one after another; `Completable.zip` (and its
/// deprecated name `merge`) runs them at once.
@Suite("Completable concat and zip", .rxLeakCheck)
struct CompletableCombiningTests {
    private typealias Make = @Sendable (Completable, Completable) -> Completable

    private static let concatForms: [Make] = [
        { $0.concat($1) },
        { Completable.concat(AnySequence([$0, $1])) },
        { Completable.concat([$0, $1]) },
        { Completable.concat($0, $1) },
    ]

    private static let zipForms: [Make] = [
        { Completable.zip(AnyCollection([$0, $1])) },
        { Completable.zip([$0, $1]) },
        { Completable.zip($0, $1) },
    ]

    @Test("concat: the second is subscribed when the first completes", arguments: 0..<4)
    func concat(form: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([Recorded<Event<Never>>.completed(250)])
        let x2 = scheduler.createColdObservable([Recorded<Event<Never>>.completed(30)])
        let res = scheduler.start { Self.concatForms[form](x1.asCompletable(), x2.asCompletable()) }
        #expect(res.events == [.completed(280)])
        #expect(x1.subscriptions == [Subscription(200, 250)])
        #expect(x2.subscriptions == [Subscription(250, 280)])
    }

    @Test("concat: an error of the first ends it without subscribing the second", arguments: 0..<4)
    func concatError(form: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([Recorded<Event<Never>>.error(250, testError)])
        let x2 = scheduler.createColdObservable([Recorded<Event<Never>>.completed(30)])
        let res = scheduler.start { Self.concatForms[form](x1.asCompletable(), x2.asCompletable()) }
        #expect(res.events == [.error(250, testError)])
        #expect(x1.subscriptions == [Subscription(200, 250)])
        #expect(x2.subscriptions == [])
    }

    @Test("concat: disposal while the second runs")
    func concatDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([Recorded<Event<Never>>.completed(250)])
        let x2 = scheduler.createColdObservable([Recorded<Event<Never>>.completed(100)])
        let res = scheduler.start(disposed: 300) { x1.asCompletable().concat(x2.asCompletable()) }
        #expect(res.events == [])
        #expect(x2.subscriptions == [Subscription(250, 300)])
    }

    @Test("zip: completes when every completable has", arguments: 0..<3)
    func zip(form: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([Recorded<Event<Never>>.completed(250)])
        let x2 = scheduler.createHotObservable([Recorded<Event<Never>>.completed(230)])
        let res = scheduler.start { Self.zipForms[form](x1.asCompletable(), x2.asCompletable()) }
        #expect(res.events == [.completed(250)])
        #expect(x1.subscriptions == [Subscription(200, 250)])
        #expect(x2.subscriptions == [Subscription(200, 230)])
    }

    @Test("zip: the first error ends it and disposes the others", arguments: 0..<3)
    func zipError(form: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([Recorded<Event<Never>>.completed(250)])
        let x2 = scheduler.createHotObservable([Recorded<Event<Never>>.error(230, testError)])
        let res = scheduler.start { Self.zipForms[form](x1.asCompletable(), x2.asCompletable()) }
        #expect(res.events == [.error(230, testError)])
        #expect(x1.subscriptions == [Subscription(200, 230)])
        #expect(x2.subscriptions == [Subscription(200, 230)])
    }

    @Test("zip: disposal before completion, and zip of nothing completes at once")
    func zipDisposalAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([Recorded<Event<Never>>.completed(250)])
        let x2 = scheduler.createHotObservable([Recorded<Event<Never>>.completed(400)])
        let res = scheduler.start(disposed: 300) { Completable.zip(x1.asCompletable(), x2.asCompletable()) }
        #expect(res.events == [])
        #expect(x2.subscriptions == [Subscription(200, 300)])

        let empty = TestScheduler(initialClock: 0)
        #expect(empty.start { Completable.zip([Completable]()) }.events == [.completed(200)])
    }

    @available(*, deprecated)
    @Test("merge, RxSwift 5's name of zip, still compiles and runs them at once")
    func deprecatedMerge() {
        let forms: [Make] = [
            { Completable.merge(AnyCollection([$0, $1])) },
            { Completable.merge([$0, $1]) },
            { Completable.merge($0, $1) },
        ]
        for form in forms {
            let scheduler = TestScheduler(initialClock: 0)
            let x1 = scheduler.createHotObservable([Recorded<Event<Never>>.completed(250)])
            let x2 = scheduler.createHotObservable([Recorded<Event<Never>>.completed(230)])
            let res = scheduler.start { form(x1.asCompletable(), x2.asCompletable()) }
            #expect(res.events == [.completed(250)])
            #expect(x2.subscriptions == [Subscription(200, 230)])
        }
    }
}
