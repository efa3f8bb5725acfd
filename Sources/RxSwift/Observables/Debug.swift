import Foundation

extension ObservableType {
    /// Prints each subscription, event and disposal to standard output, prefixed with a
    /// timestamp and `identifier`, and passes every event on unchanged.
    ///
    /// Lines look like `2026-01-31 12:00:00.000: id -> Event next(1)`.
    ///
    /// - parameter identifier: The prefix of each line; by default the calling file,
    ///   line and function.
    /// - parameter trimOutput: Whether to shorten event descriptions longer than 40
    ///   characters to their first and last 20.
    /// - parameter file: The file of the default identifier; the caller's by default.
    /// - parameter line: The line of the default identifier; the caller's by default.
    /// - parameter function: The function of the default identifier; the caller's by
    ///   default.
    public func debug(
        _ identifier: String? = nil,
        trimOutput: Bool = false,
        file: String = #file,
        line: UInt = #line,
        function: String = #function
    ) -> Observable<Element> {
        PlainProducer(asObservable(), Debug(
            identifier: debugIdentifier(identifier, file: file, line: line, function: function),
            trimOutput: trimOutput,
            output: { print($0) }
        ))
    }

    /// `debug` writing its lines to `output` instead of standard output.
    func debug(_ identifier: String, trimOutput: Bool, output: @escaping (String) -> Void) -> Observable<Element> {
        PlainProducer(asObservable(), Debug(identifier: identifier, trimOutput: trimOutput, output: output))
    }
}

/// The identifier `debug` uses: the given one, or `File.swift:line (function)`.
func debugIdentifier(_ identifier: String?, file: String, line: UInt, function: String) -> String {
    if let identifier { return identifier }
    let fileName = file.split(separator: "/").last.map { String($0) } ?? file
    return "\(fileName):\(line) (\(function))"
}

/// `debug`'s identifier, output and sink.
struct Debug<Element>: PlainOperator {
    let identifier: String
    let trimOutput: Bool
    let output: (String) -> Void

    func subscribe<Observer: ObserverType>(_ observer: Observer, to source: Observable<Element>) -> Disposable where Observer.Element == Element {
        DebugSink(self, observer: observer).observe(source)
    }
}

final class DebugSink<Observer: ObserverType>: PlainSink<Debug<Observer.Element>, Observer>, ObserverType, @unchecked Sendable {
    private static var maximumEventLength: Int { 40 }

    private let formatter = LockedState(DateFormatter())
    private let loggedDisposal = AtomicFlag()

    override init(_ parameters: Debug<Observer.Element>, observer: Observer) {
        formatter.withLock { $0.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS" }
        super.init(parameters, observer: observer)
        log("subscribed")
    }

    private func log(_ content: String) {
        let timestamp = formatter.withLock { $0.string(from: Date()) }
        parameters.output("\(timestamp): \(parameters.identifier) -> \(content)")
    }

    func on(_ event: Event<Element>) {
        let text = "\(event)"
        let limit = DebugSink.maximumEventLength
        let shown = parameters.trimOutput && text.count > limit
            ? String(text.prefix(limit / 2)) + "..." + String(text.suffix(limit / 2))
            : text
        log("Event \(shown)")
        forwardEvent(event)
    }

    override func dispose() {
        if !isDisposed, !loggedDisposal.testAndSet() {
            log("isDisposed")
        }
        super.dispose()
    }
}
