/// Misuse that RxSwift reports only in debug builds: debug builds stop with the
/// message, release builds print it and carry on.
package func rxFatalErrorInDebug(_ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    #if DEBUG
    rxFatalError(message(), file: file, line: line)
    #else
    print("Rivulet: \(message()) (\(file):\(line))")
    #endif
}
