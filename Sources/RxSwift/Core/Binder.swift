/// An observer that applies each element to a target object on a scheduler: the
/// target is held weakly, so a binding never keeps it alive.
///
/// Errors are programming errors (debug builds stop); completion is ignored.
///
/// ```swift
/// let isHidden = Binder(label) { label, hidden in label.isHidden = hidden }
/// valid.bind(to: isHidden)
/// ```
public struct Binder<Value>: ObserverType {
    public typealias Element = Value

    private let binding: (Event<Value>) -> Void

    /// A binder that runs `binding(target, element)` on `scheduler` for each element
    /// while `target` lives.
    ///
    /// - parameter target: The object the elements are applied to, held weakly.
    /// - parameter scheduler: Where the binding runs; the main scheduler by default.
    /// - parameter binding: Applies an element to the target.
    public init<Target: AnyObject>(
        _ target: Target,
        scheduler: ImmediateSchedulerType = MainScheduler(),
        binding: @escaping (Target, Value) -> Void
    ) {
        self.binding = { [weak target] event in
            switch event {
            case .next(let element):
                _ = scheduler.schedule(element) { [weak target] element in
                    if let target {
                        binding(target, element)
                    }
                    return Disposables.create()
                }
            case .error(let error):
                rxFatalErrorInDebug("Binding error: \(error)")
            case .completed:
                break
            }
        }
    }

    /// Applies a `next` element; ignores completion.
    public func on(_ event: Event<Value>) {
        binding(event)
    }

    /// The binder as an `AnyObserver`.
    public func asObserver() -> AnyObserver<Value> {
        AnyObserver(eventHandler: on)
    }
}
