// Two locked lists the test kit (RxTestCore) touches on every event. They live here,
// not there, because `LockedPair.withLock` is a `package` method, and a `package`
// method is not inlined across modules: called from RxTestCore, each `withLock`
// looked up the metadata of its generic types (callgrind, the `TestScheduler` row:
// +12% instructions). Here it is inlined, and RxTestCore calls a method of a generic
// class, whose types come with the object.

/// The events an observer received and the virtual times they arrived at, appended
/// from any thread: a `TestableObserver`'s recording, a log of `Event<Element>`
/// values. The times and the events are kept apart: appending a generic `Recorded`
/// value per event would look up its metadata. Generic over the logged value (the
/// event type), not the element: the event type then comes with the object.
package final class TimedEventLog<Value>: @unchecked Sendable {
    private let log = LockedPair([Int](), ContiguousArray<Value>())

    package init() {}

    /// Appends `value` (an event), which arrived at `time`.
    package func append(_ value: Value, at time: Int) {
        log.withLock { times, values in
            times.append(time)
            values.append(value)
        }
    }

    /// Takes every value appended so far, with its time, in the order appended.
    package func takeAll() -> (times: [Int], values: ContiguousArray<Value>) {
        log.withLock { times, values in
            defer {
                times.removeAll()
                values.removeAll()
            }
            return (times, values)
        }
    }
}

/// The observers of a hot testable observable, in subscription order, added and removed
/// from any thread; each event goes to those subscribed when it is sent.
package final class ObserverList<Element>: @unchecked Sendable {
    private let observers = LockedPair((), Bag<AnyObserver<Element>>(vacancy: AnyObserver { _ in }))

    package init() {}

    /// Adds `observer`; returns its key for `remove`.
    package func insert(_ observer: AnyObserver<Element>) -> BagKey {
        observers.withLock { _, observers in observers.insert(observer) }
    }

    /// Removes the observer with `key`; it is released after unlocking.
    package func remove(_ key: BagKey) {
        let removed = observers.withLock { _, observers in observers.remove(key) }
        withExtendedLifetime(removed) {}
    }

    /// Sends `event` to the observers subscribed now, in subscription order.
    package func send(_ event: Event<Element>) {
        let snapshot = observers.withLock { _, observers in observers.elements }
        for observer in snapshot {
            observer.on(event)
        }
    }
}
