import RivuletTestSupport
import RxSwift
import RxTest
import Testing

@Suite("Recorded and Subscription", .rxLeakCheck)
struct RecordedTests {
    @Test("builders stamp the given time and event")
    func builders() {
        let events = Recorded.events(.next(210, 1), .completed(300, Int.self))
        #expect(events.map(\.time) == [210, 300])
        #expect(events[0].value == .next(1))
        #expect(events[1].value == .completed)
    }

    @Test("errors compare by description")
    func errorEquality() {
        #expect(Recorded<Event<Int>>.error(10, testError) == .error(10, testError))
        #expect(Recorded<Event<Int>>.error(10, testError) != .error(11, testError))
    }

    @Test("an open subscription ends at Int.max")
    func openSubscription() {
        #expect(Subscription(200) == Subscription(200, Int.max))
        #expect(Subscription(200).debugDescription == "(200: Infinity)")
        #expect(Subscription(200, 300).debugDescription == "(200: 300)")
    }
}
