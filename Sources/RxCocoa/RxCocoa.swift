// Importing RxCocoa also imports RxRelay, as in RxSwift.
@_exported import RxRelay
import RxSwift

/// Errors raised by RxCocoa.
public enum RxCocoaError: Swift.Error, CustomDebugStringConvertible, @unchecked Sendable {
    /// Unknown error.
    case unknown
    /// An invalid operation was attempted on `object`.
    case invalidOperation(object: Any)
    /// Items were requested before they were bound to the user interface.
    case itemsNotYetBound(object: Any)
    /// `object` has no property named `propertyName`.
    case invalidPropertyName(object: Any, propertyName: String)
    /// The object on a key path was invalid.
    case invalidObjectOnKeyPath(object: Any, sourceObject: AnyObject, propertyName: String)
    /// An error happened while swizzling.
    case errorDuringSwizzling
    /// Casting `object` to `targetType` failed.
    case castingError(object: Any, targetType: Any.Type)

    public var debugDescription: String {
        switch self {
        case .unknown:
            return "Unknown error occurred."
        case let .invalidOperation(object):
            return "Invalid operation was attempted on `\(object)`."
        case let .itemsNotYetBound(object):
            return "Data source is set, but items are not yet bound to user interface for `\(object)`."
        case let .invalidPropertyName(object, propertyName):
            return "Object `\(object)` doesn't have a property named `\(propertyName)`."
        case let .invalidObjectOnKeyPath(object, sourceObject, propertyName):
            return "Unobservable object `\(object)` was observed as `\(propertyName)` of `\(sourceObject)`."
        case .errorDuringSwizzling:
            return "Error during swizzling."
        case let .castingError(object, targetType):
            return "Error casting `\(object)` to `\(targetType)`."
        }
    }
}

/// A sequence bound to the user interface must not fail: debug builds stop with the
/// message (inside a test, the test fails instead), release builds print it.
func rxBindingError(_ error: Swift.Error, file: StaticString = #file, line: UInt = #line) {
    rxFatalErrorInDebug("Binding error: \(error)", file: file, line: line)
}
