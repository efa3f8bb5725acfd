import RivuletTestSupport
import RxSwift
import RxTest

/// Sharing operators: a connection made, replayed or ended on one thread while another
/// subscribes, leaves or emits. The source is subscribed once per connection, and every
/// connection that ends is disposed.
enum SharingScenarios {
    static let all: [ExplorationScenario] = [
        ExplorationScenario("share", "a new subscriber against the last one leaving", seed: 901) { run in
            let tally = SubscriptionTally()
            let shared = tally.source(1).share()
            expectReconnection(of: shared, counted: tally, in: run)
        },
        ExplorationScenario("refCount", "a new subscriber connecting against the last one leaving", seed: 902) { run in
            let tally = SubscriptionTally()
            let shared = tally.source(1).publish().refCount()
            expectReconnection(of: shared, counted: tally, in: run)
        },
        ExplorationScenario("share", "an element against a subscriber leaving", depth: 2, seed: 903) { run in
            let source = PublishSubject<Int>()
            let shared = source.share()
            let staying = run.observe(shared, as: "staying")
            let leaving = run.observe(shared, as: "leaving", disposedBy: "disposer")
            run.thread("producer", sends: "1", to: source)
            run.expectEvents(staying, among: "1")
            run.expectEvents(leaving, among: "", "1")
        },
        ExplorationScenario("share", "the source's completion against a subscriber leaving", depth: 2, seed: 915) { run in
            let source = PublishSubject<Int>()
            let shared = source.share()
            let staying = run.observe(shared, as: "staying")
            let leaving = run.observe(shared, as: "leaving", disposedBy: "disposer")
            run.thread("producer", sends: "1 |", to: source)
            run.expectEvents(staying, among: "1 |")
            run.expectEvents(leaving, among: "", "1", "1 |")
            expectUnobserved(source, in: run)
        },
        ExplorationScenario("share", "elements against a subscriber leaving and another joining", seed: 913) { run in
            let source = PublishSubject<Int>()
            let shared = source.share()
            let staying = run.observe(shared, as: "staying")
            let leaving = run.observe(shared, as: "leaving", disposedBy: "disposer")
            run.thread("producer", sends: "1 2 3", to: source)
            let late = run.observeLater(shared)
            run.expectEvents(staying, among: "1 2 3")
            run.expectEvents(leaving, among: "", "1", "1 2", "1 2 3")
            run.expectEvents(late, among: "", "3", "2 3", "1 2 3")
        },
        ExplorationScenario("share", "a source sent to from two threads at once, then an observer leaving", seed: 914) { run in
            // Its deliveries may overlap (the source's emitters break the contract): the
            // count of deliveries running must come back to none, or an observer that
            // leaves afterwards stays alive for a delivery that is over.
            let source = PublishSubject<Int>()
            let shared = source.share()
            let held = HeldObject()
            let watched = WeakReference(held)
            let kept = run.observe(shared.toArray().asObservable(), as: "array")
            let subscription = UnsafeTransfer(shared.subscribe(onNext: { _ in withExtendedLifetime(held) {} }))
            run.thread("one", sends: "1", to: source)
            run.thread("two", sends: "2", to: source)
            run.check {
                subscription.value.dispose()
                try require(watched.object == nil, "an observer that left is still alive, kept for a delivery that is over")
                source.onCompleted()
            }
            run.expectEvents(kept, among: "[1, 2] |", "[2, 1] |")
        },
        ExplorationScenario("share(replay:)", "elements against a new subscriber", seed: 904) { run in
            let source = PublishSubject<Int>()
            let shared = source.share(replay: 1)
            _ = shared.subscribe { _ in }
            run.thread("producer", sends: "1 2", to: source)
            run.expectEvents(run.observeLater(shared), among: "1 2", "2")
        },
        ExplorationScenario("share(replay:scope: .forever)", "the completion against a late subscriber", seed: 905) { run in
            let source = PublishSubject<Int>()
            let shared = source.share(replay: 1, scope: .forever)
            _ = shared.subscribe { _ in }
            run.thread("producer", sends: "1 2 |", to: source)
            run.expectEvents(run.observeLater(shared), among: "1 2 |", "2 |")
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("publish", "connect against a subscriber", depth: 2, seed: 906) { run in
            let tally = SubscriptionTally()
            let connectable = tally.source(1).publish()
            run.thread("connector") { _ = connectable.connect() }
            let observer = run.observeLater(connectable, as: "subscriber")
            // The source sends 1 as it is subscribed: seen by a subscriber that came first.
            run.expectEvents(observer, among: "", "1")
            tally.expect(in: run, "the published source") { subscribed, disposed in subscribed == 1 && disposed == 0 }
        },
        ExplorationScenario("publish", "disposing the connection against the subscriber leaving", depth: 2, seed: 907) { run in
            let tally = SubscriptionTally()
            let connectable = tally.source(1).publish()
            _ = run.observe(connectable, as: "subscriber", disposedBy: "leaver")
            run.thread("disconnector", disposing: connectable.connect())
            tally.expect(in: run, "the published source") { subscribed, disposed in subscribed == 1 && disposed == 1 }
            run.expectEverySubscriptionEnded()
        },
        ExplorationScenario("publish", "connect from two threads", depth: 2, seed: 908) { run in
            let tally = SubscriptionTally()
            let connectable = tally.source(1).publish()
            for name in ["one", "two"] {
                run.thread(name) { _ = connectable.connect() }
            }
            tally.expect(in: run, "the published source") { subscribed, disposed in subscribed == 1 && disposed == 0 }
        },
        ExplorationScenario("publish", "a subscriber against the connection ending with its source's completion", seed: 910) { run in
            let source = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onCompleted()
                return Disposables.create()
            }
            let connectable = source.publish()
            run.thread("connector") { _ = connectable.connect() }
            let observer = run.observeLater(connectable, as: "subscriber")
            // Before the connection, all of it; after 1, the completion; after the end, a
            // fresh subject that nothing connected.
            run.expectEvents(observer, among: "1 |", "|", "")
            run.check {
                // The ended connection left a fresh subject: a new connection is seen whole.
                let received = LockedBox([String]())
                let subscription = connectable.subscribe(onNext: { element in received.append("\(element)") }, onCompleted: { received.append("|") })
                _ = connectable.connect()
                subscription.dispose()
                try require(received.value == ["1", "|"], "a subscriber of the next connection received \(received.value)")
            }
        },
        ExplorationScenario("publish", "disposing the connection against its source's completion", depth: 2, seed: 911) { run in
            let source = PublishSubject<Int>()
            let connectable = source.publish()
            let observer = run.observe(connectable, as: "subscriber")
            let connection = connectable.connect()
            run.thread("source", sends: "1 |", to: source)
            run.thread("disconnector", disposing: connection)
            run.expectEvents(observer, among: "", "1", "1 |")
            expectUnobserved(source, in: run)
        },
        ExplorationScenario("share", "an observer leaving on an element against a new subscriber", seed: 912) { run in
            let source = PublishSubject<Int>()
            let shared = source.share()
            let subscription = SingleAssignmentDisposable()
            let received = LockedBox([Int]())
            // It leaves within the delivery of its first element: the delivery runs with
            // no lock held.
            subscription.setDisposable(shared.subscribe(onNext: { element in
                received.append(element)
                subscription.dispose()
            }))
            run.thread("source", sends: "1 2", to: source)
            let late = run.observeLater(shared)
            run.expect({ received.value == [1] }) { "the leaving observer received \(received.value)" }
            run.expectEvents(late, among: "", "2", "1 2")
        },
        ExplorationScenario("replay(_:)", "elements against a subscriber", seed: 909) { run in
            let source = PublishSubject<Int>()
            let connectable = source.replay(1)
            _ = connectable.connect()
            run.thread("producer", sends: "1 2 |", to: source)
            let observer = run.observeLater(connectable)
            // After the completion the connection is over and, as in RxSwift, a subscriber
            // gets the next connection's new subject, which is not connected.
            run.expectEvents(observer, among: "1 2 |", "2 |", "")
        },
    ]

    /// Subscribes to `shared` (a source counted by `tally` that sends 1 as it is
    /// subscribed), then races that subscriber leaving against a new one: the new one
    /// either joins the live connection (and sees nothing) or makes a new one (and sees 1).
    private static func expectReconnection(of shared: Observable<Int>, counted tally: SubscriptionTally, in run: ScheduleRun) {
        _ = run.observe(shared, as: "first", disposedBy: "leaver")
        let observer = run.observeLater(shared, as: "second")
        run.expectEvents(observer, among: "", "1")
        tally.expect(in: run, "the shared source") { subscribed, disposed in subscribed - disposed == 1 }
        run.expect({ (observer.spelled == "1") == (tally.subscribed == 2) }) {
            "the second subscriber received \"\(observer.spelled)\" with the source subscribed \(tally.subscribed) times"
        }
    }
}
