/// The error the tests send through a sequence when any error will do; `code` tells two
/// of them apart where a test needs more than one.
public struct TestError: Error, Equatable, Sendable {
    public let code: Int

    public init(code: Int = 1) {
        self.code = code
    }
}

/// `TestError(code: 1)`, the error most tests send.
public let testError = TestError(code: 1)
