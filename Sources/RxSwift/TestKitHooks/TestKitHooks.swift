/// Every hook the test kit (RxTest and RxTestCore) installs into RxSwift, and the one
/// name it reaches them by. The hooks themselves are in this folder:
///
/// | hook | installed by | what reports to it, or reads it | file |
/// | --- | --- | --- | --- |
/// | `Tracking`, `Tracker`, `TrackedKind`, `Anomaly`: a tracker for the current task | the leak check and anomaly reports (`TestScopeTracker`), the schedule explorer (`ScheduleTracker`) | every sink (`Sink.init`, `dispose`, `deinit`), every `subscribe` whose disposable the caller owns, `Observable.create`'s grammar check, `Hooks.callDefaultErrorHandler` | `Tracking.swift` |
/// | `SchedulerSubstitution`: a scheduler standing in for the main schedulers in the current task | `withVirtualTime` and the `.virtualTime` trait | `MainScheduler`, `ConcurrentMainScheduler`, the async bridges' tasks, and RxCocoa's `SharingScheduler` | `SchedulerSubstitution.swift` |
/// | `TimedEventLog`, `ObserverList`: the test kit's per-event lists | `TestableObserver`, the hot `TestableObservable` | nothing: RxTestCore calls them | `TestKitLists.swift` |
///
/// With nothing installed, a hook costs one relaxed load of a global that stays 0 (the
/// tracker, the substitution), so production code needs no compile flag. The names here
/// are type aliases: calling through them is calling the type itself, so the per-event
/// lists keep `LockedPair.withLock` inlined in RxSwift (see `TestKitLists.swift`).
///
/// The schedule explorer's seam is not here: every lock and atomic calls it, so it stays
/// beside them (`Interleaving`, `InterleavingHooks` and `Mutation` in `Internal/Locking/`).
package enum TestKitHooks {
    /// The tracker installed for the current task (`withTracker`, `current`).
    package typealias Tracking = RxTracking
    /// What receives the reports of subscriptions and anomalies.
    package typealias Tracker = RxTracker
    /// What a tracked subscription is.
    package typealias TrackedKind = RxTrackedKind
    /// A grammar violation or an unhandled error.
    package typealias Anomaly = RxAnomaly
    /// The main schedulers' stand-in for the current task.
    package typealias SchedulerSubstitution = RxSwift.SchedulerSubstitution
    /// A `TestableObserver`'s recording.
    package typealias TimedEventLog<Value> = RxSwift.TimedEventLog<Value>
    /// A hot testable observable's observers.
    package typealias ObserverList<Element> = RxSwift.ObserverList<Element>
}
