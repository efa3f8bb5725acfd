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
        let source = asObservable()
            .observe(on: DriverSharingStrategy.scheduler)
            .catchAndReturn(onErrorJustReturn)
        return Driver(source)
    }

    /// The sequence as a `Driver`: delivered on the main scheduler; after an error it
    /// continues with `onErrorDriveWith`.
    public func asDriver(onErrorDriveWith: Driver<Element>) -> Driver<Element> {
        let source = asObservable()
            .observe(on: DriverSharingStrategy.scheduler)
            .catch { _ in onErrorDriveWith.asObservable() }
        return Driver(source)
    }

    /// The sequence as a `Driver`: delivered on the main scheduler; after an error it
    /// continues with the driver `onErrorRecover` returns for it.
    public func asDriver(onErrorRecover: @escaping (_ error: Swift.Error) -> Driver<Element>) -> Driver<Element> {
        let source = asObservable()
            .observe(on: DriverSharingStrategy.scheduler)
            .catch { error in onErrorRecover(error).asObservable() }
        return Driver(source)
    }
}
