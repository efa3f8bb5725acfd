import Foundation
import RxSwift

/// What RxTimelane logs to, reduced to what the signature of `lane` names.
public enum Timelane {
    /// The kinds of entry a lane shows.
    public enum LaneType: CaseIterable, Hashable {
        case subscription, event
    }

    /// Where a lane's entries go.
    public typealias Logger = (String) -> Void

    /// The logger used unless one is given: nothing is kept.
    public static let defaultLogger: Logger = { _ in }
}

extension ObservableType {
    /// RxTimelane's operator, with its labels and defaults: reports each subscription
    /// and event to `logger`.
    public func lane(
        _ name: String,
        filter: Set<Timelane.LaneType> = Set(Timelane.LaneType.allCases),
        file: StaticString = #file,
        function: StaticString = #function,
        line: UInt = #line,
        transformValue transform: @escaping (_ value: Element) -> String = { String(describing: $0) },
        logger: @escaping Timelane.Logger = Timelane.defaultLogger
    ) -> Observable<Element> {
        let events = filter.contains(.event)
        return self.do(
            onNext: { if events { logger("\(name): \(transform($0))") } },
            onError: { if events { logger("\(name): failed with \($0)") } },
            onCompleted: { if events { logger("\(name): completed") } },
            onSubscribe: { if filter.contains(.subscription) { logger("\(name): subscribed") } }
        )
    }
}
