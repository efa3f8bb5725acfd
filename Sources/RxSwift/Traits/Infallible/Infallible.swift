/// A sequence that never fails: like `Observable`, but without error events.
///
/// Unlike `SharedSequence` (`Driver`, `Signal`) it neither shares nor replays: each
/// subscription runs the source anew.
public protocol InfallibleType: ObservableConvertibleType {}

/// A sequence that never fails: like `Observable`, but without error events.
public struct Infallible<Element>: InfallibleType, Sendable {
    private let source: Observable<Element>

    package init(_ source: Observable<Element>) {
        self.source = source
    }

    /// The sequence as an `Observable` (which never fails).
    public func asObservable() -> Observable<Element> {
        source
    }
}

extension InfallibleType {
    /// Subscribes handlers that also receive `object`, held weakly; once `object` is
    /// gone the handlers are skipped.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes element, completion and disposal handlers (there is no error to handle).
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes an event handler.
    public func subscribe(_ on: @escaping (InfallibleEvent<Element>) -> Void) -> Disposable {
        asObservable().subscribe { event in
            switch event {
            case .next(let element):
                on(.next(element))
            case .completed:
                on(.completed)
            case .error(let error):
                rxFatalErrorInDebug("An Infallible must never emit an error, got: \(error)")
            }
        }
    }
}
