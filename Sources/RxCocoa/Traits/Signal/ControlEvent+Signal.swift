import RxSwift

extension ControlEvent {
    /// The control's events as a `Signal`.
    public func asSignal() -> Signal<Element> {
        asSignal(onErrorRecover: Signal.recoveringControlFailure(of: "ControlEvent"))
    }
}
