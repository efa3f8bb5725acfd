import RxSwift

extension ControlEvent {
    /// The control's events as a `Signal`.
    public func asSignal() -> Signal<Element> {
        asSignal { _ -> Signal<Element> in
            #if DEBUG
            rxFatalError("A ControlEvent failed; its source must never fail.")
            #else
            return Signal.empty()
            #endif
        }
    }
}
