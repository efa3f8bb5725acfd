// merge, flatMap, flatMapFirst, concatMap, merge(maxConcurrent:) and concat() on an
// observable of observables: one sink, three policies for when an inner sequence is
// subscribed.

extension ObservableType {
    /// Projects each element to an observable sequence and merges the elements of all of
    /// them, in the order they arrive.
    ///
    /// ```
    /// source: --1-----2-----------|
    /// flatMap { x in --x--x| (cold) }
    /// result: ----1--1--2--2------|
    /// ```
    ///
    /// It completes once the source and every projected sequence have completed; any
    /// error, or an error thrown by `selector`, ends it.
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
        -> Observable<Source.Element> {
        MergeProducer(source: asObservable(), selector: selector, policy: .unlimited)
    }

    /// Projects an element to an observable sequence only while no projected sequence is
    /// running, and passes on that sequence's elements; elements that arrive meanwhile are
    /// dropped (and `selector` is not called for them).
    ///
    /// ```
    /// source: --1--2-----3--|
    /// flatMapFirst { x in x-----x| (cold) }
    /// result: --1-----1--3-----3|
    /// ```
    public func flatMapFirst<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
        -> Observable<Source.Element> {
        MergeProducer(source: asObservable(), selector: selector, policy: .firstOnly)
    }

    /// Projects each element to an observable sequence and concatenates them: each
    /// projected sequence is subscribed once the previous one completed.
    ///
    /// `selector` runs when the element arrives, even when its sequence has to wait.
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
        -> Observable<Source.Element> {
        MergeProducer(source: asObservable(), selector: selector, policy: .limited(1))
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Merges the elements of every inner observable sequence, in the order they arrive.
    ///
    /// It completes once the outer sequence and every inner one have completed.
    public func merge() -> Observable<Element.Element> {
        MergeProducer(source: asObservable(), selector: { $0 }, policy: .unlimited)
    }

    /// Merges the elements of the inner observable sequences, subscribed to at most
    /// `maxConcurrent` at a time; the others wait, in order, for a running one to complete.
    ///
    /// - parameter maxConcurrent: The largest number of inner sequences subscribed at
    ///   once; at least 1.
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        precondition(maxConcurrent > 0, "Rivulet: merge(maxConcurrent:) needs at least 1, got \(maxConcurrent).")
        return MergeProducer(source: asObservable(), selector: { $0 }, policy: .limited(maxConcurrent))
    }

    /// Concatenates the inner observable sequences: each one is subscribed once the
    /// previous one completed successfully.
    public func concat() -> Observable<Element.Element> {
        merge(maxConcurrent: 1)
    }
}

extension ObservableType {
    /// Merges the elements of every sequence in `sources`, in the order they arrive.
    ///
    /// ```
    /// a:      --1-----3--|
    /// b:      ----2-----4---|
    /// merge(a, b)
    /// result: --1-2---3-4---|
    /// ```
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Observable<Element>
        where Collection.Element == Observable<Element> {
        MergeArrayProducer(sources: Array(sources))
    }

    /// Merges the elements of every sequence in `sources`, in the order they arrive.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        MergeArrayProducer(sources: sources)
    }

    /// Merges the elements of every sequence in `sources`, in the order they arrive.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        MergeArrayProducer(sources: sources)
    }
}

/// When an inner sequence is subscribed.
enum MergePolicy {
    /// As soon as it is projected (flatMap, merge).
    case unlimited
    /// Only when no inner sequence is running; others are dropped (flatMapFirst).
    case firstOnly
    /// At most this many at once; the rest wait in a queue (merge(maxConcurrent:), concatMap).
    case limited(Int)
}

/// The state of one merge subscription. Every transition runs under the sink's lock and
/// returns what to do after unlocking.
struct MergeState<Inner, Element> {
    /// Inner sequences subscribed (or being subscribed) and not completed yet.
    private(set) var active = 0
    /// The outer sequence completed.
    private var outerCompleted = false
    private(set) var isTerminated = false
    /// Inner sequences waiting for a free slot (limited policy only).
    private var waiting = Queue<Inner>()
    /// A thread is subscribing waiting sequences one after another. Completions on that
    /// thread (or any other) leave the next subscription to it: a chain of sequences that
    /// complete during their own subscription becomes a loop, not a recursion.
    private var pumping = false
    var delivery = FanInDelivery<Event<Element>>()

    /// Unlimited: counts a new inner sequence; `false` once terminated.
    mutating func admit() -> Bool {
        if isTerminated { return false }
        active += 1
        return true
    }

    /// First-only: takes the one slot if it is free.
    mutating func admitIfIdle() -> Bool {
        if isTerminated || active > 0 { return false }
        active += 1
        return true
    }

    /// Limited: queues an inner sequence until a slot is free.
    mutating func enqueue(_ inner: Inner) {
        if isTerminated { return }
        waiting.enqueue(inner)
    }

    /// Limited: when nobody is pumping and a slot is free, takes the next waiting
    /// sequence and makes the caller the pumping thread.
    mutating func startPumping(limit: Int) -> Inner? {
        if pumping || isTerminated || active >= limit { return nil }
        guard let inner = waiting.dequeue() else { return nil }
        active += 1
        pumping = true
        return inner
    }

    /// Limited, on the pumping thread after a subscription: the next sequence to
    /// subscribe, or the end of pumping (with a completion to deliver, if that is now due).
    mutating func continuePumping(limit: Int) -> MergePumpStep<Inner, Element> {
        if !isTerminated && active < limit, let inner = waiting.dequeue() {
            active += 1
            return .subscribe(inner)
        }
        pumping = false
        return .stop(completeIfDone())
    }

    /// An inner sequence completed: `true` when that ends the merge, and the caller
    /// then delivers the completion (`offerCompletion`). No `Event` here, so that the
    /// common case costs no lookup of its metadata.
    mutating func innerCompletedEnds() -> Bool {
        active -= 1
        return endIfDone()
    }

    /// The completion, once `innerCompletedEnds` said the merge ended.
    mutating func offerCompletion() -> Event<Element>? {
        delivery.offer(.completed)
    }

    /// The outer sequence completed.
    mutating func outerDone() -> Event<Element>? {
        outerCompleted = true
        return completeIfDone()
    }

    /// An error from the outer sequence, an inner one or the selector.
    mutating func fail(_ error: Swift.Error) -> Event<Element>? {
        if isTerminated { return nil }
        isTerminated = true
        waiting.removeAll()
        return delivery.offer(.error(error))
    }

    private mutating func completeIfDone() -> Event<Element>? {
        endIfDone() ? offerCompletion() : nil
    }

    /// Ends the merge when the outer and every inner sequence have completed.
    private mutating func endIfDone() -> Bool {
        if isTerminated || !outerCompleted || active > 0 || pumping || !waiting.isEmpty { return false }
        isTerminated = true
        return true
    }
}

enum MergePumpStep<Inner, Element> {
    case subscribe(Inner)
    case stop(Event<Element>?)
}

final class MergeProducer<SourceElement, Inner: ObservableConvertibleType>: Producer<Inner.Element>, @unchecked Sendable {
    private let source: Observable<SourceElement>
    private let selector: (SourceElement) throws -> Inner
    private let policy: MergePolicy

    init(source: Observable<SourceElement>, selector: @escaping (SourceElement) throws -> Inner, policy: MergePolicy) {
        self.source = source
        self.selector = selector
        self.policy = policy
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Inner.Element {
        let sink = MergeSink(selector: selector, policy: policy, observer: observer)
        sink.setUpstream(sink.group)
        if sink.group.insert(sink.outerSubscription) != nil {
            sink.outerSubscription.setDisposable(source.subscribe(sink))
        }
        return sink
    }
}

/// `merge(a, b, ...)`: every source is an inner sequence from the start; there is no
/// outer sequence (it counts as completed once all are subscribed).
final class MergeArrayProducer<Element>: Producer<Element>, @unchecked Sendable {
    private let sources: [Observable<Element>]

    init(sources: [Observable<Element>]) {
        self.sources = sources
    }

    override func run<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let sink = MergeSink<Observable<Element>, Observable<Element>, Observer>(
            selector: { $0 }, policy: .unlimited, observer: observer)
        sink.setUpstream(sink.group)
        sink.run(sources: sources)
        return sink
    }
}

final class MergeSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable where Inner.Element == Observer.Element {
    typealias Element = SourceElement
    typealias Output = Observer.Element

    private let selector: (SourceElement) throws -> Inner
    private let policy: MergePolicy
    private let lock = Lock.make()
    // Guarded by `lock`: no dynamic exclusivity checks needed (nor paid per event).
    @exclusivity(unchecked)
    private var state = MergeState<Inner, Output>()
    /// The outer subscription and every running inner one.
    let group = CompositeDisposable()
    let outerSubscription = SingleAssignmentDisposable()
    /// The downstream observer's direct path, if it has one: inner elements go to it as
    /// they were received, with no copy and no lookup of the element type.
    private let direct: DirectObserver?

    init(selector: @escaping (SourceElement) throws -> Inner, policy: MergePolicy, observer: Observer) {
        self.selector = selector
        self.policy = policy
        direct = directPath(of: observer)
        super.init(observer: observer)
    }

    // MARK: outer sequence

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        T.self == SourceElement.self
    }

    override func receiveNext<T>(_ element: T) {
        outerNext(unsafeBitCast(element, to: SourceElement.self))
    }

    override func receiveCompleted() {
        outerCompleted()
    }

    override func receiveError(_ error: Swift.Error) {
        fail(error)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            outerNext(element)
        case .error(let error):
            fail(error)
        case .completed:
            outerCompleted()
        }
    }

    private func outerNext(_ element: SourceElement) {
            switch policy {
            case .unlimited:
                let inner: Inner
                do {
                    inner = try selector(element)
                } catch {
                    fail(error)
                    return
                }
                guard lock.withLock({ state.admit() }) else { return }
                subscribeInner(inner)
            case .firstOnly:
                guard lock.withLock({ state.admitIfIdle() }) else { return }
                let inner: Inner
                do {
                    inner = try selector(element)
                } catch {
                    fail(error)
                    return
                }
                subscribeInner(inner)
            case .limited(let limit):
                let inner: Inner
                do {
                    inner = try selector(element)
                } catch {
                    fail(error)
                    return
                }
                lock.withLock { state.enqueue(inner) }
                pump(limit: limit)
            }
    }

    private func outerCompleted() {
        outerSubscription.dispose()
        let event = lock.withLock { state.outerDone() }
        if let event { deliver(event) }
    }

    /// Static merge: all sources are inner sequences, then the (absent) outer one is done.
    func run(sources: [Inner]) {
        let admitted = lock.withLock { () -> Bool in
            for _ in sources where !state.admit() { return false }
            return true
        }
        if admitted {
            for source in sources {
                subscribeInner(source)
            }
        }
        let event = lock.withLock { state.outerDone() }
        if let event { deliver(event) }
    }

    // MARK: inner sequences

    private func subscribeInner(_ inner: Inner) {
        let subscription = SingleAssignmentDisposable()
        guard let key = group.insert(subscription) else { return }
        subscription.setDisposable(inner.asObservable().subscribe(MergeInnerObserver(sink: self, key: key)))
    }

    /// Subscribes waiting sequences while slots are free; only one thread does it at a time.
    private func pump(limit: Int) {
        guard var inner = lock.withLock({ state.startPumping(limit: limit) }) else { return }
        while true {
            subscribeInner(inner)
            switch lock.withLock({ state.continuePumping(limit: limit) }) {
            case .subscribe(let next):
                inner = next
            case .stop(let event):
                if let event { deliver(event) }
                return
            }
        }
    }

    /// An inner element, of type `Output` (`T` is that type, as the inner observer
    /// checked): delivered at once, with no `Event` built, unless another delivery is in
    /// progress (then it queues behind it).
    @inline(__always)
    func innerNext<T>(_ element: T) {
        lock.lock()
        if state.isTerminated {
            lock.unlock()
            return
        }
        guard state.delivery.claim() else {
            queueBehindDelivery(element)
            return
        }
        lock.unlock()
        if let direct {
            if !isDisposed { direct.receiveNext(element) }
        } else {
            forwardNextOutOfLine(element)
        }
        lock.lock()
        let more = state.delivery.release()
        lock.unlock()
        if more { deliverQueued() }
    }

    /// Under the lock, which it releases: queues `element` behind the delivery in
    /// progress. Out of line, so that the `Event` it builds costs its metadata lookup
    /// here only, not on every element.
    @inline(never)
    private func queueBehindDelivery<T>(_ element: T) {
        state.delivery.enqueue(.next(unsafeBitCast(element, to: Output.self)))
        lock.unlock()
    }

    /// Out of line, so that the lookup of `Output` this needs is not made on every
    /// element of the direct path.
    @inline(never)
    private func forwardNextOutOfLine<T>(_ element: T) {
        forwardNext(unsafeBitCast(element, to: Output.self))
    }

    /// Delivers what was queued behind a delivery that has just ended (and kept the
    /// delivery busy for this caller).
    @inline(never)
    private func deliverQueued() {
        guard let next = lock.withLock({ state.delivery.next() }) else { return }
        deliver(next)
    }

    func innerCompleted(_ key: CompositeDisposable.DisposeKey) {
        group.remove(for: key)
        if lock.withLock({ state.innerCompletedEnds() }) {
            deliverCompletion()
            return
        }
        if case .limited(let limit) = policy {
            pump(limit: limit)
        }
    }

    /// Delivers the completion once the last sequence ended. Out of line, so that the
    /// `Event` it builds costs its metadata lookup here only, not on every inner
    /// completion. Nothing can be offered between the two locked steps: the merge is
    /// terminated by the first, so later elements and errors are dropped.
    @inline(never)
    private func deliverCompletion() {
        if let event = lock.withLock({ state.offerCompletion() }) { deliver(event) }
    }

    func fail(_ error: Swift.Error) {
        let event = lock.withLock { state.fail(error) }
        if let event { deliver(event) }
    }

    /// Delivers `first`, then whatever was queued behind it meanwhile.
    private func deliver(_ first: Event<Output>) {
        deliverInOrder(first, lock: lock, next: { state.delivery.next() }, step: { forwardInOrder($0) })
    }
}

final class MergeInnerObserver<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: DirectObserver, ObserverType,
    @unchecked Sendable where Inner.Element == Observer.Element {
    private let sink: MergeSink<SourceElement, Inner, Observer>
    private let key: CompositeDisposable.DisposeKey

    init(sink: MergeSink<SourceElement, Inner, Observer>, key: CompositeDisposable.DisposeKey) {
        self.sink = sink
        self.key = key
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        T.self == Observer.Element.self
    }

    override func receiveNext<T>(_ element: T) {
        sink.innerNext(element)
    }

    override func receiveCompleted() {
        sink.innerCompleted(key)
    }

    override func receiveError(_ error: Swift.Error) {
        sink.fail(error)
    }

    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next(let element):
            sink.innerNext(element)
        case .error(let error):
            sink.fail(error)
        case .completed:
            sink.innerCompleted(key)
        }
    }
}
