import Foundation

extension ObservableType {
    /// Subscribes an event handler to the sequence.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        guard let token = RxTracking.open(.subscription("subscribe(_:)")) else {
            return asObservable().subscribe(AnonymousObserver(on))
        }
        let observer = AnonymousObserver<Element> { event in
            on(event)
            if event.isStopEvent { token.dispose() }
        }
        return Disposables.create(asObservable().subscribe(observer), token)
    }

    /// Subscribes element, error, completion and disposal handlers to the sequence.
    ///
    /// An error with no `onError` handler goes to `Hooks.defaultErrorHandler`.
    @inlinable
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        // Inlinable: where the caller knows `Element`, the observer's type and its
        // conformance come from the caller's caches instead of a lookup in the
        // runtime's generic metadata on every subscription; and the element handler
        // for the address path (see OperatorKit/FastPath/AddressStep.swift) is built
        // specialised, here. It captures nothing, so making it allocates nothing.
        let observer = SubscribeObserver<Element>(
            onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed,
            nextByAddress: { element, onNext in onNext(element.assumingMemoryBound(to: Element.self).pointee) }
        )
        return observer.handle(for: asObservable().subscribe(observer, directPath: observer))
    }

    /// Subscribes handlers that receive `object` (held weakly) with each event; a
    /// handler is skipped once the object is gone.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onNext: { [weak object] in
                guard let object else { return }
                onNext?(object, $0)
            },
            onError: { [weak object] in
                guard let object else { return }
                onError?(object, $0)
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: onDisposed.map { onDisposed in
                { [weak object] in
                    guard let object else { return }
                    onDisposed(object)
                }
            }
        )
    }
}

// The state bits of `SubscribeObserver`.
private let subscribeStoppedBit = 1
private let subscribeEndedBit = 2

/// The observer of `subscribe(onNext:onError:onCompleted:onDisposed:)`: it holds the
/// handlers itself and receives elements on the direct path, so a subscription needs
/// no event closure, no `Event` per delivery and no disposable of its own for
/// `onDisposed`. Nothing is delivered after the first terminal event.
///
/// As a `Disposable` it is the subscription's end: `onDisposed` runs and the test kit's
/// token closes, once, whether the sequence terminated or the caller disposed.
@usableFromInline
final class SubscribeObserver<Element>: ObserverBase, ObserverType, Disposable, @unchecked Sendable {
    /// `onNext`, or a handler that does nothing. Not optional: a stored optional
    /// closure is copied, with a retain, before each call.
    private let nextHandler: (Element) -> Void
    /// The address path, when `onNext` is set: `nextByAddress` calls `nextHandler` with
    /// the element at an address.
    private let byAddress: Bool
    private let nextByAddress: (UnsafeRawPointer, (Element) -> Void) -> Void
    private let onError: ((Swift.Error) -> Void)?
    private let onCompleted: (() -> Void)?
    // Written in init; afterwards only the winner of the `ended` bit touches it.
    @exclusivity(unchecked) private var onDisposed: (() -> Void)?
    /// Whether an `onDisposed` was given: read where `onDisposed` itself may be
    /// changing on another thread.
    private let hasOnDisposed: Bool
    /// `nil` when not recorded: an empty array would still be retained and released.
    private let callStack: [String]?
    private let token: RxTrackingToken?
    /// `stopped`: a terminal event arrived; `ended`: `onDisposed` ran (or was due).
    private let state = InlineAtomicInt(0)

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    /// Records the call stack when `Hooks` asks for it, and opens the test kit's token
    /// when a checked scope tracks subscriptions.
    @usableFromInline
    init(
        onNext: ((Element) -> Void)?,
        onError: ((Swift.Error) -> Void)?,
        onCompleted: (() -> Void)?,
        onDisposed: (() -> Void)?,
        nextByAddress: ((UnsafeRawPointer, (Element) -> Void) -> Void)? = nil
    ) {
        switch (consume onNext, consume nextByAddress) {
        case let (.some(onNext), .some(nextByAddress)):
            byAddress = true
            self.nextByAddress = nextByAddress
            nextHandler = onNext
        case let (onNext, _):
            byAddress = false
            self.nextByAddress = { _, _ in }
            nextHandler = onNext ?? { _ in }
        }
        self.onError = onError
        self.onCompleted = onCompleted
        self.onDisposed = onDisposed
        self.hasOnDisposed = onDisposed != nil
        self.callStack = Hooks.recordCallStackOnError ? Hooks.customCaptureSubscriptionCallstack() : nil
        self.token = RxTracking.open(.subscription("subscribe(onNext:onError:onCompleted:onDisposed:)"))
    }

    /// The disposable the caller gets for `subscription`, the upstream part.
    @usableFromInline
    func handle(for subscription: Disposable) -> Disposable {
        if !hasOnDisposed, token == nil {
            // Nothing to run on disposal: the upstream subscription alone is the handle.
            // Once it is disposed nothing reaches this observer, as the sinks check.
            return subscription
        }
        return BinaryDisposable(subscription, self)
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        isSameType(T.self, Element.self)
    }

    override func receiveNext<T>(_ element: T) {
        if state.loadRelaxed() & subscribeStoppedBit != 0 { return }
        nextHandler(unsafeSameTypeCast(element, to: Element.self))
    }

    override var takesElementAddresses: Bool { byAddress }

    override func receive(at element: UnsafeRawPointer) {
        if state.loadRelaxed() & subscribeStoppedBit != 0 { return }
        nextByAddress(element, nextHandler)
    }

    override func receiveCompleted() {
        if state.fetchOr(subscribeStoppedBit) & subscribeStoppedBit != 0 { return }
        onCompleted?()
        token?.dispose()
        end()
    }

    override func receiveError(_ error: Swift.Error) {
        if state.fetchOr(subscribeStoppedBit) & subscribeStoppedBit != 0 { return }
        if let onError {
            onError(error)
        } else {
            Hooks.callDefaultErrorHandler(callStack ?? [], error, tracker: token?.tracker ?? RxTracking.current)
        }
        token?.dispose()
        end()
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if state.loadRelaxed() & subscribeStoppedBit != 0 { return }
            nextHandler(element)
        case .error(let error):
            receiveError(error)
        case .completed:
            receiveCompleted()
        }
    }

    /// The caller disposed the subscription (after its upstream part).
    @usableFromInline
    func dispose() {
        end()
        token?.dispose()
    }

    /// Runs `onDisposed`, once.
    private func end() {
        // Without onDisposed there is nothing to run, and nothing to claim.
        if !hasOnDisposed { return }
        if state.fetchOr(subscribeEndedBit) & subscribeEndedBit != 0 { return }
        let action = onDisposed
        onDisposed = nil
        action?()
    }
}
