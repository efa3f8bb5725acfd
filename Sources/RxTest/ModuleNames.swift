import RxTestCore

// The test kit's types are declared in RxTestCore (free of XCTest, so that the
// rxmarbles tool can use them) and re-exported by RxTest. These names make them members
// of RxTest as well, as they are in RxSwift's RxTest: code that qualifies a name to
// tell it from another module's (`RxTest.Subscription` beside Combine's,
// `RxTest.Recorded`, `RxTest.TestScheduler`) compiles unchanged. An unqualified name
// means the same type either way.
//
// RxTest's documentation presents the types themselves as RxTest's (scripts/docs.sh),
// so these names stay out of its symbol graph: each name has one page, the type's.

/// The virtual-time scheduler of tests: see ``RxTestCore/TestScheduler``.
@_documentation(visibility: internal)
public typealias TestScheduler = RxTestCore.TestScheduler
/// An observer that records every event with its virtual time: see ``RxTestCore/TestableObserver``.
@_documentation(visibility: internal)
public typealias TestableObserver = RxTestCore.TestableObserver
/// A hot or cold observable that emits recorded events at their times: see ``RxTestCore/TestableObservable``.
@_documentation(visibility: internal)
public typealias TestableObservable = RxTestCore.TestableObservable
/// A value with the virtual time it happened at: see ``RxTestCore/Recorded``.
@_documentation(visibility: internal)
public typealias Recorded = RxTestCore.Recorded
/// When an observable was subscribed to and disposed, in virtual time: see ``RxTestCore/Subscription``.
@_documentation(visibility: internal)
public typealias Subscription = RxTestCore.Subscription
/// A virtual time of a ``TestScheduler``, in ticks.
@_documentation(visibility: internal)
public typealias TestTime = RxTestCore.TestTime
/// The time converter of a ``TestScheduler``: see ``RxTestCore/TestSchedulerVirtualTimeConverter``.
@_documentation(visibility: internal)
public typealias TestSchedulerVirtualTimeConverter = RxTestCore.TestSchedulerVirtualTimeConverter
