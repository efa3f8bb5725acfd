import RxSwift
import XCTest

// Equality of the traits' events and the assertions on arrays of them, as RxTest has
// them: elements compare with `==`, errors by domain, code and description.

/// Completable events are equal when both completed, or both failed with equal errors.
extension CompletableEvent: Equatable {
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed):
            return true
        case let (.error(left), .error(right)):
            return errorsAreEqual(left, right)
        default:
            return false
        }
    }
}

/// Maybe events are equal when both succeeded with equal elements, both completed
/// empty, or both failed with equal errors.
extension MaybeEvent: Equatable where Element: Equatable {
    public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
        switch (lhs, rhs) {
        case let (.success(left), .success(right)):
            return left == right
        case (.completed, .completed):
            return true
        case let (.error(left), .error(right)):
            return errorsAreEqual(left, right)
        default:
            return false
        }
    }
}

/// A single event that compares equal to another with an equal element or an equal
/// error. `SingleEvent` is the standard library's `Result`, which cannot be made
/// `Equatable` with an `Error` failure, so the assertion compares these.
struct ComparableSingleEvent<T: Equatable>: Equatable, CustomStringConvertible {
    let event: SingleEvent<T>

    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs.event, rhs.event) {
        case let (.success(left), .success(right)):
            return left == right
        case let (.failure(left), .failure(right)):
            return errorsAreEqual(left, right)
        default:
            return false
        }
    }

    /// The events, each wrapped (a loop: a closure here would capture `T`'s metatype).
    static func wrap(_ events: [SingleEvent<T>]) -> [Self] {
        var wrapped: [Self] = []
        wrapped.reserveCapacity(events.count)
        for event in events {
            wrapped.append(Self(event: event))
        }
        return wrapped
    }

    var description: String {
        switch event {
        case .success(let element): return "success(\(element))"
        case .failure(let error): return "failure(\(error))"
        }
    }
}

/// Asserts that two arrays of single events are equal.
public func XCTAssertEqual<T: Equatable>(_ lhs: [SingleEvent<T>], _ rhs: [SingleEvent<T>], file: StaticString = #filePath, line: UInt = #line) {
    assertEventsEqual(ComparableSingleEvent.wrap(lhs), ComparableSingleEvent.wrap(rhs), at: CallSite(filePath: file, line: line))
}

/// Asserts that two arrays of maybe events are equal.
public func XCTAssertEqual<T: Equatable>(_ lhs: [MaybeEvent<T>], _ rhs: [MaybeEvent<T>], file: StaticString = #filePath, line: UInt = #line) {
    assertEventsEqual(lhs, rhs, at: CallSite(filePath: file, line: line))
}

/// Asserts that two arrays of completable events are equal.
public func XCTAssertEqual(_ lhs: [CompletableEvent], _ rhs: [CompletableEvent], file: StaticString = #filePath, line: UInt = #line) {
    assertEventsEqual(lhs, rhs, at: CallSite(filePath: file, line: line))
}

/// Asserts that two arrays of recorded events with optional elements are equal; the
/// failure draws both as marble timelines, as for other recorded events.
public func XCTAssertEqual<T: Equatable>(_ lhs: [Recorded<Event<T?>>], _ rhs: [Recorded<Event<T?>>], file: StaticString = #filePath, line: UInt = #line) {
    if lhs == rhs { return }
    reportFailure(recordedEventsMismatchMessage(lhs, rhs), at: CallSite(filePath: file, line: line))
}

/// Reports the first index at which `actual` and `expected` differ, with both arrays.
func assertEventsEqual<Event: Equatable>(_ actual: [Event], _ expected: [Event], at site: CallSite) {
    var index = 0
    while index < actual.count, index < expected.count, actual[index] == expected[index] {
        index += 1
    }
    if index == actual.count, index == expected.count { return }
    let actualAt = index < actual.count ? "\(actual[index])" : "nothing"
    let expectedAt = index < expected.count ? "\(expected[index])" : "nothing"
    reportFailure(
        "Events differ at index \(index): expected \(expectedAt), got \(actualAt)\nexpected: \(expected)\nactual:   \(actual)",
        at: site
    )
}
