import Foundation
import RxSwift

extension Reactive where Base: NotificationCenter {
    /// The notifications posted to the center, as they are posted.
    ///
    /// Each subscription adds its own observer to the center, for notifications named
    /// `name` (any name when `nil`) sent by `object` (any sender when `nil`); disposing
    /// the subscription removes it. Notifications arrive on the thread that posts them.
    /// The sequence never completes.
    ///
    /// The observable holds `object` weakly, as RxSwift does: it does not keep the
    /// sender alive, and once the sender is gone a new subscription filters by name only.
    ///
    /// - parameter name: The name of the notifications to observe, or `nil` for all.
    /// - parameter object: The sender whose notifications to observe, or `nil` for all.
    /// - returns: The notifications, one element each.
    public func notification(_ name: Notification.Name?, object: AnyObject? = nil) -> Observable<Notification> {
        let center = base
        return Observable.create { [weak object] observer in
            let receiver = UnsafeTransfer(observer)
            let token = UnsafeTransfer(center.addObserver(forName: name, object: object, queue: nil) { notification in
                receiver.value.onNext(notification)
            })
            return Disposables.create {
                center.removeObserver(token.value)
            }
        }
    }
}

#if !canImport(ObjectiveC) && compiler(>=6.3)
// From Swift 6.3 on, Linux's NotificationCenter is swift-foundation's and no longer an
// NSObject, so it does not get `rx` from NSObject's conformance.
extension NotificationCenter: ReactiveCompatible {}
#endif
