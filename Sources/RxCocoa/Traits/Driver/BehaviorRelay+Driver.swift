import RxSwift

extension BehaviorRelay {
    /// The relay as a `Driver` of its current value and every later one, delivered
    /// on the main scheduler.
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}
