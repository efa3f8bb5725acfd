/// The base class of RxSwift's own disposable classes (`DisposeBag` among them): each
/// instance counts as one live resource in `Resources.total` while it exists.
///
/// Not meant to be subclassed outside the library; it exists so that code naming it,
/// as RxSwift's users sometimes do, compiles unchanged.
public class DisposeBase: @unchecked Sendable {
    init() {
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }
}
