import RxSwift

extension ObservableConvertibleType {
    /// The sequence as a `Signal`: delivered on the main scheduler; an error is
    /// replaced by `onErrorJustReturn`, then completion.
    public func asSignal(onErrorJustReturn: Element) -> Signal<Element> {
        asSharedSequence(onErrorJustReturn: onErrorJustReturn)
    }

    /// The sequence as a `Signal`: delivered on the main scheduler; after an error it
    /// continues with `onErrorSignalWith`.
    public func asSignal(onErrorSignalWith: Signal<Element>) -> Signal<Element> {
        asSharedSequence(onErrorDriveWith: onErrorSignalWith)
    }

    /// The sequence as a `Signal`: delivered on the main scheduler; after an error it
    /// continues with the signal `onErrorRecover` returns for it.
    public func asSignal(onErrorRecover: @escaping (_ error: Swift.Error) -> Signal<Element>) -> Signal<Element> {
        asSharedSequence(onErrorRecover: onErrorRecover)
    }
}
