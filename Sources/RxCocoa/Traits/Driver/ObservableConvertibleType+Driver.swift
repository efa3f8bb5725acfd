import RxSwift

extension ObservableConvertibleType {
    /// The sequence as a `Driver`: delivered on the main scheduler; an error is
    /// replaced by `onErrorJustReturn`, then completion.
    ///
    /// ```
    /// source: --a--b--X
    /// result: --a--b--(j|)
    /// ```
    public func asDriver(onErrorJustReturn: Element) -> Driver<Element> {
        asSharedSequence(onErrorJustReturn: onErrorJustReturn)
    }

    /// The sequence as a `Driver`: delivered on the main scheduler; after an error it
    /// continues with `onErrorDriveWith`.
    public func asDriver(onErrorDriveWith: Driver<Element>) -> Driver<Element> {
        asSharedSequence(onErrorDriveWith: onErrorDriveWith)
    }

    /// The sequence as a `Driver`: delivered on the main scheduler; after an error it
    /// continues with the driver `onErrorRecover` returns for it.
    public func asDriver(onErrorRecover: @escaping (_ error: Swift.Error) -> Driver<Element>) -> Driver<Element> {
        asSharedSequence(onErrorRecover: onErrorRecover)
    }
}
