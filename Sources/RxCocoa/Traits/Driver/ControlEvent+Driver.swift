import RxSwift

extension ControlEvent {
    /// The control's events as a `Driver`.
    public func asDriver() -> Driver<Element> {
        asDriver(onErrorRecover: Driver.recoveringControlFailure(of: "ControlEvent"))
    }
}
