#if PropertyTesting
import PropertyBased
import RxSwift
import RxTest
import XCTest

/// Marble laws in XCTest: swift-property-based shrinks only inside Swift Testing, so a
/// broken law is reported with the first input that broke it, as it was drawn.
final class MarbleLawXCTests: XCTestCase {
    func testBrokenLawIsReportedUnshrunk() async throws {
        var counterexample: MarbleCounterexample<MarbleInput<Int>, Int>?
        let failures = await capturingFailures {
            counterexample = await expectMarbleLaw(input: MarbleGen.cold(Gen.int(in: 0...9), MarbleShape(events: 3...6))) { source, scheduler in
                source.observable(in: scheduler).take(2)
            } equals: { source, scheduler in
                source.observable(in: scheduler)
            }
        }
        let found = try XCTUnwrap(counterexample)
        // Not shrunk: the input is the one drawn, with at least three elements.
        XCTAssertEqual(found.input.description, found.original.description)
        XCTAssertGreaterThanOrEqual(found.input.events.filter { $0.value.element != nil }.count, 3)
        // One report (and, when RXTEST_FAILURE_DIAGRAMS is set, the note of its picture).
        let reports = failures.map(\.description).filter { $0.hasPrefix("Marble law broken by case") }
        XCTAssertEqual(reports.count, 1)
        let message = try XCTUnwrap(reports.first)
        XCTAssertTrue(message.hasPrefix("Marble law broken by case 1 of 100 (seed 24); input (not shrunk: shrinking needs Swift Testing):\n\(found.input)\n"), message)
        XCTAssertTrue(message.contains("Recorded events differ at index 2"), message)
    }

    func testHoldingLaw() async {
        var counterexample: MarbleCounterexample<MarbleInput<Int>, Int>?
        let failures = await capturingFailures {
            counterexample = await expectMarbleLaw(input: MarbleGen.any(Gen.int(in: 0...9))) { source, scheduler in
                source.observable(in: scheduler).take(10)
            } equals: { source, scheduler in
                source.observable(in: scheduler)
            }
        }
        XCTAssertNil(counterexample)
        XCTAssertTrue(failures.isEmpty)
    }
}
#endif
