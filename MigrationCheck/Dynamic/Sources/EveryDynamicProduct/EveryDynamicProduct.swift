import RxBlocking
import RxCocoa
import RxRelay
import RxSwift
import RxTest

/// One name from each module of the dynamic products, so that a missing one fails the build.
public enum EveryDynamicProduct {
    public static let names = [
        String(describing: Observable<Int>.self),
        String(describing: PublishRelay<Int>.self),
        String(describing: Driver<Int>.self),
        String(describing: BlockingObservable<Int>.self),
        String(describing: TestScheduler.self),
    ]
}
