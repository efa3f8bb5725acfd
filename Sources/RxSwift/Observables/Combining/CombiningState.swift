/// When a set of values goes out, and when the sequence completes.
enum CombiningRule {
    /// Each time a source emits, once every source has emitted; it completes when every
    /// source has, or when a source emits while all the others completed without ever
    /// emitting. No sources at all: one empty set of values, then completion.
    case combineLatest
    /// Each time every source has an element not yet zipped; it completes when every
    /// source has. No sources at all: completion.
    case zip
    /// As `zip`, and it also completes when an element arrives while every other source
    /// is done (RxSwift's collection zip does; its fixed arities do not).
    case zipCollection
}

/// What a combining operator delivers: the result of one set of values (made from the
/// stores when it is delivered), or the end.
enum CombiningItem {
    case next
    case completed
    case error(Swift.Error)
}

/// What the sink does after an element's transition: the first three with the lock
/// still held, on the stores; `deliver` after unlocking.
enum CombiningAction {
    /// Nothing goes out yet.
    case none
    /// A set of values goes out now, and the caller is the deliverer: it makes the
    /// result of the current values before unlocking
    /// (`CombiningValues.makeResult(queued: false)`), then delivers it.
    case deliverCurrentValues
    /// A set of values is queued behind the delivery in progress: every store keeps its
    /// part of it (`CombiningValues.keepForQueuedDelivery`).
    case keepValuesForQueue
    /// The caller is the deliverer of `item`.
    case deliver(CombiningItem)
}

/// The state machine of one combining subscription: how many elements each source
/// holds (zip: not yet zipped; combineLatest: 1 once it has a value), which sources are
/// done, and the serialised delivery. Every transition runs under the sink's lock and
/// returns what the sink does next; the values themselves live in the stores.
struct CombiningState {
    private let rule: CombiningRule
    let arity: Int
    private var counts: [Int]
    /// How many sources hold an element.
    private var filled = 0
    private var isDone: [Bool]
    private var doneCount = 0
    private(set) var isTerminated = false
    private var delivery = SerialDelivery<CombiningItem>()

    init(rule: CombiningRule, arity: Int) {
        self.rule = rule
        self.arity = arity
        counts = [Int](repeating: 0, count: arity)
        isDone = [Bool](repeating: false, count: arity)
    }

    /// Source `index` stored an element.
    mutating func next(at index: Int) -> CombiningAction {
        if isTerminated { return .none }
        switch step(at: index) {
        case .nothing:
            return .none
        case .values:
            if delivery.claim() { return .deliverCurrentValues }
            delivery.enqueue(.next)
            return .keepValuesForQueue
        case .completed:
            return offer(.completed)
        }
    }

    /// Source `index` completed: the sequence completes once all sources did.
    mutating func completed(at index: Int) -> CombiningAction {
        if isTerminated || isDone[index] { return .none }
        isDone[index] = true
        doneCount += 1
        if doneCount == arity {
            isTerminated = true
            return offer(.completed)
        }
        return .none
    }

    /// A source failed: the error goes out and nothing follows.
    mutating func fail(_ error: Swift.Error) -> CombiningAction {
        if isTerminated { return .none }
        isTerminated = true
        return offer(.error(error))
    }

    /// The deliverer finished delivering the current values: `true` when items were
    /// queued meanwhile (it takes them with `nextDelivery`); otherwise the delivery is
    /// idle again.
    mutating func release() -> Bool {
        delivery.release()
    }

    /// The deliverer finished an item: the next one queued meanwhile (for `.next`, the
    /// caller makes the result of the oldest queued set with the lock still held), or
    /// `nil` when the delivery is idle again.
    mutating func nextDelivery() -> CombiningItem? {
        delivery.next()
    }

    /// The result selector threw while delivering: nothing is accepted or delivered any more.
    mutating func abortDelivery() {
        isTerminated = true
        delivery.close()
    }

    private mutating func offer(_ item: CombiningItem) -> CombiningAction {
        if let item = delivery.offer(item) { return .deliver(item) }
        return .none
    }

    private enum Step {
        case nothing
        case values
        case completed
    }

    @inline(__always)
    private mutating func step(at index: Int) -> Step {
        switch rule {
        case .combineLatest:
            if counts[index] == 0 {
                counts[index] = 1
                filled += 1
            }
            if filled == arity { return .values }
            // A source that can never be joined by the others (they are all done
            // without it having had a value) completes the sequence, as in RxSwift.
            let othersDone = doneCount - (isDone[index] ? 1 : 0)
            if othersDone == arity - 1 {
                isTerminated = true
                return .completed
            }
            return .nothing
        case .zip, .zipCollection:
            counts[index] += 1
            if counts[index] == 1 { filled += 1 }
            if filled == arity {
                for source in 0..<arity {
                    counts[source] -= 1
                    if counts[source] == 0 { filled -= 1 }
                }
                return .values
            }
            if case .zipCollection = rule, doneCount == arity - 1 {
                isTerminated = true
                return .completed
            }
            return .nothing
        }
    }
}
