import RxSwift

extension ControlEvent {
    /// The control's events as a `Driver`.
    public func asDriver() -> Driver<Element> {
        asDriver { _ -> Driver<Element> in
            #if DEBUG
            rxFatalError("A ControlEvent failed; its source must never fail.")
            #else
            return Driver.empty()
            #endif
        }
    }
}
