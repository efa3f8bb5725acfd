@_exported import RxTestCore
import RxSwift
import XCTest

/// Asserts that two arrays of recorded events are equal, reporting at the caller's line.
public func XCTAssertEqual<T: Equatable>(_ lhs: [Recorded<Event<T>>], _ rhs: [Recorded<Event<T>>], file: StaticString = #filePath, line: UInt = #line) {
    if lhs == rhs { return }
    XCTFail(recordedEventsMismatchMessage(lhs, rhs), file: file, line: line)
}

/// Asserts that two arrays of events are equal.
public func XCTAssertEqual<T: Equatable>(_ lhs: [Event<T>], _ rhs: [Event<T>], file: StaticString = #filePath, line: UInt = #line) {
    if lhs == rhs { return }
    XCTFail("Events differ.\nactual:   \(lhs)\nexpected: \(rhs)", file: file, line: line)
}

/// Asserts that two events are equal.
public func XCTAssertEqual<T: Equatable>(_ lhs: Event<T>, _ rhs: Event<T>, file: StaticString = #filePath, line: UInt = #line) {
    if lhs == rhs { return }
    XCTFail("Events differ.\nactual:   \(lhs)\nexpected: \(rhs)", file: file, line: line)
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
            XCTFail("Expected only elements, but the stream has \(recorded.value) at \(recorded.time).", file: file, line: line)
            return
        }
    }
    if received != elements {
        XCTFail("Recorded elements differ.\nactual:   \(received)\nexpected: \(elements)", file: file, line: line)
    }
}
