import RxSwift

extension ControlProperty {
    /// The property's values as a `Driver`.
    public func asDriver() -> Driver<Element> {
        asDriver { _ -> Driver<Element> in
            #if DEBUG
            rxFatalError("A ControlProperty failed; its source must never fail.")
            #else
            return Driver.empty()
            #endif
        }
    }
}
