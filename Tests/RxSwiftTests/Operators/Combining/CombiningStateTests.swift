import RivuletTestSupport
@testable import RxSwift
import Testing

/// The state machine of combineLatest and zip on its own: transitions in, actions out.
@Suite("CombiningState: the transitions of combineLatest and zip")
struct CombiningStateTests {

    /// What `action` asks of the sink.
    private static func describe(_ action: CombiningAction) -> String {
        switch action {
        case .none: "none"
        case .deliverCurrentValues: "deliver values"
        case .keepValuesForQueue: "keep values"
        case .deliver(let item): "deliver " + describe(item)
        }
    }

    /// What the deliverer takes next.
    private static func describe(_ item: CombiningItem?) -> String {
        switch item {
        case nil: "idle"
        case .next: "next"
        case .completed: "completed"
        case .error: "error"
        }
    }

    @Test("combineLatest waits for every source, then sends on each element")
    func combineLatestWaitsForAll() {
        var state = CombiningState(rule: .combineLatest, arity: 2)
        var seen: [String] = []
        seen.append(Self.describe(state.next(at: 0)))
        seen.append(Self.describe(state.next(at: 0)))
        seen.append(Self.describe(state.next(at: 1)))
        seen.append(Self.describe(state.nextDelivery()))
        seen.append(Self.describe(state.next(at: 0)))
        #expect(seen == ["none", "none", "deliver values", "idle", "deliver values"])
    }

    @Test("a set due during a delivery queues behind it, and the deliverer takes it")
    func queuesBehindDelivery() {
        var state = CombiningState(rule: .combineLatest, arity: 2)
        var seen: [String] = []
        _ = state.next(at: 0)
        seen.append(Self.describe(state.next(at: 1)))
        // Still delivering: the next two sets queue, with their values kept, and the
        // completion queues behind them.
        seen.append(Self.describe(state.next(at: 0)))
        seen.append(Self.describe(state.next(at: 1)))
        seen.append(Self.describe(state.completed(at: 0)))
        seen.append(Self.describe(state.completed(at: 1)))
        for _ in 0..<4 {
            seen.append(Self.describe(state.nextDelivery()))
        }
        #expect(seen == [
            "deliver values", "keep values", "keep values", "none", "none",
            "next", "next", "completed", "idle",
        ])
        #expect(state.isTerminated)
    }

    @Test("combineLatest completes when every source did, once")
    func combineLatestCompletion() {
        var state = CombiningState(rule: .combineLatest, arity: 3)
        var seen: [String] = []
        for index in [0, 0, 1, 2, 2] {
            seen.append(Self.describe(state.completed(at: index)))
        }
        #expect(seen == ["none", "none", "none", "deliver completed", "none"])
    }

    @Test("combineLatest completes when a source emits after all the others ended empty")
    func combineLatestLoneSource() {
        var state = CombiningState(rule: .combineLatest, arity: 2)
        var seen: [String] = []
        seen.append(Self.describe(state.completed(at: 1)))
        seen.append(Self.describe(state.next(at: 0)))
        seen.append(Self.describe(state.next(at: 0)))
        #expect(seen == ["none", "deliver completed", "none"])
    }

    @Test("zip pairs the n-th elements and forgets what it paired")
    func zipPairs() {
        var state = CombiningState(rule: .zip, arity: 2)
        var seen: [String] = []
        seen.append(Self.describe(state.next(at: 0)))
        seen.append(Self.describe(state.next(at: 0)))
        seen.append(Self.describe(state.next(at: 1)))
        seen.append(Self.describe(state.nextDelivery()))
        seen.append(Self.describe(state.next(at: 1)))
        seen.append(Self.describe(state.nextDelivery()))
        seen.append(Self.describe(state.next(at: 1)))
        #expect(seen == ["none", "none", "deliver values", "idle", "deliver values", "idle", "none"])
    }

    @Test("the collection zip completes on an element that can never be paired; fixed arities do not")
    func zipCollectionCompletesEarly() {
        var collection = CombiningState(rule: .zipCollection, arity: 2)
        _ = collection.completed(at: 1)
        let collectionAction = Self.describe(collection.next(at: 0))
        #expect(collectionAction == "deliver completed")

        var fixed = CombiningState(rule: .zip, arity: 2)
        _ = fixed.completed(at: 1)
        let fixedAction = Self.describe(fixed.next(at: 0))
        #expect(fixedAction == "none")
        #expect(!fixed.isTerminated)
    }

    @Test("an error goes out once and stops everything")
    func errorStops() {
        var state = CombiningState(rule: .zip, arity: 2)
        var seen: [String] = []
        seen.append(Self.describe(state.fail(testError)))
        seen.append(Self.describe(state.fail(testError)))
        seen.append(Self.describe(state.next(at: 0)))
        seen.append(Self.describe(state.completed(at: 0)))
        #expect(seen == ["deliver error", "none", "none", "none"])
    }

    @Test("after the selector threw, nothing is delivered any more")
    func abortCloses() {
        var state = CombiningState(rule: .combineLatest, arity: 1)
        var seen: [String] = []
        seen.append(Self.describe(state.next(at: 0)))
        seen.append(Self.describe(state.next(at: 0)))
        state.abortDelivery()
        seen.append(Self.describe(state.nextDelivery()))
        seen.append(Self.describe(state.next(at: 0)))
        seen.append(Self.describe(state.fail(testError)))
        #expect(seen == ["deliver values", "keep values", "idle", "none", "none"])
    }
}
