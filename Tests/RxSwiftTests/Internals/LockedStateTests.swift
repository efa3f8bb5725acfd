import Dispatch
import RivuletTestSupport
import RxSwift
import Testing

@Suite("LockedState")
struct LockedStateTests {
    @Test("withLock hands the body the state and keeps what it changes")
    func keepsChanges() {
        let state = LockedState([1, 2])
        let count = state.withLock { values -> Int in
            values.append(3)
            return values.count
        }
        #expect(count == 3)
        #expect(state.current == [1, 2, 3])
    }

    @Test("copies share one state")
    func copiesShare() {
        let first = LockedState(0)
        let second = first
        second.withLock { $0 = 42 }
        #expect(first.current == 42)
    }

    @Test("an error thrown by the body leaves the lock free and the change made")
    func throwingBodyUnlocks() {
        let state = LockedState(0)
        #expect(throws: TestError.self) {
            try state.withLock { value in
                value = 7
                throw testError
            }
        }
        #expect(state.withLock { $0 } == 7)
    }

    #if DEBUG
    @Test("the lock counts as held inside the body only")
    func heldInsideOnly() {
        let state = LockedState(())
        let before = LockDiagnostics.heldByCurrentThread
        let inside = state.withLock { _ in LockDiagnostics.heldByCurrentThread }
        #expect(inside == before + 1)
        #expect(LockDiagnostics.heldByCurrentThread == before)
    }
    #endif

    @Test("increments from many threads are all counted")
    func excludesConcurrentBodies() {
        let state = LockedState((count: 0, inside: 0, overlaps: 0))
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 {
                state.withLock { value in
                    value.inside += 1
                    if value.inside > 1 { value.overlaps += 1 }
                    value.count += 1
                    value.inside -= 1
                }
            }
        }
        let final = state.current
        #expect(final.count == 80_000)
        #expect(final.overlaps == 0)
    }

    @Test("the state is released with the last copy")
    func releasesState() {
        final class Token {}
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let state = LockedState(Optional(token))
            #expect(state.withLock { $0 != nil })
        }
        #expect(weakToken == nil)
    }
}
