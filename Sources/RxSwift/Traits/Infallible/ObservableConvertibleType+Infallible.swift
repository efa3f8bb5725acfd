extension ObservableConvertibleType {
    /// The sequence as an `Infallible`: an error is replaced by `element`, then completion.
    ///
    /// ```
    /// source: --a--b--X
    /// result: --a--b--(e|)
    /// ```
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(asObservable().catchAndReturn(element))
    }

    /// The sequence as an `Infallible`: after an error it continues with `infallible`.
    public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { _ in infallible.asObservable() })
    }

    /// The sequence as an `Infallible`: after an error it continues with the infallible
    /// `onErrorRecover` returns for it.
    public func asInfallible(onErrorRecover: @escaping (Swift.Error) -> Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { error in onErrorRecover(error).asObservable() })
    }
}
