import RxSwift
import RxTestCore

// Swift Testing checks for recorded events and subscriptions. A failure is an issue of
// the running test at the caller's source location (in an XCTest test, an XCTest
// failure), with the same text as the XCTest assertions: aligned marble timelines, a
// caret at the first difference and both event lists. They keep no state, so tests
// running in parallel never see each other's failures.

/// Expects an observer to have recorded exactly `expected`.
///
/// ```swift
/// let res = scheduler.start { xs.map { $0 * 2 } }
/// expectEvents(res, equal: [.next(210, 2), .completed(300)])
/// ```
///
/// - Parameters:
///   - observer: The observer whose events are compared.
///   - expected: The events expected, with their times.
///   - record: Record instead of comparing (see ``RecordMode``): report the events
///     received, ready to paste, as a failure.
///   - fileID: The file a failure is reported in; the caller's by default.
///   - filePath: The path of that file; the caller's by default.
///   - line: The line a failure is reported at; the caller's by default.
///   - column: The column a failure is reported at; the caller's by default.
/// - Returns: Whether they were equal (`false` when recording).
@discardableResult
public func expectEvents<T: Equatable>(
    _ observer: TestableObserver<T>,
    equal expected: [Recorded<Event<T>>],
    record: Bool = false,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> Bool {
    checkEvents(
        observer.events, equal: expected, record: record, resolution: observer.secondsPerTick,
        at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
}

/// Expects recorded events to equal `expected`.
///
/// - Parameters:
///   - events: The events recorded.
///   - expected: The events expected, with their times.
///   - record: Record instead of comparing (see ``RecordMode``).
///   - fileID: The file a failure is reported in; the caller's by default.
///   - filePath: The path of that file; the caller's by default.
///   - line: The line a failure is reported at; the caller's by default.
///   - column: The column a failure is reported at; the caller's by default.
/// - Returns: Whether they were equal (`false` when recording).
@discardableResult
public func expectEvents<T: Equatable>(
    _ events: [Recorded<Event<T>>],
    equal expected: [Recorded<Event<T>>],
    record: Bool = false,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> Bool {
    checkEvents(events, equal: expected, record: record, resolution: 1, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Expects an observer to have recorded what a marble diagram shows (see ``Marbles``
/// for the grammar), using its scheduler's resolution for time progressions.
///
/// ```swift
/// let res = scheduler.start { xs.map { $0 * 10 } }
/// expectEvents(res, marbles: "^-B-C-|", values: ["B": 20, "C": 30], frame: 10)
/// ```
///
/// - Parameters:
///   - observer: The observer.
///   - marbles: The expected diagram; malformed text is reported as an issue naming
///     the ``MarbleError``.
///   - values: The element of each key.
///   - errors: The error of `#` and of other error keys.
///   - frame: Ticks per frame.
///   - origin: The virtual time of the zero point; by default 200 when the diagram
///     has a `^`, otherwise 0.
///   - record: Record instead of comparing (see ``RecordMode``): report the events
///     received as marbles drawn with `frame` and the diagram's origin, ready to paste,
///     as a failure. The diagram may be a placeholder (`""`, or `"^"` for events from
///     the subscription at 200 on).
///   - fileID: The file a failure is reported in; the caller's by default.
///   - filePath: The path of that file; the caller's by default.
///   - line: The line a failure is reported at; the caller's by default.
///   - column: The column a failure is reported at; the caller's by default.
/// - Returns: Whether the events matched (`false` when recording).
@discardableResult
public func expectEvents<T: Equatable>(
    _ observer: TestableObserver<T>,
    marbles: String,
    values: [String: T],
    errors: [String: Swift.Error] = [:],
    frame: TestTime = 1,
    origin: TestTime? = nil,
    record: Bool = false,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> Bool {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let resolution = observer.secondsPerTick
    let recorded = recordsInstead(
        observer.events, record: record, frame: frame == 1 ? nil : frame,
        origin: TestScheduler.marbleOrigin(for: marbles, origin: origin), resolution: resolution, at: site
    )
    if recorded { return false }
    return checkEvents(
        observer.events, marbles: marbles, values: values, errors: errors, frame: frame, origin: origin,
        resolution: resolution, at: site
    )
}

/// Expects an observer of `String`s to have recorded what a marble diagram shows, each
/// key standing for itself.
@discardableResult
public func expectEvents(
    _ observer: TestableObserver<String>,
    marbles: String,
    errors: [String: Swift.Error] = [:],
    frame: TestTime = 1,
    origin: TestTime? = nil,
    record: Bool = false,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> Bool {
    expectEvents(
        observer, marbles: marbles, values: [String: String](), errors: errors, frame: frame, origin: origin,
        record: record, fileID: fileID, filePath: filePath, line: line, column: column
    )
}

/// Expects a testable observable to have seen exactly `expected` subscriptions.
///
/// - Returns: Whether they were equal.
@discardableResult
public func expectSubscriptions<T>(
    _ observable: TestableObservable<T>,
    equal expected: [Subscription],
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> Bool {
    checkSubscriptions(observable.subscriptions, equal: expected, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Expects a testable observable's subscriptions to be those of subscription marbles,
/// one text per overlapping subscription.
///
/// ```swift
/// expectSubscriptions(xs, marbles: "^-----!", frame: 10)   // Subscription(200, 260)
/// ```
///
/// - Parameters:
///   - observable: The testable observable whose subscriptions are compared.
///   - marbles: One subscription diagram per overlapping subscription: `^` where it
///     is subscribed, `!` where it is disposed.
///   - frame: Ticks per frame.
///   - origin: The virtual time of the first column of every text; by default 200
///     (where `start { }` subscribes) when the text has a `^`.
///   - fileID: The file a failure is reported in; the caller's by default.
///   - filePath: The path of that file; the caller's by default.
///   - line: The line a failure is reported at; the caller's by default.
///   - column: The column a failure is reported at; the caller's by default.
/// - Returns: Whether they were equal.
@discardableResult
public func expectSubscriptions<T>(
    _ observable: TestableObservable<T>,
    marbles: String...,
    frame: TestTime = 1,
    origin: TestTime? = nil,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> Bool {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    var expected: [Subscription] = []
    do {
        for text in marbles {
            expected += try Marbles.parseSubscriptions(
                text, frame: frame, resolution: observable.secondsPerTick,
                origin: TestScheduler.marbleOrigin(for: text, origin: origin)
            )
        }
    } catch {
        reportFailure("Invalid subscription marbles: \(error)", at: site)
        return false
    }
    return checkSubscriptions(observable.subscriptions, equal: expected, at: site)
}

/// Compares recorded events with `expected`, or, in record mode, reports them ready to
/// paste instead (and fails).
private func checkEvents<T: Equatable>(
    _ events: [Recorded<Event<T>>],
    equal expected: [Recorded<Event<T>>],
    record: Bool,
    resolution: Double,
    at site: CallSite
) -> Bool {
    if recordsInstead(events, record: record, frame: nil, origin: 0, resolution: resolution, at: site) { return false }
    return checkEvents(events, equal: expected, at: site)
}
