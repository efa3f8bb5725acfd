import Foundation
import RivuletTestSupport
import RxCocoa
import RxSwift
import RxTest
import Testing
import XCTest

private let ping = Notification.Name("Rivulet.ping")
private let pong = Notification.Name("Rivulet.pong")

@Suite("NotificationCenter.rx.notification(_:object:)", .rxLeakCheck)
struct NotificationCenterTests {
    @Test("each posted notification of the name arrives, on the posting thread; others do not")
    func posts() {
        let center = NotificationCenter()
        var received: [String] = []
        let subscription = center.rx.notification(ping).subscribe(onNext: { notification in
            received.append("\(notification.name.rawValue) \(notification.userInfo?["n"] ?? "-")")
        })
        center.post(name: ping, object: nil, userInfo: ["n": 1])
        center.post(name: pong, object: nil)
        center.post(name: ping, object: nil, userInfo: ["n": 2])
        #expect(received == ["Rivulet.ping 1", "Rivulet.ping 2"])
        subscription.dispose()
    }

    @Test("without a name every notification arrives")
    func anyName() {
        let center = NotificationCenter()
        var names: [Notification.Name] = []
        let subscription = center.rx.notification(nil).subscribe(onNext: { names.append($0.name) })
        center.post(name: ping, object: nil)
        center.post(name: pong, object: nil)
        #expect(names == [ping, pong])
        subscription.dispose()
    }

    @Test("with an object only that sender's notifications arrive")
    func objectFilter() {
        final class Sender {}
        let center = NotificationCenter()
        let sender = Sender()
        let other = Sender()
        var senders: [ObjectIdentifier?] = []
        let subscription = center.rx.notification(ping, object: sender).subscribe(onNext: { notification in
            senders.append((notification.object as AnyObject?).map(ObjectIdentifier.init))
        })
        center.post(name: ping, object: other)
        center.post(name: ping, object: sender)
        center.post(name: ping, object: nil)
        center.post(name: pong, object: sender)
        #expect(senders == [ObjectIdentifier(sender)])
        subscription.dispose()
        withExtendedLifetime(other) {}
    }

    @Test("each subscription adds its own observer: disposing one leaves the others")
    func subscriptionsAreIndependent() {
        let center = NotificationCenter()
        let notifications = center.rx.notification(ping)
        var first = 0
        var second = 0
        let firstSubscription = notifications.subscribe(onNext: { _ in first += 1 })
        let secondSubscription = notifications.subscribe(onNext: { _ in second += 1 })
        center.post(name: ping, object: nil)
        firstSubscription.dispose()
        center.post(name: ping, object: nil)
        #expect((first, second) == (1, 2))
        secondSubscription.dispose()
    }

    @Test("the sequence holds the sender weakly")
    func senderHeldWeakly() {
        final class Sender {}
        let center = NotificationCenter()
        weak var released: Sender?
        var notifications: Observable<Notification>?
        do {
            let sender = Sender()
            released = sender
            notifications = center.rx.notification(ping, object: sender)
        }
        #expect(released == nil)
        #expect(notifications != nil)
    }
}

/// Whether disposing removes the center's observer, seen through `Resources.total`: a
/// block left in the center would keep the subscription's sink alive. The count is
/// process-wide, so this is an XCTest case (XCTest runs one test at a time, apart from
/// the Swift Testing suites).
final class NotificationCenterObserverRemovalTests: XCTestCase {
    func testDisposingRemovesTheObserverFromTheCenter() {
        let center = NotificationCenter()
        let before = Resources.total
        var received = 0
        do {
            let subscription = center.rx.notification(ping).subscribe(onNext: { _ in received += 1 })
            XCTAssertGreaterThan(Resources.total, before, "the subscription is alive")
            center.post(name: ping, object: nil)
            subscription.dispose()
        }
        center.post(name: ping, object: nil)
        XCTAssertEqual(received, 1)
        XCTAssertEqual(Resources.total, before, "nothing of the subscription is left: the center let go of its observer")
    }
}
