import RivuletTestSupport
@testable import RxSwift
import Testing

@Suite("Bag: the keyed storage of observers and disposables")
struct BagTests {
    /// The live elements of `bag`, in order.
    static func live(_ bag: Bag<Int>) -> [Int] {
        bag.liveElements
    }

    @Test("removal in any order keeps the others in insertion order", arguments: [5, 16, 17, 100])
    func removalKeepsOrder(count: Int) {
        var bag = Bag<Int>(vacancy: -1)
        let keys = (0..<count).map { bag.insert($0) }
        var expected = Array(0..<count)
        // Every third from the front, then the rest from the back.
        for index in stride(from: 0, to: count, by: 3) {
            #expect(bag.remove(keys[index]) == index)
            expected.removeAll { $0 == index }
            #expect(Self.live(bag) == expected)
            #expect(bag.count == expected.count)
        }
        for index in (0..<count).reversed() where index % 3 != 0 {
            #expect(bag.remove(keys[index]) == index)
            expected.removeAll { $0 == index }
            #expect(Self.live(bag) == expected)
        }
        #expect(bag.isEmpty)
        #expect(bag.elements.isEmpty, "removing the newest last leaves no vacated slot behind")
    }

    @Test("a key removes its element once; a removed or unknown key removes nothing")
    func keyRemovesOnce() {
        var bag = Bag<Int>(vacancy: -1)
        let keys = (0..<40).map { bag.insert($0) }
        #expect(bag.remove(keys[10]) == 10)
        #expect(bag.remove(keys[10]) == nil)
        #expect(bag.remove(BagKey(rawValue: 1_000)) == nil)
        #expect(bag.count == 39)
        // Squeezing moves the slots but not the keys.
        for index in 0..<25 where index != 10 { bag.remove(keys[index]) }
        #expect(bag.elements.count < 40 && bag.elements.count - bag.count <= bag.count, "the vacancies were squeezed out")
        #expect(bag.remove(keys[30]) == 30)
        #expect(bag.remove(keys[3]) == nil)
        #expect(Self.live(bag) == Array(25..<40).filter { $0 != 30 })
    }

    @Test("keys are not reused: after removals and removeAll, new keys are new")
    func keysAreNotReused() {
        var bag = Bag<Int>(vacancy: -1)
        let first = bag.insert(1)
        bag.remove(first)
        let second = bag.insert(2)
        #expect(second != first)
        #expect(bag.remove(first) == nil, "a stale key must not remove the element that came after it")
        bag.removeAll()
        let third = bag.insert(3)
        #expect(third != first && third != second)
        #expect(bag.remove(second) == nil)
        #expect(Self.live(bag) == [3])
    }

    @Test("a vacated slot holds the vacancy, so a walk over elements needs no test")
    func vacancyFillsSlots() {
        var bag = Bag<Int>(vacancy: -1)
        let keys = (0..<20).map { bag.insert($0) }
        var change = BagChange.rearranged
        #expect(bag.remove(keys[4], change: &change) == 4)
        #expect(change == .vacated(4))
        #expect(bag.elements[4] == -1)
        #expect(bag.elements.count == 20)
        #expect(bag.remove(keys[19], change: &change) == 19)
        #expect(change == .shortened)
        // Removing the newest drops the vacated slots before it too.
        #expect(bag.remove(keys[17], change: &change) == 17)
        #expect(change == .vacated(17))
        #expect(bag.remove(keys[18], change: &change) == 18)
        #expect(change == .shortened)
        #expect(bag.elements.count == 17)
        bag.insert(20)
        #expect(Self.live(bag) == Array(0..<17).filter { $0 != 4 } + [20])
    }

    @Test("vacancies never outnumber the live elements", arguments: [100, 1_000])
    func vacanciesStayBounded(count: Int) {
        var bag = Bag<Int>(vacancy: -1)
        let keys = (0..<count).map { bag.insert($0) }
        var squeezes = 0
        for (index, key) in keys.enumerated() where index < count - 1 {
            var change = BagChange.appended
            _ = bag.remove(key, change: &change)
            if change == .rearranged { squeezes += 1 }
            #expect(bag.elements.count - bag.count <= bag.count + 1)
        }
        #expect(Self.live(bag) == [count - 1])
        #expect(squeezes > 0 && squeezes < 20, "squeezes halve the vacancies: a logarithmic number of them")
    }

    @Test("a snapshot taken before removals is not changed by them")
    func snapshotIsStable() {
        var bag = Bag<Int>(vacancy: -1)
        let keys = (0..<30).map { bag.insert($0) }
        let snapshot = bag.elements
        for key in keys.prefix(20) { bag.remove(key) }
        #expect(Array(snapshot) == Array(0..<30))
        #expect(Self.live(bag) == Array(20..<30))
    }
}

@Suite("Subjects: observers disposed during a delivery, at sizes that leave vacated slots")
struct SubjectVacancyTests {
    /// A subject with `count` observers: observer `i` records `i` on each element, then
    /// runs `react(i, subscriptions)`.
    static func subject(
        observers count: Int, react: @escaping (Int, LockedBox<[Disposable]>) -> Void
    ) -> (PublishSubject<Int>, log: LockedBox<[Int]>, subscriptions: LockedBox<[Disposable]>) {
        let subject = PublishSubject<Int>()
        let log = LockedBox<[Int]>([])
        let subscriptions = LockedBox<[Disposable]>([])
        subscriptions.value = (0..<count).map { index in
            subject.subscribe(onNext: { _ in
                log.value.append(index)
                react(index, subscriptions)
            })
        }
        return (subject, log, subscriptions)
    }

    @Test("an observer that disposes itself during a delivery gets no later element; the others keep their order")
    func selfDisposal() {
        let (subject, log, subscriptions) = Self.subject(observers: 40) { index, subscriptions in
            if index % 2 == 1 { subscriptions.value[index].dispose() }
        }
        subject.onNext(1)
        #expect(log.value == Array(0..<40))
        log.value = []
        subject.onNext(2)
        #expect(log.value == Array(stride(from: 0, to: 40, by: 2)))
        for subscription in subscriptions.value { subscription.dispose() }
        #expect(!subject.hasObservers)
    }

    @Test("an observer that disposes later ones during a delivery: the next element reaches only the others, in order")
    func disposingOthers() {
        let (subject, log, subscriptions) = Self.subject(observers: 50) { index, subscriptions in
            if index == 0 {
                for later in stride(from: 10, to: 40, by: 1) { subscriptions.value[later].dispose() }
            }
        }
        subject.onNext(1)
        let afterFirst = log.value
        log.value = []
        subject.onNext(2)
        #expect(log.value == Array(0..<10) + Array(40..<50))
        #expect(afterFirst.count <= 50 && afterFirst.prefix(10) == ArraySlice(0..<10))
        // Subscribing again after the gaps appends at the end.
        let late = subject.subscribe(onNext: { _ in log.value.append(99) })
        log.value = []
        subject.onNext(3)
        #expect(log.value == Array(0..<10) + Array(40..<50) + [99])
        late.dispose()
        for subscription in subscriptions.value { subscription.dispose() }
        #expect(!subject.hasObservers)
    }

    @Test("BehaviorSubject and share: subscription order survives removals from the middle and the front")
    func orderAfterRemovals() {
        let behavior = BehaviorSubject(value: 0)
        let source = PublishSubject<Int>()
        let shared = source.share()
        let behaviorLog = LockedBox<[Int]>([])
        let sharedLog = LockedBox<[Int]>([])
        let behaviorSubscriptions = (0..<60).map { index in behavior.skip(1).subscribe(onNext: { _ in behaviorLog.value.append(index) }) }
        let sharedSubscriptions = (0..<60).map { index in shared.subscribe(onNext: { _ in sharedLog.value.append(index) }) }
        for index in 0..<60 where index % 4 != 3 {
            behaviorSubscriptions[index].dispose()
            sharedSubscriptions[index].dispose()
            let remaining = (0..<60).filter { $0 > index || $0 % 4 == 3 }
            behaviorLog.value = []
            sharedLog.value = []
            behavior.onNext(index)
            source.onNext(index)
            #expect(behaviorLog.value == remaining)
            #expect(sharedLog.value == remaining)
        }
        for subscription in behaviorSubscriptions + sharedSubscriptions { subscription.dispose() }
        #expect(!behavior.hasObservers)
        #expect(!source.hasObservers, "share disconnects when its last observer leaves")
    }

    @Test("BehaviorSubject and share: observers disposed and subscribed during a delivery, at 40 observers")
    func changesDuringDelivery() {
        let behavior = BehaviorSubject(value: 0)
        let source = PublishSubject<Int>()
        let sources: [(Observable<Int>, (Int) -> Void)] = [
            (behavior.skip(1), { behavior.onNext($0) }),
            (source.share(), { source.onNext($0) }),
        ]
        for (observable, send) in sources {
            let log = LockedBox<[Int]>([])
            let subscriptions = LockedBox<[Disposable]>([])
            let late = LockedBox<Disposable?>(nil)
            subscriptions.value = (0..<40).map { index in
                observable.subscribe(onNext: { value in
                    log.value.append(index)
                    guard index == 5, value == 1 else { return }
                    for other in 20..<30 { subscriptions.value[other].dispose() }
                    subscriptions.value[5].dispose()
                    late.value = observable.subscribe(onNext: { _ in log.value.append(99) })
                })
            }
            send(1)
            #expect(log.value.prefix(6) == ArraySlice(0..<6))
            #expect(!log.value.contains(99), "an observer subscribed during a delivery does not receive it")
            log.value = []
            send(2)
            let remaining = (0..<40).filter { $0 != 5 && !(20..<30).contains($0) }
            #expect(log.value == remaining + [99])
            late.value?.dispose()
            for subscription in subscriptions.value { subscription.dispose() }
        }
        #expect(!behavior.hasObservers)
        #expect(!source.hasObservers)
    }
}
