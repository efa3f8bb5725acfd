import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RivuletTestSupport
import RxBlocking
import RxCocoa
import RxSwift
import RxTest
import Testing

/// Serves canned answers to the sessions of these tests, by the request's path, with
/// no network: `canned://` answers with a response that is not HTTP.
private final class CannedURLProtocol: URLProtocol {
    /// The paths of the requests that started loading and of those stopped.
    static let started = LockedBox<[String]>([])
    static let stopped = LockedBox<[String]>([])

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let url = request.url!
        Self.started.mutate { $0.append(url.path) }
        switch (url.scheme, url.path) {
        case ("canned", _):
            answer(URLResponse(url: url, mimeType: "text/plain", expectedContentLength: 2, textEncodingName: nil), body: "hi")
        case (_, "/ok.json"):
            answer(status: 200, body: #"{"answer": 42, "list": [1, 2]}"#)
        case (_, "/fragment.json"):
            answer(status: 200, body: "7")
        case (_, "/text"):
            answer(status: 201, body: "not json")
        case (_, "/missing"):
            answer(status: 404, body: "no such page")
        case (_, "/offline"):
            client?.urlProtocol(self, didFailWithError: URLError(.notConnectedToInternet))
        case (_, "/hang"):
            break
        default:
            answer(status: 500, body: "unexpected path \(url.path)")
        }
    }

    override func stopLoading() {
        Self.stopped.mutate { $0.append(request.url!.path) }
    }

    private func answer(status: Int, body: String) {
        answer(HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["X-Canned": "yes"])!, body: body)
    }

    private func answer(_ response: URLResponse, body: String) {
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data(body.utf8))
        client?.urlProtocolDidFinishLoading(self)
    }
}

/// The one session of these tests, whose requests `CannedURLProtocol` answers.
private let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [CannedURLProtocol.self]
    return URLSession(configuration: configuration)
}()

private func request(_ path: String) -> URLRequest {
    URLRequest(url: URL(string: "http://rivulet.test\(path)")!)
}

/// The error `observable` fails with, or `nil` when it does not fail within 10 s.
private func failure<Element>(of observable: Observable<Element>) -> Swift.Error? {
    switch observable.toBlocking(timeout: 10).materialize() {
    case .failed(_, let error): return error
    case .completed: return nil
    }
}

// The suite changes the process-wide `shouldLogRequest`, and counts requests in
// statics: its tests run one at a time.
@Suite("URLSession.rx", .serialized, .rxLeakCheck)
struct URLSessionTests {
    init() {
        URLSession.rx.shouldLogRequest = { _ in false }
    }

    @Test("response(request:) sends the HTTP response and its body, then completes")
    func response() throws {
        let result = try session.rx.response(request: request("/ok.json")).toBlocking(timeout: 10).toArray()
        #expect(result.count == 1)
        let (response, data) = try #require(result.first)
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "X-Canned") == "yes")
        #expect(String(decoding: data, as: UTF8.self) == #"{"answer": 42, "list": [1, 2]}"#)
        let labelled = try session.rx.response(request: request("/missing")).toBlocking(timeout: 10).single()
        #expect(labelled.response.statusCode == 404, "any status is a response")
        #expect(labelled.data == Data("no such page".utf8))
    }

    @Test("each subscription sends the request again; nothing is sent before one")
    func requestPerSubscription() throws {
        CannedURLProtocol.started.mutate { $0.removeAll() }
        let data = session.rx.data(request: request("/text"))
        #expect(CannedURLProtocol.started.value.isEmpty)
        _ = try data.toBlocking(timeout: 10).single()
        _ = try data.toBlocking(timeout: 10).single()
        #expect(CannedURLProtocol.started.value == ["/text", "/text"])
    }

    @Test("data(request:) sends the body of a 2xx response")
    func data() throws {
        let body = try session.rx.data(request: request("/text")).toBlocking(timeout: 10).single()
        #expect(String(decoding: body, as: UTF8.self) == "not json")
    }

    @Test("data(request:) fails with httpRequestFailed, with the response and body, outside 200..<300")
    func dataFailsOnStatus() throws {
        let error = try #require(failure(of: session.rx.data(request: request("/missing"))))
        guard case let RxCocoaURLError.httpRequestFailed(response, data) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(response.statusCode == 404)
        #expect(data == Data("no such page".utf8))
        #expect((error as? RxCocoaURLError)?.debugDescription == "HTTP request failed with `404`.")
    }

    @Test("json(request:options:) and json(url:) decode the body")
    func json() throws {
        let object = try session.rx.json(request: request("/ok.json")).toBlocking(timeout: 10).single()
        let dictionary = try #require(object as? [String: Any])
        #expect(dictionary["answer"] as? Int == 42)
        #expect(dictionary["list"] as? [Int] == [1, 2])
        let byURL = try session.rx.json(url: URL(string: "http://rivulet.test/ok.json")!).toBlocking(timeout: 10).single()
        #expect((byURL as? [String: Any])?["answer"] as? Int == 42)
        let fragment = try session.rx.json(request: request("/fragment.json"), options: [.fragmentsAllowed]).toBlocking(timeout: 10).single()
        #expect(fragment as? Int == 7)
    }

    @Test("json fails with deserializationError for a body that is not JSON, and with httpRequestFailed first")
    func jsonFailures() throws {
        let error = try #require(failure(of: session.rx.json(request: request("/text"))))
        guard case RxCocoaURLError.deserializationError = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        let statusError = try #require(failure(of: session.rx.json(request: request("/missing"))))
        guard case RxCocoaURLError.httpRequestFailed = statusError else {
            Issue.record("unexpected error \(statusError)")
            return
        }
    }

    @Test("a response that is not HTTP fails with nonHTTPResponse")
    func nonHTTPResponse() throws {
        let plain = URLRequest(url: URL(string: "canned://rivulet.test/plain")!)
        let error = try #require(failure(of: session.rx.response(request: plain)))
        guard case let RxCocoaURLError.nonHTTPResponse(response) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(response.url?.scheme == "canned")
        #expect(!(response is HTTPURLResponse))
    }

    @Test("a transport error passes through as it is")
    func transportError() throws {
        let error = try #require(failure(of: session.rx.response(request: request("/offline"))))
        #expect((error as? URLError)?.code == .notConnectedToInternet)
    }

    @Test("disposing the subscription cancels the request")
    func disposeCancels() {
        CannedURLProtocol.started.mutate { $0.removeAll() }
        CannedURLProtocol.stopped.mutate { $0.removeAll() }
        var events = 0
        let subscription = session.rx.response(request: request("/hang")).subscribe { _ in events += 1 }
        #expect(eventually { CannedURLProtocol.started.value == ["/hang"] })
        #expect(CannedURLProtocol.stopped.value.isEmpty)
        subscription.dispose()
        #expect(eventually { CannedURLProtocol.stopped.value == ["/hang"] })
        #expect(events == 0)
    }

    @Test("shouldLogRequest is asked about each request sent, with that request")
    func shouldLogRequest() throws {
        let asked = LockedBox<[String]>([])
        URLSession.rx.shouldLogRequest = { request in
            asked.mutate { $0.append(request.url?.path ?? "?") }
            return true
        }
        defer { URLSession.rx.shouldLogRequest = { _ in false } }
        _ = try session.rx.data(request: request("/text")).toBlocking(timeout: 10).single()
        _ = failure(of: session.rx.data(request: request("/missing")))
        #expect(asked.value == ["/text", "/missing"])
    }
}
