extension ObservableType {
    /// Projects each element to an observable sequence and passes on the elements of the
    /// most recent one only: a new projection disposes the previous sequence.
    ///
    /// ```
    /// source: --a--------b------|
    /// flatMapLatest { x in -x-x-x-x... }
    /// result: ---a-a-a-a--b-b-b-b...
    /// ```
    ///
    /// It completes once the source and the latest projected sequence have completed; any
    /// error, or an error thrown by `selector`, ends it.
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
        -> Observable<Source.Element> {
        PlainProducer(asObservable(), FlatMapLatest(selector: selector))
    }

    /// Projects each element to an infallible and follows the most recent one, as the
    /// `Observable` form does; the result is an `Infallible`, so a chain that switches to
    /// infallibles stays one.
    ///
    /// As in RxSwift, the result only wraps the `Observable` form: an error of this
    /// sequence, or one thrown by `selector`, still reaches the subscriber. Use it on
    /// sources that cannot fail.
    public func flatMapLatest<Source: InfallibleType>(_ selector: @escaping (Element) throws -> Source)
        -> Infallible<Source.Element> {
        Infallible(PlainProducer(asObservable(), FlatMapLatest(selector: selector)))
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Passes on the elements of the most recent inner observable sequence: each new inner
    /// sequence disposes the previous one.
    ///
    /// It completes once the outer sequence and the latest inner one have completed.
    public func switchLatest() -> Observable<Element.Element> {
        PlainProducer(asObservable(), FlatMapLatest(selector: { $0 }))
    }
}

/// The state of one switch subscription. Every transition runs under the sink's lock and
/// returns the event to deliver after unlocking (or `nil`).
struct SwitchState<Element> {
    /// The identifier of the latest inner sequence; events of older ones are dropped.
    private var latest = 0
    /// The latest inner sequence has not completed yet.
    private var hasLatest = false
    private var outerCompleted = false
    private(set) var isTerminated = false
    var delivery = SerialDelivery<Event<Element>>()

    /// A new inner sequence replaces the previous one; returns its identifier.
    mutating func switchToNext() -> Int? {
        if isTerminated { return nil }
        latest &+= 1
        hasLatest = true
        return latest
    }

    mutating func innerNext(_ element: Element, from id: Int) -> Event<Element>? {
        if isTerminated || id != latest { return nil }
        return delivery.offer(.next(element))
    }

    mutating func innerCompleted(_ id: Int) -> Event<Element>? {
        if isTerminated || id != latest { return nil }
        hasLatest = false
        if outerCompleted {
            isTerminated = true
            return delivery.offer(.completed)
        }
        return nil
    }

    mutating func innerFailed(_ error: Swift.Error, from id: Int) -> Event<Element>? {
        if id != latest { return nil }
        return fail(error)
    }

    mutating func outerDone() -> Event<Element>? {
        if isTerminated { return nil }
        outerCompleted = true
        if !hasLatest {
            isTerminated = true
            return delivery.offer(.completed)
        }
        return nil
    }

    mutating func fail(_ error: Swift.Error) -> Event<Element>? {
        if isTerminated { return nil }
        isTerminated = true
        return delivery.offer(.error(error))
    }
}

/// `flatMapLatest`'s and `switchLatest`'s selector.
struct FlatMapLatest<SourceElement, Inner: ObservableConvertibleType>: PlainOperator {
    typealias Element = Inner.Element

    let selector: (SourceElement) throws -> Inner

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<SourceElement>) -> Disposable where Observer.Element == Element {
        let sink = SwitchSink(self, observer: observer)
        sink.setUpstream(Disposables.create(sink.outerSubscription, sink.innerSubscription))
        sink.outerSubscription.setDisposable(source.subscribe(sink))
        return sink
    }
}

final class SwitchSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>:
    PlainSink<FlatMapLatest<SourceElement, Inner>, Observer>, ObserverType, @unchecked Sendable where Inner.Element == Observer.Element {
    typealias Output = Observer.Element

    private let state = LockedState(SwitchState<Output>())
    let outerSubscription = SingleAssignmentDisposable()
    /// The latest inner subscription; assigning a new one disposes the previous.
    let innerSubscription = SerialDisposable()

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let inner: Inner
            do {
                inner = try parameters.selector(element)
            } catch {
                fail(error)
                return
            }
            guard let id = state.withLock({ $0.switchToNext() }) else { return }
            let subscription = SingleAssignmentDisposable()
            innerSubscription.disposable = subscription
            subscription.setDisposable(inner.asObservable().subscribe(
                SwitchInnerObserver(sink: self, id: id, subscription: subscription)))
        case .error(let error):
            fail(error)
        case .completed:
            outerSubscription.dispose()
            let event = state.withLock { $0.outerDone() }
            if let event { deliver(event) }
        }
    }

    func innerNext(_ element: Output, from id: Int) {
        let event = state.withLock { $0.innerNext(element, from: id) }
        if let event { deliver(event) }
    }

    func innerCompleted(_ id: Int) {
        let event = state.withLock { $0.innerCompleted(id) }
        if let event { deliver(event) }
    }

    func innerFailed(_ error: Swift.Error, from id: Int) {
        let event = state.withLock { $0.innerFailed(error, from: id) }
        if let event { deliver(event) }
    }

    private func fail(_ error: Swift.Error) {
        let event = state.withLock { $0.fail(error) }
        if let event { deliver(event) }
    }

    /// Delivers `first`, then whatever was queued behind it meanwhile.
    private func deliver(_ first: Event<Output>) {
        deliverInOrder(first, next: { state.withLock { $0.delivery.next() } }, step: { forwardInOrder($0) })
    }
}

final class SwitchInnerObserver<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>: EventObserver<Observer.Element>,
    @unchecked Sendable where Inner.Element == Observer.Element {
    private let sink: SwitchSink<SourceElement, Inner, Observer>
    private let id: Int
    private let subscription: SingleAssignmentDisposable

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(sink: SwitchSink<SourceElement, Inner, Observer>, id: Int, subscription: SingleAssignmentDisposable) {
        self.sink = sink
        self.id = id
        self.subscription = subscription
    }

    override func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next(let element):
            sink.innerNext(element, from: id)
        case .error(let error):
            subscription.dispose()
            sink.innerFailed(error, from: id)
        case .completed:
            subscription.dispose()
            sink.innerCompleted(id)
        }
    }
}
