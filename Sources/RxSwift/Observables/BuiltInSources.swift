// The sources built from what the caller gives: `just`, `empty`, `never`, `error`,
// `of`, `from`, `range` and `generate`. (`create`, whose source the caller writes, is
// in Create.swift.)

extension ObservableType {
    /// A sequence of one element, then completion.
    @inlinable
    public static func just(_ element: Element) -> Observable<Element> {
        // Inlinable, for the same reason as `subscribe(onNext:...)`: the caller's
        // cache gives `Just`'s type.
        Just(element)
    }

    /// A sequence of one element, then completion, both sent on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        Observable.create { observer in
            scheduler.scheduleRecursive(true) { first, recurse in
                if first {
                    observer.on(.next(element))
                    recurse(false)
                } else {
                    observer.on(.completed)
                }
            }
        }
    }

    /// A sequence that completes at once.
    public static func empty() -> Observable<Element> {
        Empty()
    }

    /// A sequence that never sends an event.
    public static func never() -> Observable<Element> {
        NeverProducer()
    }

    /// A sequence that fails at once with `error`.
    public static func error(_ error: Swift.Error) -> Observable<Element> {
        Fail(error)
    }

    /// A sequence of the given elements.
    public static func of(_ elements: Element ..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableSequence(elements, scheduler: scheduler)
    }

    /// A sequence of the elements of an array.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableSequence(array, scheduler: scheduler)
    }

    /// A sequence of the elements of a sequence.
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> where Sequence.Element == Element {
        ObservableSequence(sequence, scheduler: scheduler)
    }

    /// A sequence of the optional's value, if any.
    public static func from(optional: Element?) -> Observable<Element> {
        if let optional { return Just(optional) }
        return Empty()
    }

    /// A sequence of the optional's value, if any, sent on `scheduler`.
    public static func from(optional: Element?, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        ObservableSequence(optional.map { [$0] } ?? [], scheduler: scheduler)
    }

    /// A sequence that repeats `element` without end.
    public static func repeatElement(_ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableSequence(Swift.repeatElement(element, count: Int.max), scheduler: scheduler)
    }

    /// A sequence generated from `initialState` while `condition` holds.
    public static func generate(
        initialState: Element,
        condition: @escaping (Element) throws -> Bool,
        scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        iterate: @escaping (Element) throws -> Element
    ) -> Observable<Element> {
        Generate(initialState: initialState, condition: condition, iterate: iterate, scheduler: scheduler)
    }
}

/// An integer type usable by `range`, `timer` and `interval`.
public typealias RxAbstractInteger = FixedWidthInteger

extension ObservableType where Element: RxAbstractInteger {
    /// `count` consecutive integers from `start`.
    public static func range(start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        precondition(count >= 0, "Rivulet: range(start:count:) needs a count of 0 or more, got \(count).")
        let (_, overflow) = start.addingReportingOverflow(count == 0 ? 0 : count - 1)
        precondition(!overflow, "Rivulet: range(start: \(start), count: \(count)) overflows \(Element.self).")
        if isSameType(Element.self, Int.self), scheduler is CurrentThreadScheduler {
            // The common case gets a loop over concrete `Int`s: iterating a generic
            // `FixedWidthInteger` costs witness-table calls for every element.
            return IntRange(start: start as! Int, count: count as! Int) as! Observable<Element>
        }
        return ObservableSequence(RangeSequence(start: start, count: count), scheduler: scheduler)
    }
}

/// `range` of `Int`s on the current-thread scheduler: a loop over concrete `Int`s,
/// started through the trampoline, that checks disposal before each element and lets
/// other waiting trampoline work run between elements (see
/// `TrampolineState.takeTurn`).
final class IntRange: Producer<Int>, @unchecked Sendable {
    private let start: Int
    private let count: Int

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(start: Int, count: Int) {
        self.start = start
        self.count = count
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
        let sink = SequenceSink(observer: observer)
        let trampoline = CurrentThreadScheduler.state
        trampoline.runOrEnqueue(
            IntRangeEmission(sink: sink, observer: observer, from: start, to: start &+ count, on: trampoline))
        return sink
    }
}

/// The emission of one `IntRange` subscription: its own trampoline item, queued again
/// for each turn it takes (see `TrampolineState.takeTurn`), so taking turns allocates
/// nothing.
private final class IntRangeEmission<Observer: ObserverType>: TrampolineWork, @unchecked Sendable where Observer.Element == Int {
    private let sink: SequenceSink<Observer>
    /// The observer, when it takes elements by address; otherwise elements go through
    /// `sink.forwardNext` (its direct path, or an `Event`).
    private let byAddress: ObserverBase?
    /// The next value to emit; only the trampoline's thread touches it, so it needs no
    /// dynamic exclusivity check.
    @exclusivity(unchecked) private var next: Int
    private let end: Int
    /// The trampoline of the thread that subscribed: the emission runs only there.
    private let trampoline: TrampolineState

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(sink: SequenceSink<Observer>, observer: Observer, from start: Int, to end: Int, on trampoline: TrampolineState) {
        self.sink = sink
        self.byAddress = directPath(of: observer).flatMap { $0.takesElementAddresses ? $0 : nil }
        self.next = start
        self.end = end
        self.trampoline = trampoline
    }

    /// Emits from `next` to `end`, yielding to waiting trampoline work after an element:
    /// the rest then runs when this item's turn comes again.
    override func run() {
        if let byAddress {
            emit { value in withUnsafePointer(to: value) { byAddress.receive(at: $0) } }
        } else {
            emit { [sink] value in sink.forwardNext(value) }
        }
    }

    /// The one loop, specialised for each way of delivering an element.
    @inline(__always)
    private func emit(_ deliver: (Int) -> Void) {
        let (sink, end, trampoline) = (self.sink, self.end, self.trampoline)
        var value = next
        while value != end {
            if sink.isDisposed { return }
            deliver(value)
            value &+= 1
            if trampoline.hasWaitingItems {
                next = value
                return trampoline.takeTurn(self)
            }
        }
        sink.forwardCompleted()
    }
}

struct RangeSequence<Element: FixedWidthInteger>: Sequence, IteratorProtocol {
    var current: Element
    var remaining: Element

    init(start: Element, count: Element) {
        current = start
        remaining = count
    }

    @_specialize(where Element == Int)
    mutating func next() -> Element? {
        guard remaining > 0 else { return nil }
        let value = current
        remaining -= 1
        if remaining > 0 { current += 1 }
        return value
    }
}

@usableFromInline
final class Just<Element>: Producer<Element>, @unchecked Sendable {
    private let element: Element

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    @usableFromInline
    init(_ element: Element) {
        self.element = element
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if let direct = unretainedDirectPath(of: observer) {
            direct._withUnsafeGuaranteedRef { send(to: $0) }
        } else {
            sendEvents(to: observer)
        }
        return Disposables.create()
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer, directPath direct: ObserverBase) -> Disposable where Observer.Element == Element {
        send(to: direct)
        return Disposables.create()
    }

    /// Sends the element by address when the observer takes addresses (its operators'
    /// steps are then specialised for the element type), then completes.
    private func send(to direct: ObserverBase) {
        if direct.takesElementAddresses {
            withUnsafePointer(to: element) { direct.receive(at: $0) }
        } else {
            direct.receiveNext(element)
        }
        direct.receiveCompleted()
    }

    /// Out of line: building an `Event` needs its generic metadata, which would
    /// otherwise be looked up on every subscription.
    @inline(never)
    private func sendEvents<Observer: ObserverType>(to observer: Observer) where Observer.Element == Element {
        observer.on(.next(element))
        observer.on(.completed)
    }
}

final class Empty<Element>: Producer<Element>, @unchecked Sendable {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if let direct = unretainedDirectPath(of: observer) {
            direct._withUnsafeGuaranteedRef { $0.receiveCompleted() }
        } else {
            sendCompleted(to: observer)
        }
        return Disposables.create()
    }

    /// Out of line, for the same reason as `Just.sendEvents(to:)`.
    @inline(never)
    private func sendCompleted<Observer: ObserverType>(to observer: Observer) where Observer.Element == Element {
        observer.on(.completed)
    }
}

/// `never()`: sends nothing, and its subscription holds nothing.
final class NeverProducer<Element>: Producer<Element>, @unchecked Sendable {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        Disposables.create()
    }
}

final class Fail<Element>: Producer<Element>, @unchecked Sendable {
    private let error: Swift.Error

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(_ error: Swift.Error) {
        self.error = error
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        observer.on(.error(error))
        return Disposables.create()
    }
}

/// Emits the elements of a sequence. On the current-thread scheduler the elements go
/// out in a loop (checking disposal before each) started through the trampoline, which
/// lets other waiting trampoline work run between elements (`TrampolineState.takeTurn`);
/// on any other scheduler one element per scheduled action, as in RxSwift.
final class ObservableSequence<Elements: Sequence>: Producer<Elements.Element>, @unchecked Sendable {
    private let elements: Elements
    private let scheduler: ImmediateSchedulerType

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(_ elements: Elements, scheduler: ImmediateSchedulerType) {
        self.elements = elements
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Elements.Element {
        let sink = SequenceSink(observer: observer)
        if scheduler is CurrentThreadScheduler {
            let trampoline = CurrentThreadScheduler.state
            trampoline.runOrEnqueue(SequenceEmission(elements.makeIterator(), sink: sink, on: trampoline))
        } else {
            var iterator = elements.makeIterator()
            sink.setUpstream(scheduler.scheduleRecursive(()) { _, recurse in
                if let next = iterator.next() {
                    sink.forwardNext(next)
                    recurse(())
                } else {
                    sink.forwardCompleted()
                }
            })
        }
        return sink
    }
}

/// The emission of one `ObservableSequence` subscription on the current-thread
/// scheduler: its own trampoline item, queued again for each turn it takes (see
/// `TrampolineState.takeTurn`).
private final class SequenceEmission<Iterator: IteratorProtocol, Observer: ObserverType>: TrampolineWork, @unchecked Sendable
where Observer.Element == Iterator.Element {
    /// Where the emission stopped; only the trampoline's thread touches it, so it needs
    /// no dynamic exclusivity check.
    @exclusivity(unchecked) private var iterator: Iterator
    private let sink: SequenceSink<Observer>
    /// The trampoline of the thread that subscribed: the emission runs only there.
    private let trampoline: TrampolineState

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(_ iterator: Iterator, sink: SequenceSink<Observer>, on trampoline: TrampolineState) {
        self.iterator = iterator
        self.sink = sink
        self.trampoline = trampoline
    }

    /// Emits the rest of the sequence, yielding to waiting trampoline work after an
    /// element.
    override func run() {
        let (sink, trampoline) = (self.sink, self.trampoline)
        // A local copy in the loop, kept back when the emission takes a turn.
        var iterator = self.iterator
        while true {
            if sink.isDisposed { return }
            guard let element = iterator.next() else { break }
            sink.forwardNext(element)
            if trampoline.hasWaitingItems {
                self.iterator = iterator
                return trampoline.takeTurn(self)
            }
        }
        sink.forwardCompleted()
    }
}

final class SequenceSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {}

final class Generate<Element>: Producer<Element>, @unchecked Sendable {
    private let initialState: Element
    private let condition: (Element) throws -> Bool
    private let iterate: (Element) throws -> Element
    private let scheduler: ImmediateSchedulerType

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(initialState: Element, condition: @escaping (Element) throws -> Bool, iterate: @escaping (Element) throws -> Element, scheduler: ImmediateSchedulerType) {
        self.initialState = initialState
        self.condition = condition
        self.iterate = iterate
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = SequenceSink(observer: observer)
        let condition = self.condition
        let iterate = self.iterate
        sink.setUpstream(scheduler.scheduleRecursive((initialState, true)) { state, recurse in
            do {
                let value = state.1 ? state.0 : try iterate(state.0)
                if try condition(value) {
                    sink.forwardNext(value)
                    recurse((value, false))
                } else {
                    sink.forwardCompleted()
                }
            } catch {
                sink.forwardError(error)
            }
        })
        return sink
    }
}
