import RxSwift

extension ControlProperty {
    /// The property's values as a `Driver`.
    public func asDriver() -> Driver<Element> {
        asDriver(onErrorRecover: Driver.recoveringControlFailure(of: "ControlProperty"))
    }
}
