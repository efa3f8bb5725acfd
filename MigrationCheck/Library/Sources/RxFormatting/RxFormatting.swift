import RxRelay
import RxSwift

extension ObservableType where Element == Int {
    /// "1 item", "2 items": the count as a label.
    public func itemCountLabel() -> Observable<String> {
        map { $0 == 1 ? "1 item" : "\($0) items" }
    }
}

/// Collects the values accepted into a relay, newest last.
public final class History<Value> {
    public let values = BehaviorRelay<[Value]>(value: [])
    private let disposeBag = DisposeBag()

    public init(of source: Observable<Value>) {
        source
            .scan([Value]()) { $0 + [$1] }
            .bind(to: values)
            .disposed(by: disposeBag)
    }
}
