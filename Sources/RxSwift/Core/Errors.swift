import Foundation

/// Errors raised by Rivulet's operators, with RxSwift's cases.
public enum RxError: Swift.Error, CustomDebugStringConvertible, @unchecked Sendable {
    /// Unknown error.
    case unknown
    /// An operation was performed on a disposed object.
    case disposed(object: AnyObject)
    /// An arithmetic overflow.
    case overflow
    /// An argument was out of range.
    case argumentOutOfRange
    /// The sequence contained no elements.
    case noElements
    /// The sequence contained more than one element.
    case moreThanOneElement
    /// The sequence timed out.
    case timeout

    public var debugDescription: String {
        switch self {
        case .unknown: return "Unknown error occurred."
        case .disposed(let object): return "Object `\(object)` was already disposed."
        case .overflow: return "Arithmetic overflow occurred."
        case .argumentOutOfRange: return "Argument out of range."
        case .noElements: return "Sequence doesn't contain any elements."
        case .moreThanOneElement: return "Sequence contains more than one element."
        case .timeout: return "Sequence timeout."
        }
    }
}

extension RxError: CustomStringConvertible {
    public var description: String { debugDescription }
}

func rxAbstractMethod(file: StaticString = #file, line: UInt = #line) -> Never {
    rxFatalError("Abstract method: a subclass must override it.", file: file, line: line)
}

/// The body of an initializer a subclass declares only to fill the slot of its
/// superclass's designated initializer, which it does not inherit. Left empty, that slot
/// gets a stub synthesised by the compiler, and each source file with such a stub
/// compiles about 3 KB more machine code in a debug build (see ARCHITECTURE.md, "Build
/// cost"). Never called: each class is made through its own initializers.
@inline(never)
func rxUnusedInitializer(file: StaticString = #file, line: UInt = #line) -> Never {
    rxFatalError("This initializer only fills its superclass's slot; the class's own initializers make it.", file: file, line: line)
}

/// Stops the program with a message that says what went wrong (misuse that RxSwift
/// also turns into a crash).
package func rxFatalError(_ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("Rivulet: \(message())", file: file, line: line)
}

/// `Hooks.recordCallStackOnError` (see `GlobalAtomic`).
private let recordsCallStacks = GlobalAtomic<Bool>(false)

/// Global hooks, as in RxSwift.
public enum Hooks {
    /// Signature of the handler for errors no `onError` handles.
    public typealias DefaultErrorHandler = (_ subscriptionCallStack: [String], _ error: Error) -> Void
    /// Signature of the call stack capture.
    public typealias CustomCaptureSubscriptionCallstack = () -> [String]

    private struct Storage {
        var defaultErrorHandler: DefaultErrorHandler
        var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack
    }

    private static let storage = LockedState(Storage(
        defaultErrorHandler: { callStack, error in
            if callStack.isEmpty {
                print("Unhandled error happened: \(error)")
            } else {
                print("Unhandled error happened: \(error)\n subscription called from:\n\(callStack.joined(separator: "\n"))")
            }
        },
        customCaptureSubscriptionCallstack: { Thread.callStackSymbols }
    ))

    /// Called for an error that reaches a `subscribe` without `onError`.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { storage.withLock { $0.defaultErrorHandler } }
        set { storage.withLock { $0.defaultErrorHandler = newValue } }
    }

    /// Captures the call stack recorded for unhandled errors.
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { storage.withLock { $0.customCaptureSubscriptionCallstack } }
        set { storage.withLock { $0.customCaptureSubscriptionCallstack = newValue } }
    }

    /// Whether `subscribe` records the call stack for unhandled errors (off by default: it is costly).
    ///
    /// Every `subscribe` reads it: it is one atomic load, not a lock.
    public static var recordCallStackOnError: Bool {
        get { recordsCallStacks.loadRelaxed() }
        set { recordsCallStacks.storeRelaxed(newValue) }
    }
}
