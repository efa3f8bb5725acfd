import Foundation
import RxSwift
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The errors of RxCocoa's `URLSession` extensions.
public enum RxCocoaURLError: Swift.Error, CustomDebugStringConvertible, @unchecked Sendable {
    /// The request ended with neither a response nor an error.
    case unknown
    /// The response is not an HTTP response.
    case nonHTTPResponse(response: URLResponse)
    /// The status code is outside `200..<300`; `data` is the body that came with it.
    case httpRequestFailed(response: HTTPURLResponse, data: Data?)
    /// The body could not be decoded (`json(request:options:)`).
    case deserializationError(error: Swift.Error)

    /// The same text as RxSwift's, for logs that are compared.
    public var debugDescription: String {
        switch self {
        case .unknown:
            return "Unknown error has occurred."
        case let .nonHTTPResponse(response):
            return "Response is not NSHTTPURLResponse `\(response)`."
        case let .httpRequestFailed(response, _):
            return "HTTP request failed with `\(response.statusCode)`."
        case let .deserializationError(error):
            return "Error during deserialization of the response: \(error)"
        }
    }
}

/// Whether `URLSession.rx` logs a request, shared by every session.
private let requestLogging = LockedState<(URLRequest) -> Bool>({ _ in
    #if DEBUG
    return true
    #else
    return false
    #endif
})

extension Reactive where Base == URLSession {
    /// Decides, per request, whether `response(request:)` (and so `data` and `json`)
    /// prints the request as a `curl` command and the outcome with its duration to the
    /// standard output. By default it logs in debug builds only.
    public static var shouldLogRequest: (URLRequest) -> Bool {
        get { requestLogging.withLock { $0 } }
        set { requestLogging.withLock { $0 = newValue } }
    }
}

extension Reactive where Base: URLSession {
    /// The response and body of `request`.
    ///
    /// The request is sent when the sequence is subscribed to, once per subscription;
    /// disposing the subscription cancels it. The sequence sends one element and
    /// completes, or fails with the transport's error, with
    /// `RxCocoaURLError.nonHTTPResponse` when the response is not HTTP, or with
    /// `RxCocoaURLError.unknown` when neither came. Any status code is a response here.
    ///
    /// - parameter request: The request to send.
    /// - returns: The HTTP response and its body.
    public func response(request: URLRequest) -> Observable<(response: HTTPURLResponse, data: Data)> {
        let session = base
        return Observable.create { observer in
            let receiver = UnsafeTransfer(observer)
            let started: Date? = URLSession.rx.shouldLogRequest(request) ? Date() : nil
            let task = session.dataTask(with: request) { data, response, error in
                if let started {
                    print(curlCommand(for: request))
                    print(outcomeLine(response, error, duration: Date().timeIntervalSince(started)))
                }
                guard let response, let data else {
                    receiver.value.onError(error ?? RxCocoaURLError.unknown)
                    return
                }
                guard let httpResponse = response as? HTTPURLResponse else {
                    receiver.value.onError(RxCocoaURLError.nonHTTPResponse(response: response))
                    return
                }
                receiver.value.onNext((response: httpResponse, data: data))
                receiver.value.onCompleted()
            }
            task.resume()
            return Disposables.create { task.cancel() }
        }
    }

    /// The body of `request`'s response.
    ///
    /// As `response(request:)`, and a status code outside `200..<300` fails with
    /// `RxCocoaURLError.httpRequestFailed`.
    ///
    /// - parameter request: The request to send.
    /// - returns: The body of a successful response.
    public func data(request: URLRequest) -> Observable<Data> {
        response(request: request).map { response, data in
            guard (200..<300).contains(response.statusCode) else {
                throw RxCocoaURLError.httpRequestFailed(response: response, data: data)
            }
            return data
        }
    }

    /// The body of `request`'s response, decoded by `JSONSerialization`.
    ///
    /// As `data(request:)`, and a body that does not decode fails with
    /// `RxCocoaURLError.deserializationError`.
    ///
    /// - parameter request: The request to send.
    /// - parameter options: How `JSONSerialization` reads the body.
    /// - returns: The decoded body.
    public func json(request: URLRequest, options: JSONSerialization.ReadingOptions = []) -> Observable<Any> {
        data(request: request).map { data in
            do {
                return try JSONSerialization.jsonObject(with: data, options: options)
            } catch {
                throw RxCocoaURLError.deserializationError(error: error)
            }
        }
    }

    /// The body of a GET request for `url`, decoded by `JSONSerialization`: as
    /// `json(request:options:)` with default options.
    ///
    /// - parameter url: The address to get.
    /// - returns: The decoded body.
    public func json(url: Foundation.URL) -> Observable<Any> {
        json(request: URLRequest(url: url))
    }
}

// MARK: - Logging

/// `request` as a `curl` command that sends it again.
private func curlCommand(for request: URLRequest) -> String {
    func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
    var parts = ["curl -X \(request.httpMethod ?? "GET")"]
    if let body = request.httpBody, let text = String(data: body, encoding: .utf8) {
        parts.append("-d \(quoted(text))")
    }
    for (field, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
        parts.append("\n    -H \(quoted("\(field): \(value)"))")
    }
    parts.append("\n\(quoted(request.url?.absoluteString ?? "<unknown url>")) -i -v")
    return parts.joined(separator: " ")
}

/// One line saying how a request ended and how long it took.
private func outcomeLine(_ response: URLResponse?, _ error: Swift.Error?, duration: TimeInterval) -> String {
    let milliseconds = Int(duration * 1_000)
    if let response = response as? HTTPURLResponse {
        let verdict = (200..<300).contains(response.statusCode) ? "Success" : "Failure"
        return "\(verdict) (\(milliseconds)ms): Status \(response.statusCode)"
    }
    if let error {
        if let urlError = error as? URLError, urlError.code == .cancelled {
            return "Cancelled (\(milliseconds)ms)"
        }
        return "Failure (\(milliseconds)ms): \(error)"
    }
    return "<Unhandled response from server>"
}
