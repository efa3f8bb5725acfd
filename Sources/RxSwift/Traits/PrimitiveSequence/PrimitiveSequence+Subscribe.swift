extension PrimitiveSequenceType {
    /// Subscribes `handle` to the first event only: the base of each trait's
    /// `subscribe(_:)`, which turns that event into the trait's own outcome. Later
    /// events (a `Single`'s completion after its element) are dropped.
    func subscribeToOutcome(_ handle: @escaping (Event<Element>) -> Void) -> Disposable {
        primitiveSequence.asObservable().subscribe(OutcomeObserver(handle))
    }
}

/// Hands the first event it receives to `handle` and drops the rest.
private final class OutcomeObserver<Element>: EventObserver<Element>, @unchecked Sendable {
    private let handle: (Event<Element>) -> Void
    private let stopped = AtomicFlag()

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    init(_ handle: @escaping (Event<Element>) -> Void) {
        self.handle = handle
    }

    override func on(_ event: Event<Element>) {
        if stopped.testAndSet() { return }
        handle(event)
    }
}

/// What every trait's `subscribe(on...:onDisposed:)` shares: an error goes to the
/// `onError` handler, or without one to `Hooks.defaultErrorHandler` with the call stack
/// of the subscription; `onDisposed` runs once, when the outcome has been handled or
/// the subscription is disposed.
struct OutcomeHandlers {
    private let onError: ((Swift.Error) -> Void)?
    private let callStack: [String]
    private let disposable: Disposable

    init(onError: ((Swift.Error) -> Void)?, onDisposed: (() -> Void)?) {
        self.onError = onError
        callStack = Hooks.recordCallStackOnError ? Hooks.customCaptureSubscriptionCallstack() : []
        disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
    }

    /// Hands `error` to its handler.
    func fail(_ error: Swift.Error) {
        if let onError {
            onError(error)
        } else {
            Hooks.callDefaultErrorHandler(callStack, error)
        }
    }

    /// Runs `onDisposed`, once the outcome has been handled.
    func finish() {
        disposable.dispose()
    }

    /// The subscription to return: disposing it also runs `onDisposed`.
    func subscription(_ subscription: Disposable) -> Disposable {
        Disposables.create(subscription, disposable)
    }
}

/// `handler` with `object`, held weakly, passed first; once `object` is gone, calls are
/// skipped. For the `subscribe(with:...)` methods of the traits.
package func weakly<Object: AnyObject, Value>(_ object: Object, _ handler: ((Object, Value) -> Void)?) -> (Value) -> Void {
    { [weak object] value in
        guard let object else { return }
        handler?(object, value)
    }
}

/// `handler` with `object`, held weakly; once `object` is gone, calls are skipped.
package func weakly<Object: AnyObject>(_ object: Object, _ handler: ((Object) -> Void)?) -> () -> Void {
    { [weak object] in
        guard let object else { return }
        handler?(object)
    }
}
