import RxCocoa
import RxRelay
import RxSwift

/// A counter screen's view model: taps in, the count's label out as a Driver.
public final class CounterViewModel {
    public let increment = PublishRelay<Void>()
    public let count: BehaviorRelay<Int>
    public let label: Driver<String>
    private let disposeBag = DisposeBag()

    public init(start: Int = 0) {
        let count = BehaviorRelay(value: start)
        self.count = count
        label = count.asDriver().map { "Taps: \($0)" }
        increment
            .withLatestFrom(count)
            .map { $0 + 1 }
            .bind(to: count)
            .disposed(by: disposeBag)
    }
}
