import RxSwift

/// Counts the subscriptions made to the sources it wraps and their disposals, from any
/// thread. Its lock is not Rivulet's: counting adds no step to an explored schedule.
public final class SubscriptionTally: Sendable {
    private let counts = LockedBox((subscribed: 0, disposed: 0))

    public init() {}

    public var subscribed: Int { counts.value.subscribed }
    public var disposed: Int { counts.value.disposed }

    /// `source`, counting each subscription and its disposal.
    public func counting<Source: ObservableConvertibleType>(_ source: Source) -> Observable<Source.Element> {
        Observable.create { observer in
            self.counts.mutate { $0.subscribed += 1 }
            let subscription = source.asObservable().subscribe(observer)
            return Disposables.create {
                self.counts.mutate { $0.disposed += 1 }
                subscription.dispose()
            }
        }
    }

    /// A source that sends `elements` when subscribed, then nothing: counted.
    public func source<Element: Sendable>(_ elements: Element...) -> Observable<Element> {
        Observable.create { observer in
            self.counts.mutate { $0.subscribed += 1 }
            for element in elements { observer.onNext(element) }
            return Disposables.create { self.counts.mutate { $0.disposed += 1 } }
        }
    }
}

extension ObservableType {
    /// The sequence with its subscriptions and disposals counted by `tally`.
    public func counted(_ tally: SubscriptionTally) -> Observable<Element> {
        tally.counting(self)
    }
}
