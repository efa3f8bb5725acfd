/// A receiver of the events of an observable sequence.
public protocol ObserverType {
    /// The type of the elements the observer receives.
    associatedtype Element
    /// Delivers one event.
    func on(_ event: Event<Element>)
}

extension ObserverType {
    /// Delivers `next(element)`.
    public func onNext(_ element: Element) {
        on(.next(element))
    }

    /// Delivers `completed`.
    public func onCompleted() {
        on(.completed)
    }

    /// Delivers `error(error)`.
    public func onError(_ error: Swift.Error) {
        on(.error(error))
    }
}

/// A type-erased observer.
public struct AnyObserver<Element>: ObserverType {
    /// The closure that handles each event.
    public typealias EventHandler = (Event<Element>) -> Void

    private let observer: EventHandler

    /// Creates an observer from an event handler.
    public init(eventHandler: @escaping EventHandler) {
        self.observer = eventHandler
    }

    /// Wraps another observer.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        self.observer = observer.on
    }

    public func on(_ event: Event<Element>) {
        observer(event)
    }

    /// The observer itself.
    public func asObserver() -> AnyObserver<Element> {
        self
    }
}

extension ObserverType {
    /// The observer, type-erased.
    public func asObserver() -> AnyObserver<Element> {
        AnyObserver(self)
    }

    /// An observer of `Result` that transforms each element before passing it on.
    public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element) -> AnyObserver<Result> {
        AnyObserver { event in
            self.on(event.map(transform))
        }
    }
}

/// Observer with closure-based handling and the Rx grammar enforced: nothing is
/// delivered after the first terminal event.
final class AnonymousObserver<Element>: ObserverBase, ObserverType, @unchecked Sendable {
    private let handler: (Event<Element>) -> Void
    private let elementHandler: ((Element) -> Void)?
    private let stopped = InlineAtomicInt(0)

    /// Never called: fills the superclass's `init()` slot (see `rxUnusedInitializer`).
    override convenience init() { rxUnusedInitializer() }

    /// An observer of events; `elementHandler`, when given, receives the elements
    /// directly (it must do what `handler` does for `.next`).
    init(_ handler: @escaping (Event<Element>) -> Void, elementHandler: ((Element) -> Void)? = nil) {
        self.handler = handler
        self.elementHandler = elementHandler
    }

    override func acceptsElements<T>(of type: T.Type) -> Bool {
        elementHandler != nil && isSameType(T.self, Element.self)
    }

    override func receiveNext<T>(_ element: T) {
        if stopped.loadRelaxed() != 0 { return }
        elementHandler?(unsafeSameTypeCast(element, to: Element.self))
    }

    override func receiveCompleted() {
        on(.completed)
    }

    override func receiveError(_ error: Swift.Error) {
        on(.error(error))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if stopped.loadRelaxed() != 0 { return }
            handler(event)
        case .error, .completed:
            if stopped.fetchOr(1) != 0 { return }
            handler(event)
        }
    }
}
