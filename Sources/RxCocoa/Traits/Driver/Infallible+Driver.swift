import RxSwift

extension InfallibleType {
    /// The infallible as a `Driver`, delivered on the main scheduler.
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}
