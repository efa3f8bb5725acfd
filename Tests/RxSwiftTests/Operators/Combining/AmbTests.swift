import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("amb", .rxLeakCheck)
struct AmbTests {
    @Test("silent sources stay subscribed")
    func never() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([.next(150, 1)])
        let x2 = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { x1.amb(x2) }
        #expect(res.events == [])
        #expect(x1.subscriptions == [Subscription(200, 1000)])
        #expect(x2.subscriptions == [Subscription(200, 1000)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let y = (0..<3).map { _ in scheduler3.createHotObservable([Recorded.next(150, 1)]) }
        let res3 = scheduler3.start { Observable.amb(y.map { $0.asObservable() }) }
        #expect(res3.events == [])
        for source in y {
            #expect(source.subscriptions == [Subscription(200, 1000)])
        }
    }

    @Test("a completion wins too")
    func neverEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([.next(150, 1)])
        let x2 = scheduler.createHotObservable([.next(150, 1), .completed(225)])
        let res = scheduler.start { x1.amb(x2) }
        #expect(res.events == [.completed(225)])
        #expect(x1.subscriptions == [Subscription(200, 225)])
        #expect(x2.subscriptions == [Subscription(200, 225)])
    }

    @Test("the loser is disposed when the winner first reacts")
    func disposesLoser() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(240)])
        let x2 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(250)])
        let res = scheduler.start { x1.amb(x2) }
        #expect(res.events == [.next(210, 2), .completed(240)])
        #expect(x1.subscriptions == [Subscription(200, 240)])
        #expect(x2.subscriptions == [Subscription(200, 210)])
    }

    @Test("the winner's error goes through; the loser's does not")
    func errors() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .error(220, testError)])
        let x2 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(250)])
        let res = scheduler.start { x1.amb(x2) }
        #expect(res.events == [.next(210, 2), .error(220, testError)])
        #expect(x1.subscriptions == [Subscription(200, 220)])
        #expect(x2.subscriptions == [Subscription(200, 210)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let y1 = scheduler2.createHotObservable([.next(150, 1), .next(220, 2), .error(230, testError)])
        let y2 = scheduler2.createHotObservable([.next(150, 1), .next(210, 3), .completed(250)])
        let res2 = scheduler2.start { y1.amb(y2) }
        #expect(res2.events == [.next(210, 3), .completed(250)])
        #expect(y1.subscriptions == [Subscription(200, 210)])
        #expect(y2.subscriptions == [Subscription(200, 250)])
    }

    @Test("an error before any element wins", arguments: [false, true])
    func throwsBeforeElection(leftThrows: Bool) {
        let scheduler = TestScheduler(initialClock: 0)
        let thrower = scheduler.createHotObservable([.next(150, 1), .error(210, testError)])
        let other = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(250)])
        let res = scheduler.start { leftThrows ? thrower.amb(other) : other.amb(thrower) }
        #expect(res.events == [.error(210, testError)])
        #expect(thrower.subscriptions == [Subscription(200, 210)])
        #expect(other.subscriptions == [Subscription(200, 210)])
    }

    @Test("the static form picks among many and disposes all the others")
    func many() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([.next(230, 1), .completed(300)])
        let x2 = scheduler.createHotObservable([.next(215, 2), .next(260, 22), .completed(280)])
        let x3 = scheduler.createHotObservable([.next(220, 3), .completed(240)])
        let res = scheduler.start { Observable.amb([x1, x2, x3].map { $0.asObservable() }) }
        #expect(res.events == [.next(215, 2), .next(260, 22), .completed(280)])
        #expect(x1.subscriptions == [Subscription(200, 215)])
        #expect(x2.subscriptions == [Subscription(200, 280)])
        #expect(x3.subscriptions == [Subscription(200, 215)])
    }

    @Test("no sources never emit")
    func noSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.amb([Observable<Int>]()) }
        #expect(res.events == [])
    }

    @Test("disposal before any source reacted")
    func disposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([.next(300, 1)])
        let x2 = scheduler.createHotObservable([.next(310, 2)])
        let res = scheduler.start(disposed: 250) { x1.amb(x2) }
        #expect(res.events == [])
        #expect(x1.subscriptions == [Subscription(200, 250)])
        #expect(x2.subscriptions == [Subscription(200, 250)])
    }
}
