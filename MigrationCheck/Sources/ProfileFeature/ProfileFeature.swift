import Foundation
import RxCocoa
import RxFormatting
import RxLanes
import RxRelay
import RxSwift
import RxTimelane

// A profile screen as an RxSwift code base writes it: a networking layer of Singles
// chained with flatMap, a view model of relays and Drivers, and `.rx` extensions with
// Binders on the view.

public struct User: Equatable {
    public let id: Int
    public let name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

public enum ProfileError: Error, Equatable {
    case notFound
}

public protocol ProfileAPI {
    func session() -> Single<Int>
    func user(id: Int) -> Single<User>
    func badge(for user: User) -> Maybe<String>
    func markSeen(_ user: User) -> Completable
}

public final class ProfileViewModel {
    public let refresh = PublishRelay<Void>()
    public let title: Driver<String>

    private let api: ProfileAPI

    public init(api: ProfileAPI) {
        self.api = api
        title = refresh
            .flatMapLatest { api.profileTitle().asObservable().catchAndReturn("Unavailable") }
            .asDriver(onErrorJustReturn: "Unavailable")
    }

    public func loadUser() -> Single<User> {
        api.session().flatMap { [api] id in api.user(id: id) }
    }

    /// The number of refreshes so far, through a library built for RxSwift.
    public var refreshCountLabel: Observable<String> {
        refresh.scan(0) { count, _ in count + 1 }.itemCountLabel()
    }

    /// The refresh count watched twice: by RxTimelane's `lane` (its signature, defaults
    /// and all) and by Rivulet's `recordLane`, in one chain, each call unambiguous.
    public func watchedRefreshCount(log: @escaping (String) -> Void, recorder: LaneRecorder) -> Observable<Int> {
        refresh.scan(0) { count, _ in count + 1 }
            .lane("refreshes", logger: log)
            .recordLane("refreshes", in: recorder)
            .lane("refreshes again", transformValue: { "#\($0)" }, logger: log)
    }
}

extension ProfileAPI {
    /// The user's name, with their badge when they have one, once the user was marked seen.
    public func profileTitle() -> Single<String> {
        session()
            .flatMap { id in self.user(id: id) }
            .flatMap { user in
                self.markSeen(user).andThen(
                    self.badge(for: user)
                        .map { "\(user.name) \($0)" }
                        .ifEmpty(default: user.name)
                )
            }
    }
}

/// A view that is not an NSObject: it opts into `.rx` as RxSwift code does.
public final class ProfileView: ReactiveCompatible {
    public var title = ""
    public var isLoading = false

    public init() {}
}

extension Reactive where Base: ProfileView {
    public var title: Binder<String> {
        Binder(base, scheduler: CurrentThreadScheduler.instance) { view, title in
            view.title = title
        }
    }
}

/// An NSObject subclass: `.rx` comes with it, and writable properties bind directly.
public final class StatusLabel: NSObject {
    public var text = ""
}
