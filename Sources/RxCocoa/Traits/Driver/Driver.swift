import RxSwift

/// A shared sequence for user interfaces: it never fails, delivers on the main
/// scheduler and replays its latest element to each new observer
/// (`share(replay: 1, scope: .whileConnected)`).
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>

/// The sharing strategy of `Driver`.
public struct DriverSharingStrategy: SharingStrategyProtocol {
    /// `SharingScheduler.make()`: the main scheduler unless mocked.
    public static var scheduler: SchedulerType {
        SharingScheduler.make()
    }

    /// Shares with a replay of the latest element while connected.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// The sequence as a `Driver`.
    public func asDriver() -> Driver<Element> {
        asSharedSequence()
    }
}
