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

/// An `XCTestCase` whose every test runs as a checked scope (see
/// ``withRxLeakCheck(_:fileID:filePath:line:column:_:)``) and fails when it leaves
/// subscriptions open, work pending on a `TestScheduler` it created, or when an Rx
/// anomaly (an unhandled error, a broken grammar) happened while it ran.
///
/// After that check, it also counts Rivulet's live resources (observables, sinks,
/// subscriptions, disposables, schedulers): the count is taken before `setUp` and
/// checked after `tearDown`, so whatever `setUp` creates must be released by
/// `tearDown`: set such properties to `nil` there. This count also sees what the scope
/// cannot, such as subscriptions made on another thread.
///
/// ```swift
/// final class SignInViewModelTests: LeakCheckingTestCase {
///     func testSignIn() { ... }   // fails with "Leak check: 1 open subscription ..."
///
///     func testKeepsAGlobalSubscription() {
///         rxCheckOptions = .disabled   // this test opts out
///         ...
///     }
/// }
/// ```
open class LeakCheckingTestCase: XCTestCase {
    /// How long a test's resources may take to go away after it ends, in seconds.
    open var leakCheckTimeout: TimeInterval { 2 }

    /// What is checked at the end of this test: ``RxCheckOptions/enabled`` unless the
    /// test (or `setUp`) changes it. Each test method runs on an instance of its own, so
    /// a change holds for that test only; `.disabled` opts it out, resource count
    /// included. Call stacks are captured only when chosen before the test starts (in
    /// an override of ``defaultRxCheckOptions``).
    public lazy var rxCheckOptions: RxCheckOptions = type(of: self).defaultRxCheckOptions

    /// The options each test of the class starts with; a class overrides it to check
    /// less (or to capture call stacks) in all its tests.
    open class var defaultRxCheckOptions: RxCheckOptions { .enabled }

    open override func invokeTest() {
        let baseline = Resources.total
        let registry = rxCheckOptions.scope(at: nil)
        registry.install {
            super.invokeTest()
        }
        let findings = registry.findings(options: rxCheckOptions.registryOptions)
        registry.close()
        for finding in findings {
            recordFinding(finding)
        }
        // The count only adds what the scope could not see; once it reported a leak,
        // the count would say the same again.
        guard rxCheckOptions.leaks, findings.isEmpty else { return }
        let leaked = ResourceLeakCheck.excess(over: baseline, timeout: leakCheckTimeout)
        if leaked > 0 {
            XCTFail("\(name) leaked \(leaked) Rivulet resource\(leaked == 1 ? "" : "s"): Resources.total was \(baseline) before the test and \(baseline + leaked) \(leakCheckTimeout) s after it")
        }
    }

    /// Records a finding as a failure of this test at the place it names.
    private func recordFinding(_ finding: ScopeFinding) {
        guard let site = finding.site else {
            XCTFail(finding.message)
            return
        }
        recordFailure(finding.message, filePath: site.filePath, line: Int(site.line))
    }
}
