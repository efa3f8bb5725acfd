import Foundation
import RxSwift
import XCTest

/// Leak checks over Rivulet's live-resource count (`Resources.total`).
///
/// The count is process-wide, so a check is only meaningful while nothing else runs:
/// XCTest runs its tests one at a time, Swift Testing runs them in parallel. Use
/// ``LeakCheckingTestCase`` for XCTest suites.
public enum ResourceLeakCheck {
    /// How many resources are alive above `baseline`, after waiting up to `timeout`
    /// seconds for the count to come back to it; 0 when it did.
    ///
    /// Work that outlives the test for a moment (a dispatch queue finishing, the main
    /// queue delivering a last event) is given that time: on the main thread the main
    /// run loop runs meanwhile, elsewhere the thread sleeps briefly between looks.
    public static func excess(over baseline: Int32, timeout: TimeInterval = 2) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let current = Resources.total
            if current <= baseline {
                return 0
            }
            if Date() >= deadline {
                return current - baseline
            }
            if Thread.isMainThread {
                _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.01))
            } else {
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
    }
}

/// An `XCTestCase` whose every test fails when it leaves more Rivulet resources
/// (observables, sinks, subscriptions, disposables, schedulers) alive than it found.
///
/// The count is taken before `setUp` and checked after `tearDown`, so whatever `setUp`
/// creates must be released by `tearDown`: set such properties to `nil` there.
///
/// ```swift
/// final class SignInViewModelTests: LeakCheckingTestCase {
///     func testSignIn() { ... }   // fails with "... leaked 2 resources" on a leak
/// }
/// ```
open class LeakCheckingTestCase: XCTestCase {
    /// How long a test's resources may take to go away after it ends, in seconds.
    open var leakCheckTimeout: TimeInterval { 2 }

    open override func invokeTest() {
        let baseline = Resources.total
        super.invokeTest()
        let leaked = ResourceLeakCheck.excess(over: baseline, timeout: leakCheckTimeout)
        if leaked > 0 {
            XCTFail("\(name) leaked \(leaked) Rivulet resource\(leaked == 1 ? "" : "s"): Resources.total was \(baseline) before the test and \(baseline + leaked) \(leakCheckTimeout) s after it")
        }
    }
}
