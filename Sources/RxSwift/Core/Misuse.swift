/// Misuse that RxSwift reports only in debug builds: debug builds stop with the
/// message (or, inside a test, fail the test: see `rxMisuse`), release builds print it
/// and carry on.
package func rxFatalErrorInDebug(_ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    #if DEBUG
    rxMisuse(message(), file: file, line: line)
    #else
    print("Rivulet: \(message()) (\(file):\(line))")
    #endif
}

/// Misuse that RxSwift turns into a crash (`drive` off the main thread, a binding that
/// receives an error, `TestScheduler.current` outside a virtual-time test).
///
/// Inside a running test, RxTest records it as a failure of that test and the call
/// returns, so that the rest of the run goes on; everywhere else it stops the program
/// with the message, as RxSwift does. A caller must be ready to go on after it returns.
package func rxMisuse(_ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    let text = message()
    if let reporter = MisuseReporting.reporter, reporter("Rivulet: \(text)") { return }
    rxFatalError(text, file: file, line: line)
}

/// Where `rxMisuse` reports before stopping the program: the test kit installs a
/// reporter when it is loaded.
package enum MisuseReporting {
    /// Records the message as a failure of the running test and returns `true`; returns
    /// `false` when no test is running on the calling task or thread.
    package typealias Reporter = @Sendable (_ message: String) -> Bool

    private static let storage = LockedState<Reporter?>(nil)

    /// The installed reporter, if any.
    package static var reporter: Reporter? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
