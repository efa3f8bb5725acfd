@_exported import RxTestCore
import RxSwift
import XCTest

/// Asserts that two arrays of recorded events are equal, reporting at the caller's line.
///
/// The failure draws both as aligned marble timelines, marks the first difference with
/// a caret and lists both arrays (see `recordedEventsMismatchMessage`):
///
/// ```
/// Recorded events differ at index 1: expected next(2) @ 220, got next(3) @ 230
/// expected: ---------------------12-------|
/// actual:   ---------------------1-3------|
///                                 ^ first difference (time 220)
/// ```
///
/// - Parameters:
///   - lhs: The events recorded (`res.events`).
///   - rhs: The events expected.
///   - file: The file a failure is reported in; the caller's by default.
///   - line: The line a failure is reported at; the caller's by default.
public func XCTAssertEqual<T: Equatable>(_ lhs: [Recorded<Event<T>>], _ rhs: [Recorded<Event<T>>], file: StaticString = #filePath, line: UInt = #line) {
    checkEvents(lhs, equal: rhs, at: CallSite(filePath: file, line: line))
}

/// Asserts that recorded events match a marble diagram (see ``Marbles`` for the grammar).
///
/// ```swift
/// XCTAssertEqual(res.events, marbles: "^-b-c-|", values: ["b": 20, "c": 30], frame: 10)
/// ```
///
/// - Parameters:
///   - events: The events recorded.
///   - marbles: The expected diagram; malformed text fails the assertion with the
///     ``MarbleError``.
///   - values: The element of each key.
///   - errors: The error of `#` and of other error keys.
///   - frame: Ticks per frame.
///   - origin: The virtual time of the zero point; by default 200 when the diagram
///     has a `^`, otherwise 0.
///   - resolution: Seconds per tick, for time progressions.
///   - file: The file a failure is reported in; the caller's by default.
///   - line: The line a failure is reported at; the caller's by default.
public func XCTAssertEqual<T: Equatable>(
    _ events: [Recorded<Event<T>>],
    marbles: String,
    values: [String: T],
    errors: [String: Swift.Error] = [:],
    frame: TestTime = 1,
    origin: TestTime? = nil,
    resolution: Double = 1,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    checkEvents(events, marbles: marbles, values: values, errors: errors, frame: frame, origin: origin, resolution: resolution, at: CallSite(filePath: file, line: line))
}

/// Asserts that recorded `String` events match a marble diagram whose keys are their
/// own values.
public func XCTAssertEqual(
    _ events: [Recorded<Event<String>>],
    marbles: String,
    errors: [String: Swift.Error] = [:],
    frame: TestTime = 1,
    origin: TestTime? = nil,
    resolution: Double = 1,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    checkEvents(events, marbles: marbles, values: [String: String](), errors: errors, frame: frame, origin: origin, resolution: resolution, at: CallSite(filePath: file, line: line))
}

/// Asserts that two subscription lists are equal; the failure draws both as
/// subscription marbles.
public func XCTAssertEqual(_ lhs: [Subscription], _ rhs: [Subscription], file: StaticString = #filePath, line: UInt = #line) {
    checkSubscriptions(lhs, equal: rhs, at: CallSite(filePath: file, line: line))
}

/// Asserts that two arrays of events are equal.
public func XCTAssertEqual<T: Equatable>(_ lhs: [Event<T>], _ rhs: [Event<T>], file: StaticString = #filePath, line: UInt = #line) {
    assertEventsEqual(lhs, rhs, at: CallSite(filePath: file, line: line))
}

/// Asserts that two events are equal.
public func XCTAssertEqual<T: Equatable>(_ lhs: Event<T>, _ rhs: Event<T>, file: StaticString = #filePath, line: UInt = #line) {
    if lhs == rhs { return }
    reportFailure("Events differ: expected \(rhs), got \(lhs)", at: CallSite(filePath: file, line: line))
}

/// Asserts that the stream carries exactly `elements` as `next` events, with no
/// terminal event, whatever their times.
public func XCTAssertRecordedElements<T: Equatable>(_ stream: [Recorded<Event<T>>], _ elements: [T], file: StaticString = #filePath, line: UInt = #line) {
    var received: [T] = []
    for recorded in stream {
        switch recorded.value {
        case .next(let element):
            received.append(element)
        case .error, .completed:
            reportFailure("Expected only elements, but the stream has \(recorded.value) at \(recorded.time).", at: CallSite(filePath: file, line: line))
            return
        }
    }
    if received != elements {
        reportFailure("Recorded elements differ.\nactual:   \(received)\nexpected: \(elements)", at: CallSite(filePath: file, line: line))
    }
}

/// Compares events with a diagram, reporting a malformed diagram or a mismatch.
@discardableResult
func checkEvents<T: Equatable>(
    _ events: [Recorded<Event<T>>],
    marbles: String,
    values: [String: T],
    errors: [String: Swift.Error],
    frame: TestTime,
    origin: TestTime?,
    resolution: Double,
    at site: CallSite
) -> Bool {
    let expected: (events: [Recorded<Event<T>>], keys: MarbleKeyBook)
    do {
        expected = try Marbles.parseKeyed(
            marbles, values: values, errors: errors, frame: frame, resolution: resolution,
            origin: TestScheduler.marbleOrigin(for: marbles, origin: origin)
        )
    } catch {
        reportFailure("Invalid expected marbles: \(error)", at: site)
        return false
    }
    return checkEvents(events, equal: expected.events, keys: expected.keys, at: site)
}

/// Compares recorded events with `expected`, reporting a mismatch at `site`; `keys` are
/// those of the marbles `expected` was written as.
@discardableResult
func checkEvents<T: Equatable>(_ events: [Recorded<Event<T>>], equal expected: [Recorded<Event<T>>], keys: MarbleKeyBook? = nil, at site: CallSite) -> Bool {
    if events == expected { return true }
    reportEventsMismatch(events, expected, keys: keys, at: site)
    return false
}

/// Compares subscriptions with `expected`, reporting a mismatch at `site`.
@discardableResult
func checkSubscriptions(_ actual: [Subscription], equal expected: [Subscription], at site: CallSite) -> Bool {
    if actual == expected { return true }
    reportFailure(subscriptionsMismatchMessage(actual, expected), at: site)
    return false
}
