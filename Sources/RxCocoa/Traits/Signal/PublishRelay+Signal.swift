import RxSwift

extension PublishRelay {
    /// The relay as a `Signal` of the elements accepted from now on, delivered on the
    /// main scheduler.
    public func asSignal() -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler))
    }
}
