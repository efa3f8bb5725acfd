import RxSwift

private let driveErrorMessage = """
    drive(...) was called off the main thread. A Driver replays its last element to a new \
    observer during the call, and delivers everything on the main thread: call drive from \
    the main thread or the main actor (a test can be marked @MainActor, or run in virtual \
    time with the .virtualTime trait or SharingScheduler.mock(scheduler:)).
    """

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Subscribes every observer in `observers`: each receives every event.
    /// Only on the main thread.
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable where Observer.Element == Element {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveErrorMessage)
        return asSharedSequence().asObservable().subscribe(every: observers)
    }

    /// Subscribes every observer of optionals in `observers`: each receives every
    /// element wrapped in an optional. Only on the main thread.
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable where Observer.Element == Element? {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveErrorMessage)
        return asSharedSequence().asObservable().subscribe(every: observers)
    }

    /// Makes every element the value of each of `relays`. Only on the main thread.
    public func drive(_ relays: BehaviorRelay<Element>...) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveErrorMessage)
        return drive(onNext: acceptingEach(relays) { relay, element in relay.accept(element) })
    }

    /// Makes every element, as an optional, the value of each of `relays`. Only on the main thread.
    public func drive(_ relays: BehaviorRelay<Element?>...) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveErrorMessage)
        return drive(onNext: acceptingEach(relays) { relay, element in relay.accept(element) })
    }

    /// Passes every element to each of `relays`. Only on the main thread.
    public func drive(_ relays: ReplayRelay<Element>...) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveErrorMessage)
        return drive(onNext: acceptingEach(relays) { relay, element in relay.accept(element) })
    }

    /// Passes every element, as an optional, to each of `relays`. Only on the main thread.
    public func drive(_ relays: ReplayRelay<Element?>...) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveErrorMessage)
        return drive(onNext: acceptingEach(relays) { relay, element in relay.accept(element) })
    }

    /// Binds with a custom function of the underlying observable. Only on the main thread.
    public func drive<Result>(_ transformation: (Observable<Element>) -> Result) -> Result {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveErrorMessage)
        return transformation(asObservable())
    }

    /// Binds with a curried function: `with(observable)(curriedArgument)`. Only on the main thread.
    public func drive<R1, R2>(_ with: (Observable<Element>) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveErrorMessage)
        return with(asObservable())(curriedArgument)
    }

    /// Subscribes handlers that also receive `object`, held weakly; once `object` is
    /// gone the handlers are skipped. Only on the main thread.
    public func drive<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveErrorMessage)
        return asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes element, completion and disposal handlers (a `Driver` cannot fail).
    /// Only on the main thread.
    public func drive(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveErrorMessage)
        return asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes without handlers. Only on the main thread.
    public func drive() -> Disposable {
        drive(onNext: nil, onCompleted: nil, onDisposed: nil)
    }
}
